import type { CompareFileSummary } from "./protocol";

/** A one-rollout file's summary as the worker gives it, with the fields a test sets. */
export function fileSummary(fields: Partial<CompareFileSummary> = {}): CompareFileSummary {
  return {
    id: "d1",
    name: "run.jsonl",
    version: 1,
    analysis: 0,
    kind: "rollouts",
    input_rows: 0,
    bytes: 10,
    lines: 1,
    rollouts: 1,
    errors: [],
    error_count: 0,
    servers: [],
    ...fields,
  };
}
