/** Rows and file summaries for the inspector's tests: a valid value of each, patched per test. */
import type { DatasetSummary, RolloutIndexEntry } from "@/worker/protocol";

export function entry(line: number, patch: Partial<RolloutIndexEntry> = {}): RolloutIndexEntry {
  return {
    line,
    task_index: line % 3,
    rollout_index: 0,
    task_id: String(line),
    task: String(line % 3),
    agent: "a",
    environment: "workplace_assistant",
    server: "workplace_assistant",
    server_source: "environment_name",
    recorded: 1,
    contract: 1,
    legacy: 1,
    unverified: null,
    legacy_unverified: null,
    calls: 2,
    counts: { ambiguous: 0, mismatched: 0, external: 0, none: 2 },
    map_state: "authoritative",
    gym_would_reject: false,
    error: null,
    paired: false,
    paired_by: "none",
    key: null,
    rewards: "done",
    ...patch,
  };
}

/** A fully read rollouts file of `rows` rows, every reward in, analysed under no server or harness choice. */
export function datasetSummary(patch: Partial<DatasetSummary> = {}): DatasetSummary {
  const id = patch.id ?? "d1";
  return {
    id,
    ref: id,
    name: "run.jsonl",
    kind: "rollouts",
    revision: 3,
    analysis: 1,
    bytes: 1000,
    total_bytes: 1000,
    lines: 4,
    rows: 4,
    indexed: true,
    rewarded: 4,
    errors: [],
    error_count: 0,
    paired_inputs: null,
    paired_rows: 0,
    server_override: null,
    servers: [],
    harness: "",
    fallback_server: null,
    problem: null,
    folder_path: null,
    folder_name: null,
    config_files: [],
    follow: null,
    ...patch,
  };
}
