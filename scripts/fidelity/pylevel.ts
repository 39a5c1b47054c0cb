/**
 * The Python-level fidelity cases: the semantics Gym's workplace_assistant code relies on that depend on the
 * Python version, checked against CPython 3.13 (Gym's pin) directly, without pandas (there is no pandas for
 * 3.13 here). Each case is evaluated by scripts/fidelity/py_level.py in CPython and by the port here; the
 * outcomes are strings in the same format on both sides:
 *
 *   json_nest / json  json.loads: "ok:<type name>", "JSONDecodeError", "RecursionError", or
 *                     "ValueError: <message>" (the integer string-conversion limit).
 *   int               int(text): "ok:<value>" (a long value as "ok:<n> digits"), or "ValueError: <message>".
 *   sweep             one str operation on every code point of a block of 4096: the first 16 hex digits of the
 *                     sha256 of the results joined by NUL, as UTF-16LE (lone surrogates included).
 *
 * `npm run fidelity` writes what 3.13 gives (and 3.11's answer where it differs) to
 * fixtures/fidelity/expected-py313.jsonl; pylevel.test.ts holds the port to it.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import {
  PY_INT_MAX_STR_DIGITS,
  type PyJsonBuilder,
  pyIntFromStr,
  pyJsonParse,
  pyStrRepr,
} from "../../lib/verifiers/python";
import {
  decimalValue,
  isAlpha,
  isDigit,
  isPrintable,
  isSpace,
  pyLower,
  pyUpper,
} from "../../lib/verifiers/pyunicode";

export const SWEEP_FNS = [
  "isdigit",
  "isalpha",
  "isspace",
  "isprintable",
  "isdecimal",
  "int",
  "lower",
  "upper",
  "sigma_after",
  "sigma_between",
  "repr",
  "re_digit",
  "re_space",
] as const;
export type SweepFn = (typeof SWEEP_FNS)[number];

export type PyCase =
  | { readonly op: "json_nest"; readonly shape: "args" | "list" | "dict"; readonly depth: number }
  | { readonly op: "json"; readonly text: string }
  | { readonly op: "int"; readonly text: string }
  | { readonly op: "sweep"; readonly fn: SweepFn; readonly block: number };

export const SWEEP_BLOCK = 4096;
const MAX_CODE_POINT = 0x10ffff;

/** Nesting depths: every depth where 3.11 (near 1,000) and 3.13 (near 10,000) stop, every 100th between. */
export function nestingDepths(): number[] {
  const depths = new Set<number>();
  for (let d = 900; d <= 1100; d++) depths.add(d);
  for (let d = 1100; d <= 9900; d += 100) depths.add(d);
  for (let d = 9900; d <= 10010; d++) depths.add(d);
  for (const d of [12000, 20000]) depths.add(d);
  return [...depths].sort((a, b) => a - b);
}

/** The zero of every run of ten decimal digits, by the port's tables (Python 3.13's). */
function decimalZeros(): number[] {
  const zeros: number[] = [];
  for (let cp = 0; cp <= MAX_CODE_POINT; cp++) if (decimalValue(cp) === 0) zeros.push(cp);
  return zeros;
}

