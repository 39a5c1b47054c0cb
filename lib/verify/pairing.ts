/**
 * Pairing a rollout with its materialized-inputs row. Gym's reverify pairs by the pair
 * (_ng_task_index, _ng_rollout_index), which collection stamps on both. Lines that carry no such pair (old
 * fixtures, hand-written examples, a raw `example.jsonl` used as inputs) pair by an equal task input,
 * `responses_create_params.input` compared as canonical JSON, as lib/compare pairs two runs. Several input
 * rows with that input that differ in anything but Gym's bookkeeping keys are ambiguous: reported, never
 * guessed.
 */
import { z } from "zod";
import { canonicalJson } from "../compare/actions";

const Keyed = z.looseObject({ _ng_task_index: z.number().int(), _ng_rollout_index: z.number().int() });
const WithInput = z.looseObject({ responses_create_params: z.looseObject({ input: z.unknown() }) });
const JsonObject = z.record(z.string(), z.unknown());

/** Keys Gym adds per (task, rollout) copy; rows that differ only in these hold the same task. */
const BOOKKEEPING_KEYS = new Set([
  "_ng_task_index",
  "_ng_rollout_index",
  "_ng_attempt_index",
  "_ng_rollout_id",
]);

/** `${task}:${rollout}` for a row that carries both Gym indices as integers; null otherwise. */
export function pairingKey(row: unknown): string | null {
  const parsed = Keyed.safeParse(row);
  return parsed.success ? `${parsed.data._ng_task_index}:${parsed.data._ng_rollout_index}` : null;
}

/** Canonical JSON of `responses_create_params.input`; null when the row has none. */
export function taskInputKey(row: unknown): string | null {
  const parsed = WithInput.safeParse(row);
  if (!parsed.success || parsed.data.responses_create_params.input === undefined) return null;
  return canonicalJson(parsed.data.responses_create_params.input);
}

/** Canonical JSON of the row without Gym's bookkeeping keys: equal for copies of one task. */
function taskContentKey(row: unknown): string {
  const parsed = JsonObject.safeParse(row);
  if (!parsed.success) return canonicalJson(row);
  return canonicalJson(
    Object.fromEntries(Object.entries(parsed.data).filter(([k]) => !BOOKKEEPING_KEYS.has(k))),
  );
}

/**
 * Materialized-inputs rows keyed by pairingKey. Rows without both indices are skipped (Gym would fail on
 * them); a repeated key keeps the last row, as a Python dict built in file order does.
 */
export function pairInputs(inputs: Iterable<unknown>): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const row of inputs) {
    const key = pairingKey(row);
    if (key !== null) map.set(key, row);
  }
  return map;
}

const ParamsObject = z.looseObject({});

/**
 * True for a row that can only be an input (of a materialized-inputs file, or a raw dataset such as Gym's
 * example.jsonl): no `response`, and either Gym's two indices or a `responses_create_params` object.
 */
export function isInputRow(value: unknown): boolean {
  const row = JsonObject.safeParse(value);
  if (!row.success || Object.hasOwn(row.data, "response")) return false;
  const indexed = Object.hasOwn(row.data, "_ng_task_index") && Object.hasOwn(row.data, "_ng_rollout_index");
  return indexed || ParamsObject.safeParse(row.data.responses_create_params).success;
}

export type PairedBy = "index" | "input" | "none";

/** How each PairedBy reads in the UI and the CLI. */
export const PAIRED_BY_LABEL: Readonly<Record<PairedBy, string>> = {
  index: "paired by (_ng_task_index, _ng_rollout_index)",
  input: "paired by equal responses_create_params.input",
  none: "not paired",
};

export interface Pairing<R> {
  readonly paired_by: PairedBy;
  /** The paired row's reference (the row itself, or a line number), null when not paired. */
  readonly ref: R | null;
  /** Input rows that share the line's task input but differ: more than one means ambiguous. */
  readonly ambiguous: number;
  /** One sentence: how, or why not. */
  readonly reason: string;
}

interface Candidate<R> {
  readonly ref: R;
  readonly content: string;
}

/**
 * The inputs of one run, indexed both ways. `R` is what the caller keeps per row: the CLI keeps the row,
 * the worker a line number it re-parses on demand.
 */
export class InputIndex<R> {
  private readonly byKey = new Map<string, R>();
  private readonly byInput = new Map<string, Candidate<R>[]>();
  private rows = 0;

  /** Adds one input row; false when it carries neither Gym's indices nor a task input (unpairable). */
  add(row: unknown, ref: R): boolean {
    const key = pairingKey(row);
    const input = taskInputKey(row);
    if (key === null && input === null) return false;
    this.rows++;
    // A repeated key keeps the last row, as Gym's dict built in file order does.
    if (key !== null) this.byKey.set(key, ref);
    if (input !== null) {
      const list = this.byInput.get(input) ?? [];
      const content = taskContentKey(row);
      if (!list.some((c) => c.content === content)) list.push({ ref, content });
      this.byInput.set(input, list);
    }
    return true;
  }

  get size(): number {
    return this.rows;
  }

  /** The row for `rollout`: by Gym's indices, else by an equal task input when that is unambiguous. */
  pair(rollout: unknown): Pairing<R> {
    const key = pairingKey(rollout);
    if (key !== null) {
      const ref = this.byKey.get(key);
      if (ref !== undefined) {
        return {
          paired_by: "index",
          ref,
          ambiguous: 0,
          reason: `Paired with the input row ${key} (task:rollout).`,
        };
      }
    }
    const input = taskInputKey(rollout);
    const candidates = input === null ? undefined : this.byInput.get(input);
    if (candidates !== undefined && candidates.length === 1 && candidates[0] !== undefined) {
      return {
        paired_by: "input",
        ref: candidates[0].ref,
        ambiguous: 0,
        reason: "Paired with the input row whose responses_create_params.input equals this line's.",
      };
    }
    if (candidates !== undefined && candidates.length > 1) {
      return {
        paired_by: "none",
        ref: null,
        ambiguous: candidates.length,
        reason: `${candidates.length} different input rows have this line's responses_create_params.input, so it is not paired (never guessed).`,
      };
    }
    const why =
      key !== null && input === null
        ? `No input row has the key ${key} (task:rollout).`
        : key !== null
          ? `No input row has the key ${key} (task:rollout) or this line's responses_create_params.input.`
          : input === null
            ? "The line has neither Gym's (_ng_task_index, _ng_rollout_index) nor a responses_create_params.input."
            : "No input row has this line's responses_create_params.input (and the line has no _ng_task_index, _ng_rollout_index).";
    return { paired_by: "none", ref: null, ambiguous: 0, reason: why };
  }
}

/** An InputIndex over parsed rows (the reference is the row itself). */
export function indexInputs(rows: Iterable<unknown>): InputIndex<unknown> {
  const index = new InputIndex<unknown>();
  for (const row of rows) index.add(row, row);
  return index;
}
