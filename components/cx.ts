/** Joins the class names that apply (CSS module classes chosen by state); false, null and undefined are dropped. */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}
