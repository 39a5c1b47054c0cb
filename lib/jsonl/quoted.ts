/**
 * A token of a one-line expression (a filter clause's value, an agent name in a harness choice): bare text as it
 * is, or a JSON string when it starts with a quote, so names with spaces, commas or quotes can be written.
 * undefined: a quoted token that is not one JSON string.
 */
export function bareOrJsonString(text: string): string | undefined {
  if (!text.startsWith('"')) return text;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
