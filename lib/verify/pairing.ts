/**
 * Pairing a rollout with its materialized-inputs row. Gym's reverify pairs by the pair
 * (_ng_task_index, _ng_rollout_index), which collection stamps on both: a line that carries the pair is
 * paired by it against the rows that carry it. Lines that pair no such row (old fixtures, hand-written
 * examples, a raw `example.jsonl` used as inputs) pair by an equal task input: `responses_create_params.input`
 * read as Gym's request model reads it (its defaults applied, gym-input.ts) and compared as canonical JSON,
 * as lib/compare pairs two runs. Several input rows with that input that differ in anything but Gym's
 * bookkeeping keys are ambiguous: reported with the fields they differ in, never guessed (Gym pairs by its
 * indices alone, so a field such as aviary's `task_idx` is never a key). A line that pairs nothing says
 * which row came closest and where it differs.
 */
import { z } from "zod";
import { canonicalJson } from "../jsonl";
import { isJsonObject } from "../schemas";
import { gymInput } from "./gym-input";

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

/**
 * Input rows an unpaired line is compared with to name the closest (the first rows with distinct inputs):
 * the sentence stays cheap on a large inputs file, where the first rows say as much as the rest.
 */
export const CLOSEST_ROWS_COMPARED = 2000;

/** Characters of a message shown where two inputs differ. */
const QUOTE_CHARS = 60;

/** Rows named in the sentence of a line several different rows share a task input with. */
const AMBIGUOUS_ROWS_NAMED = 3;

/** Gym's (_ng_task_index, _ng_rollout_index) of a row that carries both as integers; null otherwise. */
export function pairingIndices(row: unknown): { readonly task: number; readonly rollout: number } | null {
  const parsed = Keyed.safeParse(row);
  return parsed.success ? { task: parsed.data._ng_task_index, rollout: parsed.data._ng_rollout_index } : null;
}

/** `${task}:${rollout}` for a row that carries both Gym indices as integers; null otherwise. */
export function pairingKey(row: unknown): string | null {
  const indices = pairingIndices(row);
  return indices === null ? null : `${indices.task}:${indices.rollout}`;
}

/** `responses_create_params.input` with Gym's request-model defaults; undefined when the row has none. */
function taskInput(row: unknown): unknown {
  const parsed = WithInput.safeParse(row);
  if (!parsed.success) return undefined;
  const input = parsed.data.responses_create_params.input;
  return input === undefined ? undefined : gymInput(input);
}

/** Canonical JSON of `responses_create_params.input` as Gym reads it; null when the row has none. */
export function taskInputKey(row: unknown): string | null {
  const input = taskInput(row);
  return input === undefined ? null : canonicalJson(input);
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
 * Materialized-inputs rows keyed by pairingKey, as Gym's reverify builds its dict: rows without both
 * indices are skipped (Gym would fail on them); a repeated key keeps the last row. Tests hold Gym's pairing
 * with it; every command and page pairs through InputIndex (indices, else the task input).
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

/** Where an input row is: its file (as the user gave it, or its path in an opened folder) and its line. */
export interface RowPlace {
  readonly file: string;
  readonly line: number;
}

/** How every sentence names an input row (`data/example.jsonl line 3`): one wording, the CLI's and the page's. */
export function rowLabel(place: RowPlace): string {
  return `${place.file} line ${place.line}`;
}

/** The line of `file` a rowLabel names, or null when the label names another file (or is no row's). */
export function rowLabelLine(label: string, file: string): number | null {
  const prefix = rowLabel({ file, line: 0 }).slice(0, -1);
  const rest = label.startsWith(prefix) ? label.slice(prefix.length) : "";
  return /^\d+$/.test(rest) ? Number(rest) : null;
}

/** How each PairedBy reads in the UI and the CLI. */
export const PAIRED_BY_LABEL: Readonly<Record<PairedBy, string>> = {
  index: "paired by (_ng_task_index, _ng_rollout_index)",
  input: "paired by equal responses_create_params.input (Gym's defaults applied)",
  none: "not paired",
};

export interface Pairing<R> {
  readonly paired_by: PairedBy;
  /** The paired row's reference (the row itself, or a line number), null when not paired. */
  readonly ref: R | null;
  /** How sentences name the paired row (rowLabel: `data/example.jsonl line 3`); absent when not paired. */
  readonly row?: string;
  /** Input rows that share the line's task input but differ: more than one means ambiguous. */
  readonly ambiguous: number;
  /** One sentence: how, or why not (with the closest row and what differs). */
  readonly reason: string;
  /** Set when the line paired by Gym's indices with a row whose task input differs from the line's. */
  readonly disagreement?: string;
}

interface Candidate<R> {
  readonly ref: R;
  readonly content: string;
  readonly label: string;
}

interface Row<R> {
  readonly ref: R;
  readonly label: string;
  readonly input: unknown;
  readonly inputKey: string | null;
}

/**
 * A row an unpaired line is compared with: its input items as ids (equal ids, equal canonical JSON), null
 * when its input is not a list. Comparing ids keeps the search a few integer compares per row.
 */
interface SampleRow<R> {
  readonly row: Row<R>;
  readonly items: Int32Array | null;
}

/** Leading equal items and equal items at equal positions of two inputs' item ids (difference's counts). */
function overlap(line: Int32Array | null, row: Int32Array | null): { prefix: number; same: number } {
  if (line === null || row === null) return { prefix: 0, same: 0 };
  const n = Math.min(line.length, row.length);
  let prefix = 0;
  while (prefix < n && line[prefix] === row[prefix]) prefix++;
  let same = prefix;
  for (let i = prefix; i < n; i++) if (line[i] === row[i]) same++;
  return { prefix, same };
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat);
}

