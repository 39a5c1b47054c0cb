/**
 * What a line records beside its reward: the short top-level fields a verifier wrote into its response
 * (xlam_fc's `num_correct`, swebench's `evaluation_completed`, toolsandbox's `exception_type`, the
 * conversational simulator's `failure_labels`). Where this project has no port of the verifier, they are the
 * only account of the zero there is; they are shown as written, never interpreted.
 */
import { canonicalJson } from "../jsonl";
import { isJsonObject, type Rollout } from "../schemas";
import { isZeroOrBelow, ZERO_CAUSES, type ZeroCause } from "./triage";

/** Keys of every Gym rollout line (the request, the response, the reward, Gym's bookkeeping). */
const GYM_KEYS: ReadonlySet<string> = new Set([
  "responses_create_params",
  "response",
  "reward",
  "agent_ref",
  "mcp_tool_call_provenance",
  "_ng_task_index",
  "_ng_rollout_index",
]);

/** Fields shown at most: the first ones in the line's order. */
export const RECORDED_FIELDS_MAX = 12;
/** A value's JSON text is cut after this many characters. */
const VALUE_MAX_CHARS = 160;

export interface RecordedField {
  readonly key: string;
  /** The value's JSON text (cut, with "…", past VALUE_MAX_CHARS). */
  readonly value: string;
}

function isScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

// Values are written as lib/jsonl canonicalJson writes them: Python's NaN and infinities kept, keys sorted.

/** A scalar's JSON text, cut past VALUE_MAX_CHARS characters (code points: an emoji is never split). */
function scalarText(value: unknown): string {
  const chars = Array.from(canonicalJson(value));
  return chars.length > VALUE_MAX_CHARS ? `${chars.slice(0, VALUE_MAX_CHARS).join("")}…` : chars.join("");
}

/** A short object or array's JSON text (blackjack's `info`, `{"result":"bust",...}`); null past VALUE_MAX_CHARS. */
function structureText(value: unknown): string | null {
  const text = canonicalJson(value);
  return Array.from(text).length <= VALUE_MAX_CHARS ? text : null;
}

/** The line's own keys, in its order: not Gym's, not its task row's (paired, or any open task row's). */
function ownKeys(rollout: Rollout, input: unknown, taskKeys: ReadonlySet<string> | undefined): string[] {
  const task = isJsonObject(input) ? input : null;
  return Object.keys(rollout).filter(
    (key) =>
      !GYM_KEYS.has(key) && taskKeys?.has(key) !== true && !(task !== null && Object.hasOwn(task, key)),
  );
}

/**
 * The line's own fields beside its reward, in the line's order: scalars and short objects and arrays,
 * leaving out Gym's own keys and, when the line is paired with its task row, the row's keys (task data the
 * request carried, not the verifier's output).
 */
export function recordedFields(
  rollout: Rollout,
  input?: unknown,
  /** Every key of the open task rows (lib/verify InputIndex taskKeys): the task's, paired or not. */
  taskKeys?: ReadonlySet<string>,
): RecordedField[] {
  const fields: RecordedField[] = [];
  for (const key of ownKeys(rollout, input, taskKeys)) {
    const value = rollout[key];
    // A long structure (a list of records, a transcript) is task data or a trace, not a verdict: left out.
    const text = isScalar(value) ? scalarText(value) : structureText(value);
    if (text === null) continue;
    fields.push({ key, value: text });
    if (fields.length === RECORDED_FIELDS_MAX) break;
  }
  return fields;
}

/**
 * Causes read from the line alone or left unverified, precedence 3 to 6 (lib/triage/README.md): run health
 * and the unverifiable ones. For these the line's own fields are the rest of the account; the later causes
 * come from this project's replay, whose evidence (calls, cells) says more.
 */
const FROM_THE_LINE: ReadonlySet<ZeroCause> = new Set(
  ZERO_CAUSES.slice(ZERO_CAUSES.indexOf("model_error"), ZERO_CAUSES.indexOf("verifier_error") + 1),
);

/** The line's fields to show beside a zero's cause: recordedFields where the cause is FROM_THE_LINE, else none. */
export function recordedFieldsFor(
  cause: ZeroCause,
  rollout: Rollout,
  input?: unknown,
  taskKeys?: ReadonlySet<string>,
): RecordedField[] {
  return FROM_THE_LINE.has(cause) ? recordedFields(rollout, input, taskKeys) : [];
}

/**
 * Distinct values a field may have on the zeros to be summed over them: past this it is an id, a score or
 * a text (uuid, similarity_score, model_output), which a count per value does not summarize. The passes'
 * values are listed up to as many, the rest counted.
 */
