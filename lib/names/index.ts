/**
 * Names shown truthfully. A server, tool, alias or call_id comes from the rollout file, so it may carry
 * characters that render as nothing or as another character: zero-width and other invisible code points,
 * bidi controls that reorder what follows, letters of another script that look like Latin ones
 * ("wоrkplace" with a Cyrillic о), compatibility forms ("ｗorkplace"). Shown as they are, two different
 * names look identical ("attributes this call to server "workplace_assistant", not the verifying server
 * "workplace_assistant"") and a filter lists two identical entries.
 *
 * This is the one place that decides which code points are suspicious and how they are shown: each is
 * replaced by a visible marker `⟨U+XXXX⟩` (the marker's own opening bracket is escaped too, so a display
 * form is never ambiguous) and the name gets flags saying why. Front ends render `segments` (marked
 * pieces styled apart) or `display` (plain text: titles, option labels, terminal output).
 */

export type NameFlag =
  /** Zero-width, format, control, private-use, unassigned or non-space whitespace code points. */
  | "invisible_characters"
  /** Bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E/U+200F, U+061C): they reorder the text shown. */
  | "bidi_controls"
  /** Letters from more than one script (e.g. Latin with Cyrillic or Greek look-alikes). */
  | "mixed_scripts"
  /** Compatibility forms that normalize (NFKC) to other characters: fullwidth, mathematical, ligatures. */
  | "lookalike_characters";

export const NAME_FLAG_HELP: Record<NameFlag, string> = {
  invisible_characters: "the name contains invisible characters, shown as ⟨U+…⟩",
  bidi_controls: "the name contains bidirectional controls that reorder its text, shown as ⟨U+…⟩",
  mixed_scripts:
    "the name mixes letters of several scripts; the letters outside its main script are shown as ⟨U+…⟩",
  lookalike_characters: "the name contains compatibility characters that look like others, shown as ⟨U+…⟩",
};

export interface NameSegment {
  readonly text: string;
  /** True for a marker standing for one suspicious code point. */
  readonly marked: boolean;
}

export interface ShownName {
  /** The name as it really is. */
  readonly raw: string;
  /** Plain-text display form: every suspicious code point replaced by ⟨U+XXXX⟩. */
  readonly display: string;
  readonly segments: readonly NameSegment[];
  /** Why it was marked; empty for a name shown exactly as it is. */
  readonly flags: readonly NameFlag[];
}

const MARKER_OPEN = "⟨";

/** Nothing to check: printable ASCII. */
const PLAIN = /^[\x20-\x7e]*$/;
const BIDI = /\p{Bidi_Control}/u;
const INVISIBLE =
  /[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]|(?! )\p{White_Space}/u;
const LETTER = /\p{L}/u;
/** Letters shared by scripts (e.g. the Japanese prolonged sound mark) belong to none of them. */
const SHARED = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** Scripts a letter is sorted into; CJK scripts count as one, since they mix legitimately. */
const SCRIPTS: readonly [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
  ["CJK", /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
];

function scriptOf(ch: string): string {
  for (const [name, re] of SCRIPTS) if (re.test(ch)) return name;
  return "Other";
}

function marker(ch: string): string {
  return `${MARKER_OPEN}U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

const cache = new Map<string, ShownName>();
/** Names repeat across thousands of calls; a small cache keeps rendering cheap. */
const CACHE_LIMIT = 10_000;

/** How `name` is shown: its display form, marked segments and flags. */
export function showName(name: string): ShownName {
  if (PLAIN.test(name))
    return { raw: name, display: name, segments: [{ text: name, marked: false }], flags: [] };
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  const shown = inspect(name);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(name, shown);
  return shown;
}

function inspect(name: string): ShownName {
  const chars = Array.from(name);
  const flags = new Set<NameFlag>();
  const scripts = new Map<string, number>();
  const scriptAt: (string | null)[] = chars.map((ch) => {
    if (!LETTER.test(ch) || SHARED.test(ch)) return null;
    const script = scriptOf(ch);
    scripts.set(script, (scripts.get(script) ?? 0) + 1);
    return script;
  });
  // The main script is the most frequent; on a tie Latin wins (identifiers are mostly ASCII).
  let main: string | null = null;
  let best = 0;
  for (const [script, n] of scripts) {
    if (n > best || (n === best && script === "Latin")) {
      main = script;
      best = n;
    }
  }
  const mixed = scripts.size > 1;
  const segments: NameSegment[] = [];
  let plain = "";
  const flush = () => {
    if (plain !== "") segments.push({ text: plain, marked: false });
    plain = "";
  };
  chars.forEach((ch, i) => {
    let why: NameFlag | null = null;
    if (BIDI.test(ch)) why = "bidi_controls";
    else if (INVISIBLE.test(ch)) why = "invisible_characters";
    else if (ch.normalize("NFKC") !== ch) why = "lookalike_characters";
    else if (mixed && scriptAt[i] !== null && scriptAt[i] !== main) why = "mixed_scripts";
    if (why === null && ch !== MARKER_OPEN) {
      plain += ch;
      return;
    }
    if (why !== null) flags.add(why);
    flush();
    segments.push({ text: marker(ch), marked: true });
  });
  flush();
  return {
    raw: name,
    display: segments.map((s) => s.text).join(""),
    segments,
    flags: [...flags],
  };
}

/** Plain-text display form of `name` (see showName). */
export function displayName(name: string): string {
  return showName(name).display;
}

/** Flags of `name`; empty when it is shown as it is. */
export function nameFlags(name: string): readonly NameFlag[] {
  return showName(name).flags;
}

/**
 * `name` quoted for a sentence: JSON-style quotes and escapes (so a quote or a control character in
 * it cannot end or break the sentence), with every suspicious code point marked.
 */
export function quoteName(name: string): string {
  return `"${displayName(JSON.stringify(name).slice(1, -1))}"`;
}
