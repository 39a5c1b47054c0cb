/**
 * The confusable skeleton of Unicode Technical Standard #39 (section 4): NFD, every code point replaced by
 * its prototype from confusables.txt, NFD again. Two strings with one skeleton look alike
 * ("calendar_ɡet" and "calendar_get", "wоrkplace" with a Cyrillic о and "workplace"). The table is
 * generated (scripts/gen-confusables.ts) from a pinned copy of the data; CONFUSABLES_VERSION says which.
 */
import { PROTOTYPES } from "./confusables.generated";

export { CONFUSABLES_SOURCE, CONFUSABLES_VERSION } from "./confusables.generated";

/**
 * i and j are Soft_Dotted: their own dot replaces a dot above, so "ı̇" (dotless i, combining dot above)
 * and "i̇" show as "i". confusables.txt maps the dotless i to i but keeps the mark; it is dropped here.
 */
const DOT_ON_SOFT_DOTTED = /([ij])\u0307/g;

/** Names repeat across a file's rollouts; a bounded memo keeps the skeletons cheap. */
const memo = new Map<string, string>();
const MEMO_LIMIT = 10_000;

export function skeleton(text: string): string {
  const known = memo.get(text);
  if (known !== undefined) return known;
  let mapped = "";
  for (const ch of text.normalize("NFD")) mapped += PROTOTYPES.get(ch.codePointAt(0)!) ?? ch;
  const result = mapped.normalize("NFD").replace(DOT_ON_SOFT_DOTTED, "$1");
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(text, result);
  return result;
}