const MessageItem = z.looseObject({ role: z.string().optional(), content: z.unknown() });
const TextPart = z.looseObject({ text: z.string() });

function messageText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts = content.flatMap((part) => {
    const parsed = TextPart.safeParse(part);
    return parsed.success ? [parsed.data.text] : [];
  });
  return texts.length > 0 ? texts.join(" ") : null;
}

/** A field's value as a sentence quotes it: its JSON, cut at QUOTE_CHARS. */
function quoteJson(value: unknown): string {
  const json = canonicalJson(value);
  return json.length > QUOTE_CHARS ? `${json.slice(0, QUOTE_CHARS)}…` : json;
}

/** A short description of one input item: `the user message "Reply to …"`, `a function_call get_weather`. */
function describeItem(item: unknown): string {
  if (typeof item === "string") return quote(item);
  if (!isJsonObject(item)) return canonicalJson(item).slice(0, QUOTE_CHARS);
  if (item.type === "function_call" && typeof item.name === "string") return `a function_call ${item.name}`;
  const message = MessageItem.safeParse(item);
  if (message.success && (item.type === undefined || item.type === "message")) {
    const text = messageText(message.data.content);
    return `the ${message.data.role ?? ""} message${text === null ? "" : ` ${quote(text)}`}`.replace(
      "  ",
      " ",
    );
  }
  return `a ${typeof item.type === "string" ? item.type : "typed"} item`;
}

/** Characters of equal text kept before the first difference when two quotes would read the same. */
const DIFF_CONTEXT_CHARS = 20;

/** An item's text: a string item's, or a message's content. */
function itemText(item: unknown): string | null {
  if (typeof item === "string") return item;
  const message = MessageItem.safeParse(item);
  return message.success ? messageText(message.data.content) : null;
}

/** Two unequal texts quoted from just before their first differing character (quote cuts the rest). */
function textDifference(lineText: string, rowText: string): string {
  let i = 0;
  while (i < lineText.length && i < rowText.length && lineText[i] === rowText[i]) i++;
  const from = Math.max(0, i - DIFF_CONTEXT_CHARS);
  const tail = (text: string) => quote(`${from > 0 ? "…" : ""}${text.slice(from)}`);
  const flat = (text: string) => text.replace(/\s+/g, " ").trim();
  const what = flat(lineText) === flat(rowText) ? ", in white space only" : "";
  return `the texts first differ at character ${i + 1}${what}: the line has ${tail(lineText)}, the row ${tail(rowText)}`;
}