export const RECORDED_VALUES_MAX = 6;

/**
 * A value's JSON text longer than this is a text (a log, a transcript), not a category: a run row keeps
 * only fields this short for the run's counts (countedFields).
 */
export const COUNTED_VALUE_MAX_CHARS = 64;

/**
 * Fields a run row keeps for the counts at most: Gym's verifiers write 2 to 15; a line of hundreds of short
 * fields keeps its row small (the kept results, worker/results-cache.ts, hold every row).
 */
const COUNTED_FIELDS_MAX = 16;

/**
 * Keys that name a line's task or environment (lib/run reads them as such): they tell tasks apart, not
 * why one scored 0, so the run's counts leave them to each rollout's own view.
 */
const TASK_KEYS: ReadonlySet<string> = new Set([
  "id",
  "task_id",
  "task_idx",
  "problem_id",
  "instance_id",
  "environment_name",
  "uuid",
]);

/**
 * The fields of a line the run's counts read (summarizeRecordedFields): its own top-level fields beside the
 * reward, as recordedFields finds them (an object's as `key.name`), whose JSON text is at most
 * COUNTED_VALUE_MAX_CHARS; task names and the keys of the open task rows aside (a line that did not pair
 * still carries its task's fields).
 */
export function countedFields(
  rollout: Rollout,
  input?: unknown,
  /** Every key of the open task rows (lib/verify InputIndex taskKeys): the task's, paired or not. */
  taskKeys?: ReadonlySet<string>,
): RecordedField[] {
  const fields: RecordedField[] = [];
  const add = (key: string, value: unknown) => {
    const text = canonicalJson(value);
    if (text.length <= COUNTED_VALUE_MAX_CHARS && fields.length < COUNTED_FIELDS_MAX)
      fields.push({ key, value: text });
  };
  for (const key of ownKeys(rollout, input, taskKeys)) {
    if (TASK_KEYS.has(key)) continue;
    const value = rollout[key];
    // An object's own fields one level down (blackjack's info.result "bust"): the whole object differs
    // from rollout to rollout (the hands), the verdict inside it does not.
    if (isJsonObject(value)) for (const [name, inner] of Object.entries(value)) add(`${key}.${name}`, inner);
    else add(key, value);
  }
  return fields;
}

/** How many rollouts carry one value of a field. */
export interface ValueCount {
  /** The value's JSON text, as RecordedField writes it. */
  readonly value: string;
  readonly count: number;
}

/** One field over the zeros not verified here, beside the same field on the rollouts above 0. */
export interface RecordedFieldSummary {
  readonly key: string;
  /** Its values on the zeros, most rollouts first (ties: first seen). */
  readonly zeros: readonly ValueCount[];
  /** Its values on the passes (the rollouts above 0 not verified here), at most RECORDED_VALUES_MAX. */
  readonly passes: readonly ValueCount[];
  /** Other values on the passes, not listed. */
  readonly passesOther: number;
  /** Zeros whose value of the field no pass has (every zero's when passes lack the field). */
  readonly zerosApart: number;
}

/** The run's zeros this project cannot verify, as Gym's verifier recorded them (summarizeRecordedFields). */
export interface RecordedFieldsSummary {
  /** Rollouts not verified here whose recorded reward is 0 or below. */
  readonly zeros: number;
  /** Of those, the ones below 0 (the heading names them, as the run's headline does). */
  readonly negative: number;
  /** Rollouts not verified here whose recorded reward is above 0. */
  readonly passes: number;
  /** At most RECORDED_FIELDS_MAX fields, those that set the zeros apart from the passes first. */
  readonly fields: readonly RecordedFieldSummary[];
  /** Fields that qualified but are not in `fields`. */
  readonly more: number;
}

/** What a row of a run carries for the counts (lib/run RunRow). */
export interface RecordedFieldsRow {
  readonly recorded: number | null;
  /** The line's counted fields (countedFields) where this project did not verify it; empty where it did. */
  readonly recorded_fields: readonly RecordedField[];
  /** Its verifying server: each server's verifier writes its own fields (recordedFieldsByVerifier). */
  readonly server?: string | null;
}

/** Whose verifier wrote a group's fields: its verifying server, null for the rows no server was decided for. */
export type VerifierGroup = string | null;

/** The counts of one verifier's rollouts (recordedFieldsByVerifier). */
export interface RecordedFieldsGroup {
  readonly group: VerifierGroup;
  /** A folder's rows no server was decided for are counted per file (its path in the folder). */
  readonly file?: string;
  readonly summary: RecordedFieldsSummary;
}

