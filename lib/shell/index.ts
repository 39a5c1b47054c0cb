/**
 * Words of the shell commands the app and the CLI print for a user to run (a POSIX shell): a path with a
 * space or a quote in it (`/Users/Jane Doe/runs`) stays one word.
 */

/** `text` as one shell word, always quoted: `'it'\''s'`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `text` as one shell word, quoted only when the shell would split or expand it (plain paths read as typed). */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : shellQuote(text);
}
