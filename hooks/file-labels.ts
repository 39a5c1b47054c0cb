/**
 * How a file is shown where files of the same name can sit side by side (the inspector's chips, the
 * /compare pickers): its name when no other file in the list has it, else "name #k", the k-th file of that
 * name in opening order. Files are told apart by dataset id; the label is only for people.
 */
export function fileLabels(
  files: readonly { readonly id: string; readonly name: string }[],
): Map<string, string> {
  const counts = new Map<string, number>();
  for (const file of files) counts.set(file.name, (counts.get(file.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  const labels = new Map<string, string>();
  for (const file of files) {
    if (labels.has(file.id)) continue;
    const k = (seen.get(file.name) ?? 0) + 1;
    seen.set(file.name, k);
    labels.set(file.id, (counts.get(file.name) ?? 0) > 1 ? `${file.name} #${k}` : file.name);
  }
  return labels;
}
