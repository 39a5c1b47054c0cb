/**
 * Text from a rollout file never reaches a terminal as control sequences. An environment_name such as
 * "\x1b[2J\x1b[31mOWNED" would clear the screen and recolour it; a bidi override would reorder a line.
 *
 * - terminalText: human-readable text (summaries, tables, errors). Every control, format (bidi, zero
 *   width), separator, private-use or unassigned code point is shown as ⟨U+XXXX⟩, the marker lib/names
 *   uses for names; "\n" and "\t" are kept only when `keepLayout` (for text the command itself laid out).
 * - terminalJson: JSON lines. The same code points are written as \uXXXX escapes, which JSON allows in
 *   any string: the value is unchanged for a parser, only the bytes on the terminal are inert.
 */

const UNSAFE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/gu;
const UNSAFE_IN_LAYOUT = /(?![\n\t])[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/gu;
/** JSON.stringify already escapes C0 controls, quotes and lone surrogates; these are the rest. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/gu;

const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");

export function terminalText(text: string, keepLayout = false): string {
  return text.replace(keepLayout ? UNSAFE_IN_LAYOUT : UNSAFE, (ch) => `⟨U+${hex(ch.codePointAt(0)!)}⟩`);
}

export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, (ch) => {
    let out = "";
    for (let i = 0; i < ch.length; i++) out += `\\u${hex(ch.charCodeAt(i)).toLowerCase()}`;
    return out;
  });
}
