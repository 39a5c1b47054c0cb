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

import { skeleton } from "./skeleton";

export type NameFlag =
  /** Zero-width, format, control, private-use, unassigned or non-space whitespace code points. */
  | "invisible_characters"
  /** Bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E/U+200F, U+061C): they reorder the text shown. */
  | "bidi_controls"
  /** Letters from more than one script (e.g. Latin with Cyrillic or Greek look-alikes). */
  | "mixed_scripts"
  /** Compatibility forms that normalize (NFKC) to other characters: fullwidth, mathematical, ligatures. */
  | "lookalike_characters"
  /** Leading, trailing or doubled spaces: "workplace_assistant " reads as "workplace_assistant". */
  | "whitespace"
  /**
   * Looks like another name of the same rollout: both have the same confusable skeleton (Unicode UTS #39,
   * ./skeleton.ts), e.g. "calendar_ɡet_events" (Latin script g) beside the tool "calendar_get_events".
   */
  | "confusable";

export const NAME_FLAG_HELP: Record<NameFlag, string> = {
  invisible_characters: "the name contains invisible characters, shown as ⟨U+…⟩",
  bidi_controls: "the name contains bidirectional controls that reorder its text, shown as ⟨U+…⟩",
  mixed_scripts:
    "the name mixes letters of several scripts; the letters outside its main script are shown as ⟨U+…⟩",
  lookalike_characters: "the name contains compatibility characters that look like others, shown as ⟨U+…⟩",
  whitespace: "the name has leading, trailing or doubled spaces, shown as ⟨U+0020⟩",
  confusable:
    "the name looks like another name of this rollout (the same Unicode confusable skeleton); its look-alike characters are shown as ⟨U+…⟩",
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

/** Spaces that hide: leading, trailing, or next to another space. */
const ODD_SPACES = /^ | $| {2}/;

/**
 * How `name` is shown: its display form, marked segments and flags. With `known` (the names of the rollout
 * it belongs to, see KnownNames), a name that looks like another of them is flagged `confusable` too.
 */
export function showName(name: string, known?: Lookalikes): ShownName {
  const confusable = known !== undefined && known.lookalike(name) !== null;
  if (!confusable && PLAIN.test(name) && !ODD_SPACES.test(name))
    return { raw: name, display: name, segments: [{ text: name, marked: false }], flags: [] };
  const key = confusable ? `\u0000${name}` : name;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const shown = inspect(name, confusable);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, shown);
  return shown;
}

/** Is the space at `i` of `chars` leading, trailing or doubled? */
function oddSpace(chars: readonly string[], i: number): boolean {
  return (
    chars[i] === " " && (i === 0 || i === chars.length - 1 || chars[i - 1] === " " || chars[i + 1] === " ")
  );
}

function inspect(name: string, confusable: boolean): ShownName {
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
    else if (oddSpace(chars, i)) why = "whitespace";
    else if (confusable && lookalikeChar(chars, i)) why = "confusable";
    if (why === null && ch !== MARKER_OPEN) {
      plain += ch;
      return;
    }
    if (why !== null) flags.add(why);
    flush();
    segments.push({ text: marker(ch), marked: true });
  });
  flush();
  // A confusable name whose look-alike characters were all marked for another reason is still confusable.
  if (confusable) flags.add("confusable");
  return {
    raw: name,
    display: segments.map((s) => s.text).join(""),
    segments,
    flags: [...flags],
  };
}

/** Plain-text display form of `name` (see showName). */
export function displayName(name: string, known?: Lookalikes): string {
  return showName(name, known).display;
}

/** Flags of `name` (among `known`, see showName); empty when it is shown as it is. */
export function nameFlags(name: string, known?: Lookalikes): readonly NameFlag[] {
  return showName(name, known).flags;
}

/**
 * The names one rollout knows (declared tools, the verifiers' tool lists, server and environment names,
 * its calls' names), by confusable skeleton: what `confusable` compares a name with.
 */
export class KnownNames implements Lookalikes {
  /** Built on the first question about a name that is not plain ASCII (most rollouts never ask one). */
  private bySkeleton: Map<string, string[]> | null = null;
  /** Answers for names that are not plain ASCII, by name. */
  private readonly answers = new Map<string, string | null>();

  constructor(private readonly names: Iterable<string>) {}

  /**
   * Another known name that `name` looks like (the same skeleton), or null. Plain ASCII names are never
   * confusable: "rn" and "m", "l" and "1" have one skeleton, and real tool names differ by them.
   */
  lookalike(name: string): string | null {
    if (PLAIN.test(name)) return null;
    // A name asked about again (a 100k-call rollout repeats its names) is not skeletonized again.
    const known = this.answers.get(name);
    if (known !== undefined) return known;
    const answer = this.skeletonMatch(name);
    this.answers.set(name, answer);
    return answer;
  }

  private skeletonMatch(name: string): string | null {
    if (this.bySkeleton === null) {
      this.bySkeleton = new Map();
      for (const known of new Set(this.names)) {
        const key = skeleton(known);
        const same = this.bySkeleton.get(key);
        if (same === undefined) this.bySkeleton.set(key, [known]);
        else same.push(known);
      }
    }
    const same = this.bySkeleton.get(skeleton(name));
    return same?.find((other) => other !== name) ?? null;
  }
}

/** What showName asks about a name's look-alikes: KnownNames, or a page's list of them from the worker. */
export interface Lookalikes {
  /** Another name this one looks like, or null. */
  lookalike(name: string): string | null;
}

/** Is chars[i] a character that looks like another (or a mark that vanishes on one)? */
function lookalikeChar(chars: readonly string[], i: number): boolean {
  const ch = chars[i]!;
  if (PLAIN.test(ch)) return false;
  if (skeleton(ch) !== ch.normalize("NFD")) return true;
  // A combining mark on a marked character (U+0307 on a dotless i) is part of the look-alike.
  return /\p{M}/u.test(ch) && i > 0 && lookalikeChar(chars, i - 1);
}

/**
 * `name` quoted for a sentence: JSON-style quotes and escapes (so a quote or a control character in
 * it cannot end or break the sentence), with every suspicious code point marked.
 */
export function quoteName(name: string): string {
  return `"${displayName(JSON.stringify(name).slice(1, -1))}"`;
}
