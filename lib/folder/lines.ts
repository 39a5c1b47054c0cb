/**
 * Every line of a rollouts file gets an answer: a rollout (verified, or unverified with a reason code), or a
 * per-line kind with one sentence saying what the line is instead. Gym's own example files hold placeholder
 * rows, task rows without a response, records without a response, and aviary's transitions; none of them
 * makes a file unreadable as a whole.
 */
import { z } from "zod";
import { isJsonObject, type Rollout, readRollout } from "../schemas";
import { isInputRow } from "../verify/pairing";

export type LineKind = "placeholder" | "not_json" | "task_row" | "no_response" | "not_a_rollout";

export const LINE_KINDS: readonly LineKind[] = [
  "placeholder",
  "not_json",
  "task_row",
  "no_response",
  "not_a_rollout",
];

export interface LineKindAnswer {
  readonly kind: LineKind;
  /** One sentence: what the line is and why nothing is verified. */
  readonly message: string;
}

export type LineReading =
  | {
      readonly ok: true;
      readonly rollout: Rollout;
      /** Set when the line was read through a documented shape (aviary's transitions): says how. */
      readonly note?: string;
    }
  | ({ readonly ok: false } & LineKindAnswer);

/** `<PLACEHOLDER ROW>` and the like: a line that is one angle-bracketed word group. */
const PLACEHOLDER = /^\s*<[^<>{}[\]"]{1,80}>\s*$/;

/** The answer for a line that is not JSON; `text` is the line's raw text when the front end has it. */
export function unparsedLine(error: string, text: string | null): LineKindAnswer {
  if (text !== null && PLACEHOLDER.test(text)) {
    return {
      kind: "placeholder",
      message: `A placeholder row (${text.trim()}): Gym ships it in place of a rollout; there is nothing to verify.`,
    };
  }
  return { kind: "not_json", message: error };
}

const Transitions = z.looseObject({
  response: z.looseObject({
    contains_transitions: z.literal(true),
    output: z.array(z.array(z.unknown())).min(1),
  }),
});

/**
 * Aviary's agent (`return_transitions`, its default) writes `response.output` as a list of transitions,
 * each the agent's whole input after that step (`contains_transitions: true`). The last transition is
 * therefore the complete transcript: the line is read as the rollout whose output is that transcript.
 */
function readTransitions(value: unknown): LineReading | null {
  const parsed = Transitions.safeParse(value);
  if (!parsed.success || !isJsonObject(value)) return null;
  const transitions = parsed.data.response.output;
  const last = transitions[transitions.length - 1] ?? [];
  const response = isJsonObject(value.response) ? value.response : {};
  const read = readRollout({ ...value, response: { ...response, output: last } });
  if (!read.ok) return { ok: false, kind: "not_a_rollout", message: read.message };
  return {
    ok: true,
    rollout: read.rollout,
    note: `Read as Gym's aviary agent writes it: response.output holds ${transitions.length} transitions (contains_transitions), and the last, the agent's whole input after its final step, is the transcript.`,
  };
}

const Reward = z.looseObject({ reward: z.number() });

/** Reads one parsed line: a rollout, or what the line is instead. Never throws. */
export function readLine(value: unknown): LineReading {
  const read = readRollout(value);
  if (read.ok) return { ok: true, rollout: read.rollout };
  if (isJsonObject(value) && !Object.hasOwn(value, "response")) {
    if (isInputRow(value)) {
      return {
        ok: false,
        kind: "task_row",
        message:
          "A task row without a response: nothing to verify on this line (a file of such rows is read as task rows, role inputs, and offered for pairing).",
      };
    }
    const reward = Reward.safeParse(value);
    return {
      ok: false,
      kind: "no_response",
      message: `A record without response or responses_create_params${reward.success ? ` (it carries reward ${reward.data.reward})` : ""}: Gym's /verify cannot be called on it.`,
    };
  }
  const transitions = readTransitions(value);
  if (transitions !== null) return transitions;
  return { ok: false, kind: "not_a_rollout", message: read.message };
}

/**
 * True for a task row (readLine's `task_row`): what a folder's rollouts file offers for pairing besides
 * its task-row files. A line with its own `response` is never one, so most rollouts are not read further.
 */
export function isTaskRowLine(value: unknown): boolean {
  if (!isJsonObject(value) || Object.hasOwn(value, "response")) return false;
  const read = readLine(value);
  return !read.ok && read.kind === "task_row";
}