/**
 * The counts per verifying server, in the order first seen: two servers' `failure_reason` are two fields (a
 * folder of Gym's runs mixes image_tools' and terminus_judge's). Every server with a row to count is a
 * group, those with nothing to show too (whether a run has several decides whether each is named, and which
 * clause a value chosen in one takes: server:NAME or is:no_server).
 *
 * `fileOf` (a folder's runs): the rows no server was decided for are counted per file, since nothing says two
 * files' runs share a verifier (Gym's environments/ tree: code_gen's `result` and circle_click's `clicked_x`
 * had been counted as one verifier's fields).
 */
export function recordedFieldsByVerifier<Row extends RecordedFieldsRow>(
  rows: Iterable<Row>,
  fileOf?: (row: Row) => string | undefined,
): RecordedFieldsGroup[] {
  const groups = new Map<string, { group: VerifierGroup; file?: string; rows: Row[] }>();
  for (const row of rows) {
    if (row.recorded_fields.length === 0) continue;
    const group = row.server ?? null;
    const file = group === null ? fileOf?.(row) : undefined;
    // A server's name never starts with a NUL: the keys of a server and of a file cannot meet.
    const key = group ?? `\0${file ?? ""}`;
    const entry = groups.get(key) ?? { group, ...(file === undefined ? {} : { file }), rows: [] };
    entry.rows.push(row);
    groups.set(key, entry);
  }
  return [...groups.values()].map(({ group, file, rows: list }) => ({
    group,
    ...(file === undefined ? {} : { file }),
    summary: summarizeRecordedFields(list),
  }));
}

/** A group's name before its heading when a run has several: "image_tools: ", "no server: ", "no server (a/b.jsonl): ". */
function verifierGroupText(group: VerifierGroup, file?: string): string {
  if (group !== null) return `${group}: `;
  return file === undefined ? "no server: " : `no server (${file}): `;
}

/**
 * Each group with the group it goes by in every front end: its server when the run has several (named in
 * its heading, and its clause comes with a value chosen in it), undefined when the run has one (neither);
 * and the file a folder's no-server group is counted in.
 */
export function namedGroups(groups: readonly RecordedFieldsGroup[]): {
  readonly group: VerifierGroup | undefined;
  readonly file?: string;
  readonly summary: RecordedFieldsSummary;
}[] {
  return groups.map(({ group, file, summary }) => ({
    group: groups.length > 1 ? group : undefined,
    ...(file === undefined ? {} : { file }),
    summary,
  }));
}

type Tally = Map<string, Map<string, number>>;

function tally(counts: Tally, fields: readonly RecordedField[]): void {
  for (const field of fields) {
    const values = counts.get(field.key) ?? new Map<string, number>();
    values.set(field.value, (values.get(field.value) ?? 0) + 1);
    counts.set(field.key, values);
  }
}

function carried(values: ReadonlyMap<string, number> | undefined): number {
  let n = 0;
  for (const count of values?.values() ?? []) n += count;
  return n;
}

/**
 * Whether a count per value says something of the field: few values on the zeros, and not an id (every
 * value of the run once, zeros and passes together). A field whose one value is on every rollout, zeros
 * and passes alike, says nothing of the zeros when there are passes to set them against.
 */
function counted(
  onZeros: ReadonlyMap<string, number>,
  onPasses: ReadonlyMap<string, number> | undefined,
): boolean {
  if (onZeros.size > RECORDED_VALUES_MAX) return false;
  const all = new Set([...onZeros.keys(), ...(onPasses?.keys() ?? [])]);
  const n = carried(onZeros) + carried(onPasses);
  if (n < 2 || all.size === n) return false;
  return !(all.size === 1 && onPasses !== undefined);
}

/** Most rollouts first; a Map keeps first-seen order, and the sort is stable. */
function byCount(values: ReadonlyMap<string, number> | undefined): ValueCount[] {
  return [...(values ?? [])].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count);
}

/**
 * Where this project has no port of a run's verifier, the whole run's account of its zeros is what Gym's
 * verifier wrote beside them: each short field's values counted over the zeros, beside the passes'. Only
 * fields a count per value summarizes are kept (counted), so ids, scores and texts are left to each
 * rollout's own view. Values are counted as written, never read for meaning; the fields whose zero values
 * no pass has come first, then those with fewer values, then the line's order.
 */