/**
 * What differs between two unequal items at the same place, where describeItem says the same of both (a
 * long system prompt cut before the point where the texts part): the texts from just before the first
 * differing character, or the fields that differ.
 */
function itemDifference(at: number, line: unknown, row: unknown): string {
  const a = describeItem(line);
  const b = describeItem(row);
  if (a !== b) return `at input[${at}] the line has ${a}, the row ${b}`;
  const lineText = itemText(line);
  const rowText = itemText(row);
  if (lineText !== null && rowText !== null && lineText !== rowText)
    return `at input[${at}] ${textDifference(lineText, rowText)}`;
  if (isJsonObject(line) && isJsonObject(row)) {
    const keys = [...new Set([...Object.keys(line), ...Object.keys(row)])].filter(
      (key) => canonicalJson(line[key]) !== canonicalJson(row[key]),
    );
    const first = keys[0];
    const value = (item: Record<string, unknown>, key: string) =>
      Object.hasOwn(item, key) ? `${key} ${quoteJson(item[key])}` : `no ${key}`;
    if (first !== undefined)
      return `at input[${at}] ${a} differs in ${keys.join(", ")}: the line has ${value(line, first)}, the row ${value(row, first)}`;
  }
  return `at input[${at}] the line has ${a}, the row ${b}`;
}

interface Difference {
  /** Leading items that are equal. */
  readonly prefix: number;
  /** Equal items at equal positions. */
  readonly same: number;
  readonly sentence: string;
}

/** Where `row` (an input, defaults applied) differs from `line`: the first item that is not equal. */
function difference(line: unknown, row: unknown): Difference {
  if (!Array.isArray(line) || !Array.isArray(row)) {
    // Two text inputs are quoted from where they part, as two messages are.
    if (typeof line === "string" && typeof row === "string")
      return { prefix: 0, same: 0, sentence: `the inputs are texts: ${textDifference(line, row)}` };
    const a = typeof line === "string" ? line : canonicalJson(line);
    const b = typeof row === "string" ? row : canonicalJson(row);
    return { prefix: 0, same: 0, sentence: `the line's input is ${quote(a)}, the row's ${quote(b)}` };
  }
  const lineKeys = line.map(canonicalJson);
  const rowKeys = row.map(canonicalJson);
  let prefix = 0;
  while (prefix < lineKeys.length && prefix < rowKeys.length && lineKeys[prefix] === rowKeys[prefix])
    prefix++;
  let same = 0;
  for (let i = 0; i < Math.min(lineKeys.length, rowKeys.length); i++) if (lineKeys[i] === rowKeys[i]) same++;
  if (prefix < lineKeys.length && prefix < rowKeys.length) {
    return {
      prefix,
      same,
      sentence: itemDifference(prefix, line[prefix], row[prefix]),
    };
  }
  return {
    prefix,
    same,
    sentence:
      prefix === 0
        ? `the line has ${lineKeys.length === 0 ? "no input item" : lineKeys.length}, the row ${rowKeys.length === 0 ? "none" : rowKeys.length}`
        : `${prefix === 1 ? "the first input item is equal" : `the first ${prefix} input items are equal`}, but the line has ${lineKeys.length} and the row ${rowKeys.length}`,
  };
}

/**
 * The inputs of one run, indexed both ways. `R` is what the caller keeps per row: the CLI keeps the row,
 * the worker a line number it re-parses on demand.
 */
export class InputIndex<R> {
  private readonly byKey = new Map<string, Row<R>>();
  private readonly byInput = new Map<string, Candidate<R>[]>();
  /** For a task input several different rows share: the top-level fields they differ in. */
  private readonly differs = new Map<string, Set<string>>();
  /** The first rows with distinct inputs, for naming the closest row (CLOSEST_ROWS_COMPARED). */
  private readonly sample: SampleRow<R>[] = [];
  /** Ids of the sample rows' input items, by canonical JSON. */
  private readonly itemIds = new Map<string, number>();
  private rows = 0;
  private keyed = 0;
  /** Every top-level key of the task rows added: the task's own fields, paired with a line or not. */
  private readonly keys = new Set<string>();

