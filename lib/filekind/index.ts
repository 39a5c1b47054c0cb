/**
 * What a file that yields no rollout at all is instead, so the user reads one sentence ("this is a CSV
 * file") instead of hundreds of "bad line" errors. Only consulted when not one line of the file is a
 * rollout or an inputs row; the evidence is the file's first bytes (after gzip decoding).
 */
import type { LineKind } from "../folder";

export type FileProblemKind =
  | "empty"
  | "utf16"
  | "binary"
  | "json_document"
  | "json_array"
  | "csv"
  | "not_jsonl"
  | "task_rows";

export interface FileProblem {
  readonly kind: FileProblemKind;
  /** One sentence: what the file is and what the tool expects. */
  readonly message: string;
}

/** Bytes of the file's start examined (enough for a header line and a few rows). */
export const SNIFF_BYTES = 4096;
/** Share of control bytes (other than tab, CR, LF) above which the start of a file is binary. */
const BINARY_CONTROL_SHARE = 0.1;

const EXPECTED =
  "Rollout Inspector reads JSON Lines: one rollout object per line, as Gym's rollouts files are written.";

function controlShare(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let control = 0;
  for (const b of bytes) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) control++;
  return control / bytes.length;
}

function looksUtf16(bytes: Uint8Array): boolean {
  if (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  )
    return true;
  // ASCII text in UTF-16 without a BOM: every other byte is NUL.
  let evenNul = 0;
  let oddNul = 0;
  const n = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) {
    if (bytes[i] !== 0) continue;
    if (i % 2 === 0) evenNul++;
    else oddNul++;
  }
  const half = n / 2;
  return half >= 4 && (evenNul > 0.8 * half || oddNul > 0.8 * half);
}

/**
 * What to say of a whole file that gave no rollout, from the kinds of its lines (lib/folder LineKind) and
 * its first bytes: task rows and nothing else are the inputs of a run; lines that each have a kind of their
 * own (a placeholder, a record that is not a rollout) make it JSONL, named line by line, so nothing is said
 * of the file; only a file whose lines are all not JSON (or that has none) is something else (fileProblem).
 * The page and every CLI command decide it here.
 */
export function noRolloutProblem(start: Uint8Array, kinds: Iterable<LineKind>): FileProblem | null {
  const seen = new Set(kinds);
  if (seen.size === 1 && seen.has("task_row")) {
    return {
      kind: "task_rows",
      message:
        "This file holds task rows (responses_create_params without a response), not rollouts: they are the inputs a run's rollouts are paired with. Give it beside the rollouts file (the CLI's --inputs), or open the folder Gym wrote.",
    };
  }
  for (const kind of seen) if (kind !== "not_json") return null;
  return fileProblem(start);
}

/**
 * Why a file with no rollout and no inputs row is not a rollouts JSONL file. `start` is its first bytes
 * (SNIFF_BYTES is plenty).
 */
export function fileProblem(start: Uint8Array): FileProblem {
  const bytes = start.subarray(0, SNIFF_BYTES);
  if (looksUtf16(bytes)) {
    return {
      kind: "utf16",
      message: `This file is UTF-16 text, not UTF-8: save it as UTF-8 JSON Lines. ${EXPECTED}`,
    };
  }
  if (controlShare(bytes) > BINARY_CONTROL_SHARE) {
    return { kind: "binary", message: `This is a binary file, not a rollouts JSONL file. ${EXPECTED}` };
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes).replace(/^\uFEFF/, "");
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  // Shorter than the sniff window: these bytes are the whole file, and they hold no text.
  if (lines.length === 0 && start.length < SNIFF_BYTES) {
    return {
      kind: "empty",
      message: `This file is empty: it holds no rollout and no other text. ${EXPECTED}`,
    };
  }
  const first = (lines[0] ?? "").trim();
  if (first.startsWith("[")) {
    return {
      kind: "json_array",
      message: `This file holds one JSON array, not JSON Lines: write each rollout as its own line. ${EXPECTED}`,
    };
  }
  if (first.startsWith("{")) {
    // One line as long as the window (a Gym rollout is tens of KB) is a line of its own, not a document
    // spread over lines: cut short, or not JSON, as its own error says.
    if (lines.length === 1) {
      return {
        kind: "not_jsonl",
        message:
          "No line of this file is a rollout: its first line starts a JSON object that does not parse, a line cut short (a run still writing the file, or a copy stopped early) or not JSON; the unreadable line says which.",
      };
    }
    return {
      kind: "json_document",
      message: `This file is one JSON document spread over several lines, not JSON Lines: write each rollout on one line. ${EXPECTED}`,
    };
  }
  const commas = (line: string) => (line.match(/,/g) ?? []).length;
  const header = commas(first);
  if (header > 0 && lines.length > 1 && lines.slice(1, 6).every((line) => commas(line) >= header)) {
    return { kind: "csv", message: `This looks like a CSV file, not a rollouts JSONL file. ${EXPECTED}` };
  }
  return {
    kind: "not_jsonl",
    message: `No line of this file is a rollout (a JSON object with response.output). ${EXPECTED}`,
  };
}
