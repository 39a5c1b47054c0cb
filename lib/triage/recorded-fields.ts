/**
 * What a line records beside its reward: the short top-level fields a verifier wrote into its response
 * (xlam_fc's `num_correct`, swebench's `evaluation_completed`, toolsandbox's `exception_type`, the
 * conversational simulator's `failure_labels`). Where this project has no port of the verifier, they are the
 * only account of the zero there is; they are shown as written, never interpreted.
 */
import { canonicalJson } from "../jsonl";
import { isJsonObject, type Rollout } from "../schemas";
import { ZERO_CAUSES, type ZeroCause } from "./triage";

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

/**
 * The line's own fields beside its reward, in the line's order: scalars and short objects and arrays,
 * leaving out Gym's own keys and, when the line is paired with its task row, the row's keys (task data the
 * request carried, not the verifier's output).
 */
export function recordedFields(rollout: Rollout, input?: unknown): RecordedField[] {
  const task = isJsonObject(input) ? input : null;
  const fields: RecordedField[] = [];
  for (const key of Object.keys(rollout)) {
    if (GYM_KEYS.has(key) || (task !== null && Object.hasOwn(task, key))) continue;
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
export function recordedFieldsFor(cause: ZeroCause, rollout: Rollout, input?: unknown): RecordedField[] {
  return FROM_THE_LINE.has(cause) ? recordedFields(rollout, input) : [];
}