  /** `closestRows`: how many distinct inputs an unpaired line is compared with (bench/closest-rows.ts varies it). */
  constructor(private readonly closestRows: number = CLOSEST_ROWS_COMPARED) {}

  /**
   * Adds one input row; false when it carries neither Gym's indices nor a task input (unpairable). `place`
   * names the row in sentences (rowLabel).
   */
  add(row: unknown, ref: R, place: RowPlace): boolean {
    const key = pairingKey(row);
    const input = taskInput(row);
    const inputKey = input === undefined ? null : canonicalJson(input);
    if (key === null && inputKey === null) return false;
    this.rows++;
    if (typeof row === "object" && row !== null && !Array.isArray(row))
      for (const name of Object.keys(row)) this.keys.add(name);
    const entry: Row<R> = { ref, label: rowLabel(place), input, inputKey };
    // A repeated key keeps the last row, as Gym's dict built in file order does.
    if (key !== null) {
      this.keyed++;
      this.byKey.set(key, entry);
    }
    if (inputKey !== null) {
      const list = this.byInput.get(inputKey);
      const content = taskContentKey(row);
      if (list === undefined) {
        this.byInput.set(inputKey, [{ ref, content, label: entry.label }]);
        if (this.sample.length < this.closestRows)
          this.sample.push({ row: entry, items: this.itemsOf(input, true) });
      } else if (!list.some((c) => c.content === content)) {
        list.push({ ref, content, label: entry.label });
        const first = list[0];
        if (first !== undefined) this.noteDifference(inputKey, first.content, content);
      }
    }
    return true;
  }

  get size(): number {
    return this.rows;
  }

  /** Records the fields two rows with one task input differ in (their contents are canonical JSON). */
  private noteDifference(inputKey: string, a: string, b: string): void {
    const x = JsonObject.safeParse(JSON.parse(a));
    const y = JsonObject.safeParse(JSON.parse(b));
    if (!x.success || !y.success) return;
    const fields = this.differs.get(inputKey) ?? new Set<string>();
    for (const key of new Set([...Object.keys(x.data), ...Object.keys(y.data)])) {
      const u = x.data[key];
      const v = y.data[key];
      if ((u === undefined) !== (v === undefined) || canonicalJson(u) !== canonicalJson(v)) fields.add(key);
    }
    this.differs.set(inputKey, fields);
  }