export function buildPyCases(): PyCase[] {
  const cases: PyCase[] = [];
  for (const shape of ["args", "list", "dict"] as const) {
    for (const depth of nestingDepths()) cases.push({ op: "json_nest", shape, depth });
  }

  const L = PY_INT_MAX_STR_DIGITS;
  const ones = (n: number) => "1".repeat(n);
  for (const n of [L - 1, L, L + 1, L + 2, 5000, 10000]) {
    for (const text of [ones(n), `-${ones(n)}`, `[${ones(n)}]`, `{"a": ${ones(n)}}`, `${ones(n)}.0`]) {
      cases.push({ op: "json", text });
    }
    for (const text of [
      `${ones(n)}e0`,
      `[${ones(n)}, x]`,
      `[x, ${ones(n)}]`,
      `"${ones(n)}"`,
      `0${ones(n)}`,
    ]) {
      cases.push({ op: "json", text });
    }
  }

  for (const n of [L - 1, L, L + 1, 5000]) {
    for (const text of [
      ones(n),
      `-${ones(n)}`,
      `+${ones(n)}`,
      `  ${ones(n)}\n`,
      `\u3000${ones(n)}\u0085`,
      `${"0".repeat(n - 1)}1`,
      ones(n).split("").join("_"),
      `${ones(n)}_`,
      `${ones(n)}x`,
      `x${ones(n)}`,
      `${ones(n)}.5`,
    ]) {
      cases.push({ op: "int", text });
    }
  }
  for (const text of [
    "x".repeat(199),
    "x".repeat(200),
    "x".repeat(300),
    "\u00e9".repeat(300),
    " 12 3",
    "\x1c5",
  ]) {
    cases.push({ op: "int", text });
  }
  // Every script's decimal digits, as int() reads them (Kawi and Nag Mundari are new in Unicode 15.0).
  for (const zero of decimalZeros()) {
    const digits = Array.from({ length: 10 }, (_, d) => String.fromCodePoint(zero + d)).join("");
    cases.push({ op: "int", text: digits });
    cases.push({ op: "int", text: `-${digits}\u3000` });
    cases.push({ op: "int", text: String.fromCodePoint(zero + 7).repeat(L + 1) });
  }

  for (const fn of SWEEP_FNS) {
    for (let block = 0; block * SWEEP_BLOCK <= MAX_CODE_POINT; block++)
      cases.push({ op: "sweep", fn, block });
  }
  return cases;
}

export function pyCaseLines(cases: readonly PyCase[]): string[] {
  return cases.map((c) => JSON.stringify(c));
}