export function summarizeRecordedFields(rows: Iterable<RecordedFieldsRow>): RecordedFieldsSummary {
  const onZeros: Tally = new Map();
  const onPasses: Tally = new Map();
  let zeros = 0;
  let negative = 0;
  let passes = 0;
  for (const row of rows) {
    // A NaN reward is neither a zero nor a pass.
    if (row.recorded === null || Number.isNaN(row.recorded) || row.recorded_fields.length === 0) continue;
    if (isZeroOrBelow(row.recorded)) {
      zeros++;
      if (row.recorded < 0) negative++;
      tally(onZeros, row.recorded_fields);
    } else {
      passes++;
      tally(onPasses, row.recorded_fields);
    }
  }
  const kept: RecordedFieldSummary[] = [];
  for (const [key, values] of onZeros) {
    const passValues = onPasses.get(key);
    if (!counted(values, passValues)) continue;
    // A field the passes never carry (an exception's type) sets every zero that has it apart.
    const zerosApart =
      passes === 0
        ? 0
        : [...values].reduce((n, [value, count]) => (passValues?.has(value) === true ? n : n + count), 0);
    const listed = byCount(passValues);
    kept.push({
      key,
      zeros: byCount(values),
      passes: listed.slice(0, RECORDED_VALUES_MAX),
      passesOther: Math.max(0, listed.length - RECORDED_VALUES_MAX),
      zerosApart,
    });
  }
  // Apart first; then the field that splits the rollouts into fewer values (a verdict before a tool name).
  const spread = (field: RecordedFieldSummary) =>
    new Set([...field.zeros, ...field.passes].map((v) => v.value)).size + field.passesOther;
  kept.sort((a, b) => b.zerosApart - a.zerosApart || spread(a) - spread(b));
  return {
    zeros,
    negative,
    passes,
    fields: kept.slice(0, RECORDED_FIELDS_MAX),
    more: Math.max(0, kept.length - RECORDED_FIELDS_MAX),
  };
}

/** One field's values as one line of text, every front end's: `"tool_name_mismatch" ×2 · "none" ×1`. */
export function valueCountsText(values: readonly ValueCount[], other = 0): string {
  const listed = values.map((v) => `${v.value} ×${v.count}`);
  if (other > 0) listed.push(`${other} other value${other === 1 ? "" : "s"}`);
  return listed.join(" · ");
}

/** A field's values above 0 as text (null: no pass has it). */
export function passesText(field: RecordedFieldSummary): string | null {
  return field.passes.length === 0 ? null : `above 0: ${valueCountsText(field.passes, field.passesOther)}`;
}

/** The fields left out of the summary, in words (null: none). */
export function moreFieldsText(summary: RecordedFieldsSummary): string | null {
  return summary.more === 0
    ? null
    : `and ${summary.more} more field${summary.more === 1 ? "" : "s"}: each rollout's own view lists its fields`;
}

/** A key as text: as written when it is a plain name, else as a JSON string (no control character shown raw). */
export function keyText(key: string): string {
  return /^[\w.$-]+$/.test(key) ? key : JSON.stringify(key);
}

/**
 * The summary's heading, every front end's, after its group's name when it has one (namedGroups); null: no
 * zero to account for.
 */
export function recordedFieldsHeading(
  summary: RecordedFieldsSummary,
  group?: VerifierGroup,
  file?: string,
): string | null {
  if (summary.zeros === 0 || summary.fields.length === 0) return null;
  const passes =
    summary.passes === 0
      ? ""
      : `, beside the ${summary.passes} rollout${summary.passes === 1 ? "" : "s"} above 0`;
  const zeros =
    summary.negative === 0
      ? `${summary.zeros} zero${summary.zeros === 1 ? "" : "s"}`
      : `${summary.zeros} rollout${summary.zeros === 1 ? "" : "s"} recorded 0 or less (${summary.negative} negative)`;
  const name = group === undefined ? "" : verifierGroupText(group, file);
  return `${name}What Gym's verifier wrote on the ${zeros} not verified here${passes}:`;
}

/**
 * The counts as lines of text (cli triage): each verifier's heading (named when there are several), then a
 * field a line. Empty: nothing to say.
 */
export function recordedFieldsLines(groups: readonly RecordedFieldsGroup[]): string[] {
  return namedGroups(groups).flatMap(({ group, file, summary }) => summaryLines(summary, group, file));
}

function summaryLines(
  summary: RecordedFieldsSummary,
  group: VerifierGroup | undefined,
  file?: string,
): string[] {
  const heading = recordedFieldsHeading(summary, group, file);
  if (heading === null) return [];
  const lines = summary.fields.map((field) => {
    const passes = passesText(field);
    return `  ${keyText(field.key)}: ${valueCountsText(field.zeros)}${passes === null ? "" : ` (${passes})`}`;
  });
  const more = moreFieldsText(summary);
  if (more !== null) lines.push(`  ${more}`);
  return [heading, ...lines];
}
