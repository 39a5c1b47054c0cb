/** The generated triage run (scripts/gen-triage-run) as the run view's tests read it. */
import { NO_HARNESS } from "@/lib/harness";
import { asRollout } from "@/lib/schemas/test-helpers";
import { buildTriageRun } from "@/scripts/gen-triage-run";
import type { RunSource } from "./run-view";

export const run = buildTriageRun();

/** Every line parsed (the one that is not a rollout too). */
export const values: unknown[] = run.text
  .trim()
  .split("\n")
  .map((text) => JSON.parse(text));

/** The rollouts narrowed once, as the data service does; the line that is not one is counted as unreadable. */
export const rollouts = run.intents.map((i) => ({ line: i.line, value: asRollout(values[i.line - 1]) }));

/** A run source of rollouts [from, to) with `unreadable` lines beside them. */
export function runPart(key: string, from: number, to: number, unreadable = 0): RunSource {
  return {
    key,
    harness: NO_HARNESS,
    unreadable,
    *rollouts() {
      for (const { line, value } of rollouts.slice(from, to)) yield { line, value, options: {} };
    },
  };
}