  /**
   * Why a line whose task input several different rows share is not paired: which rows, the fields they
   * differ in and the line's values of them. Gym pairs by its two indices alone (rollout_reverification.py
   * `_yield_inputs_and_rollouts_paired`), so a field such as aviary's `task_idx` (the environment index its
   * agent seeds a session with) is never a key: the line is not paired, and the sentence says so.
   */
  private ambiguity(
    line: unknown,
    inputKey: string,
    candidates: readonly Candidate<R>[],
    byKey: string,
  ): string {
    const shown = candidates.slice(0, AMBIGUOUS_ROWS_NAMED).map((c) => c.label);
    const more = candidates.length > shown.length ? ", …" : "";
    const fields = [...(this.differs.get(inputKey) ?? [])].sort();
    const own = JsonObject.safeParse(line);
    const values = fields.flatMap((field) => {
      const value = own.success ? own.data[field] : undefined;
      return value === undefined ? [] : [`${field} ${quoteJson(value)}`];
    });
    const differ =
      fields.length === 0
        ? ""
        : `, differing in ${fields.join(", ")}${values.length === 0 ? " (the line has none of them)" : ` (the line's: ${values.join(", ")})`}`;
    return `Not paired: ${byKey}, and ${candidates.length} different input rows have its responses_create_params.input (${shown.join(", ")}${more})${differ}; Gym pairs a rollout with its row by (_ng_task_index, _ng_rollout_index) alone, never by another field, so it is not paired (never guessed).`;
  }

  /** An input's items as ids; `add` gives new items ids, a line's unknown items get -1 (equal to none). */
  private itemsOf(input: unknown, add: boolean): Int32Array | null {
    if (!Array.isArray(input)) return null;
    const ids = new Int32Array(input.length);
    input.forEach((item, at) => {
      const key = canonicalJson(item);
      let id = this.itemIds.get(key);
      if (id === undefined && add) {
        id = this.itemIds.size;
        this.itemIds.set(key, id);
      }
      ids[at] = id ?? -1;
    });
    return ids;
  }

  /**
   * The row among the first CLOSEST_ROWS_COMPARED whose input shares the most with `input` (the longest
   * equal start, then the most equal items; the first such row), and where it differs.
   */
  private closest(input: unknown): string {
    const items = this.itemsOf(input, false);
    let best: { row: Row<R>; prefix: number; same: number } | null = null;
    for (const { row, items: rowItems } of this.sample) {
      const { prefix, same } = overlap(items, rowItems);
      if (best === null || prefix > best.prefix || (prefix === best.prefix && same > best.same))
        best = { row, prefix, same };
    }
    if (best === null) return "";
    return ` The closest is ${best.row.label}: ${difference(input, best.row.input).sentence}.`;
  }

  /**
   * The task rows' top-level keys: a rollout line carries them as the request did (Gym copies the task row
   * into its verify response), so they are the task's, not its verifier's, whether the line paired or not.
   */
  taskKeys(): ReadonlySet<string> {
    return this.keys;
  }

  /** The row for `rollout`: by Gym's indices, else by an equal task input when that is unambiguous. */
  pair(rollout: unknown): Pairing<R> {
    const key = pairingKey(rollout);
    const input = taskInput(rollout);
    const inputKey = input === undefined ? null : canonicalJson(input);
    if (key !== null) {
      const row = this.byKey.get(key);
      if (row !== undefined) {
        if (inputKey !== null && row.inputKey !== null && inputKey !== row.inputKey) {
          const disagreement = `Its (_ng_task_index, _ng_rollout_index) ${key} names ${row.label}, whose responses_create_params.input differs from the line's (${difference(input, row.input).sentence}); paired by the indices, as Gym's reverify pairs.`;
          return {
            paired_by: "index",
            ref: row.ref,
            row: row.label,
            ambiguous: 0,
            reason: disagreement,
            disagreement,
          };
        }
        return {
          paired_by: "index",
          ref: row.ref,
          row: row.label,
          ambiguous: 0,
          reason: `Paired with ${row.label} by (_ng_task_index, _ng_rollout_index) ${key}.`,
        };
      }
    }
    const candidates = inputKey === null ? undefined : this.byInput.get(inputKey);
    if (candidates !== undefined && candidates.length === 1 && candidates[0] !== undefined) {
      return {
        paired_by: "input",
        ref: candidates[0].ref,
        row: candidates[0].label,
        ambiguous: 0,
        reason:
          "Paired with the input row whose responses_create_params.input equals this line's, read as Gym's request model reads it.",
      };
    }
    const rows = `the ${this.rows} open input row${this.rows === 1 ? "" : "s"}`;
    const byKey =
      key === null
        ? "the line has no (_ng_task_index, _ng_rollout_index)"
        : this.keyed === 0
          ? `none of ${rows} carries (_ng_task_index, _ng_rollout_index) to match its ${key}`
          : `no input row has its (_ng_task_index, _ng_rollout_index) ${key}`;
    if (inputKey !== null && candidates !== undefined && candidates.length > 1) {
      return {
        paired_by: "none",
        ref: null,
        ambiguous: candidates.length,
        reason: this.ambiguity(rollout, inputKey, candidates, byKey),
      };
    }
    if (inputKey === null) {
      return {
        paired_by: "none",
        ref: null,
        ambiguous: 0,
        reason: `Not paired: ${byKey}, and it has no responses_create_params.input.`,
      };
    }
    return {
      paired_by: "none",
      ref: null,
      ambiguous: 0,
      reason: `Not paired: ${byKey}, and none of ${rows} has its responses_create_params.input (Gym's defaults applied).${this.closest(input)}`,
    };
  }
}

/** An InputIndex over parsed rows of `file`, in file order (the reference is the row itself). */
export function indexInputs(rows: Iterable<unknown>, file = "the inputs"): InputIndex<unknown> {
  const index = new InputIndex<unknown>();
  let line = 0;
  for (const row of rows) index.add(row, row, { file, line: ++line });
  return index;
}