export function pyCasesSha256(lines: readonly string[]): string {
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

/** json.loads for its outcome: only the top-level type is kept. */
const TYPE_BUILDER: PyJsonBuilder<string> = {
  none: () => "NoneType",
  bool: () => "bool",
  int: () => "int",
  float: () => "float",
  str: () => "str",
  list: () => "list",
  dict: () => "dict",
};

function jsonOutcome(text: string): string {
  const r = pyJsonParse(text, TYPE_BUILDER);
  if (r.ok) return `ok:${r.value}`;
  return r.pyType === "ValueError" ? `ValueError: ${r.error}` : r.pyType;
}

export function nestText(shape: "args" | "list" | "dict", depth: number): string {
  if (shape === "list") return "[".repeat(depth) + "]".repeat(depth);
  if (shape === "dict") return `${'{"a": '.repeat(depth)}1${"}".repeat(depth)}`;
  return `{"email_id": "00000057", "x": ${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
}

function intOutcome(text: string): string {
  const r = pyIntFromStr(text);
  if (!r.ok) return `ValueError: ${r.error}`;
  const v = r.value;
  const digits = (v < 0n ? -v : v).toString();
  return digits.length <= 40 ? `ok:${v}` : `ok:${v < 0n ? "-" : ""}${digits.length} digits`;
}

const bit = (b: boolean) => (b ? "1" : "0");

/** The port's answer for one code point, as py_level.py's sweep_one gives Python's. */
export function sweepOne(fn: SweepFn, cp: number): string {
  const c = String.fromCodePoint(cp);
  switch (fn) {
    case "isdigit":
      return bit(isDigit(cp));
    case "isalpha":
      return bit(isAlpha(cp));
    case "isspace":
      return bit(isSpace(cp));
    case "isprintable":
      return bit(isPrintable(cp));
    case "isdecimal":
    case "re_digit":
      // Python's re matches \d by the same table as str.isdecimal; the port's regexes over Python text
      // check digits with it (timestamp.ts) rather than the JS engine's \p{Nd}.
      return bit(decimalValue(cp) >= 0);
    case "int": {
      const r = pyIntFromStr(c);
      return r.ok ? String(r.value) : "E";
    }
    case "lower":
      return pyLower(c);
    case "upper":
      return pyUpper(c);
    case "sigma_after":
      return pyLower(`${c}\u03a3`);
    case "sigma_between":
      return pyLower(`A${c}\u03a3`);
    case "repr":
      return pyStrRepr(c);
    case "re_space":
      return bit(isSpace(cp));
  }
}

/** sha256 of the results joined by NUL, as UTF-16LE code units (what Python's "utf-16-le", "surrogatepass" gives). */
export function sweepDigest(results: readonly string[]): string {
  const text = results.join("\u0000");
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes[2 * i] = unit & 0xff;
    bytes[2 * i + 1] = unit >> 8;
  }
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}

export function sweepResults(fn: SweepFn, block: number): string[] {
  const start = block * SWEEP_BLOCK;
  const end = Math.min(start + SWEEP_BLOCK, MAX_CODE_POINT + 1);
  const out: string[] = [];
  for (let cp = start; cp < end; cp++) out.push(sweepOne(fn, cp));
  return out;
}

/** The port's outcome for one case. */
export function portOutcome(c: PyCase): string {
  switch (c.op) {
    case "json_nest":
      return jsonOutcome(nestText(c.shape, c.depth));
    case "json":
      return jsonOutcome(c.text);
    case "int":
      return intOutcome(c.text);
    case "sweep":
      return sweepDigest(sweepResults(c.fn, c.block));
  }
}

/** fixtures/fidelity/expected-py313.jsonl: a header, then per case 3.13's outcome and, where it differs, 3.11's. */
export const PY_EXPECTED_PATH = join(
  import.meta.dirname,
  "..",
  "..",
  "fixtures",
  "fidelity",
  "expected-py313.jsonl",
);

export const PyExpectedHeaderSchema = z.object({
  cases_sha256: z.string(),
  cases: z.number(),
  scored_by: z.string(),
  compared_with: z.string(),
  /** Per sweep function, the code points where 3.11 answers otherwise than 3.13, as [start, end) ranges. */
  py311_code_points: z.record(z.string(), z.array(z.tuple([z.number(), z.number()]))),
});
export const PyExpectedRowSchema = z.object({ r: z.string(), py311: z.string().optional() });
export type PyExpectedRow = z.infer<typeof PyExpectedRowSchema>;

export function readPyExpected(): {
  header: z.infer<typeof PyExpectedHeaderSchema>;
  rows: PyExpectedRow[];
} {
  const [first = "{}", ...rest] = readFileSync(PY_EXPECTED_PATH, "utf8").trim().split("\n");
  return {
    header: PyExpectedHeaderSchema.parse(JSON.parse(first)),
    rows: rest.map((line) => PyExpectedRowSchema.parse(JSON.parse(line))),
  };
}

export function writePyExpected(
  header: z.infer<typeof PyExpectedHeaderSchema>,
  rows: readonly PyExpectedRow[],
): void {
  writeFileSync(PY_EXPECTED_PATH, `${[header, ...rows].map((v) => JSON.stringify(v)).join("\n")}\n`);
}

/** A short label for a case, for reports. */
export function caseLabel(c: PyCase): string {
  switch (c.op) {
    case "json_nest":
      return `json.loads nesting ${c.shape} ${c.depth}`;
    case "json":
    case "int": {
      const t = c.text;
      const shown =
        t.length > 40 ? `${JSON.stringify(t.slice(0, 20))}… (${t.length} chars)` : JSON.stringify(t);
      return `${c.op === "int" ? "int" : "json.loads"}(${shown})`;
    }
    case "sweep": {
      const start = c.block * SWEEP_BLOCK;
      return `${c.fn} U+${start.toString(16).toUpperCase().padStart(4, "0")}..U+${(start + SWEEP_BLOCK - 1).toString(16).toUpperCase().padStart(4, "0")}`;
    }
  }
}
