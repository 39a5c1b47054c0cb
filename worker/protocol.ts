/**
 * The message protocol between the UI thread and the inspector worker.
 *
 * The worker owns every byte of a loaded file and every parsed rollout. Only compact summaries cross
 * the boundary: an index row per rollout (a few hundred bytes), one rollout's transcript view when it
 * is opened, and raw line bytes on demand (transferred, not copied).
 */
import type { HarnessId } from "../lib/harness/types";
import type { CallResolution, Highlight, MapState, Policy, RolloutFinding } from "../lib/identity/types";
import type { PairedBy } from "../lib/verify/pairing";
import type { ServerSource } from "../lib/verify/server";
import type { VerifyResult } from "../lib/verify/types";
import type { UnverifiedCode } from "../lib/verify/unverified";
import type { ExportFormat, RunView } from "./run";

export type {
  CallResolution,
  ExportFormat,
  HarnessId,
  Highlight,
  MapState,
  Policy,
  RolloutFinding,
  RunView,
  VerifyResult,
};

/** Where a file comes from. Files never leave the browser; URLs are same-origin bundled samples. */
export type Source =
  | { readonly kind: "file"; readonly file: File }
  | { readonly kind: "url"; readonly url: string; readonly name: string };

export type DatasetKind = "rollouts" | "inputs";

export interface LineError {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly error: string;
}

export interface DatasetSummary {
  readonly id: string;
  readonly name: string;
  readonly kind: DatasetKind;
  readonly bytes: number;
  readonly lines: number;
  /** Rows that parsed and (for rollouts) passed the schema. */
  readonly rows: number;
  readonly errors: readonly LineError[];
  /** For rollouts: the inputs dataset whose rows were paired with this one's, if any. */
  readonly paired_inputs: string | null;
  /** For rollouts: how many rows found their materialized input row. */
  readonly paired_rows: number;
  /** For rollouts: the verifying server chosen for every row, or null for each row's default. */
  readonly server_override: string | null;
  /** For rollouts: the harness the index's alias diagnostics assume, or null when unknown. */
  readonly harness: HarnessId | null;
  /** For rollouts: the verifying server of rows that name none themselves, when the loader knew one. */
  readonly fallback_server: string | null;
  /** For rollouts: when not one line is a rollout, what the file is instead (lib/filekind), one sentence. */
  readonly problem: string | null;
}

export interface SessionSummary {
  readonly datasets: readonly DatasetSummary[];
}

export type HighlightCounts = Readonly<Record<Highlight, number>>;

/** One rollout in the list. Kept small: the whole index of a large file crosses the boundary. */
export interface RolloutIndexEntry {
  readonly line: number;
  readonly task_index: number | null;
  readonly rollout_index: number | null;
  /** The task's `id` field, stringified, when present. */
  readonly task_id: string | null;
  readonly agent: string | null;
  readonly environment: string | null;
  /** The verifying server used for the list's recomputation (lib/verify chooseServer). */
  readonly server: string | null;
  /** Which evidence chose it: override, environment_name, input, provenance, declared_tools, sample, none. */
  readonly server_source: ServerSource;
  readonly recorded: number | null;
  /** Recomputed reward per policy; null when no verifier ran. */
  readonly contract: number | null;
  readonly legacy: number | null;
  /** Why `contract` (resp. `legacy`) is null: a stable reason code (lib/verify UnverifiedCode). */
  readonly unverified: UnverifiedCode | null;
  readonly legacy_unverified: UnverifiedCode | null;
  readonly calls: number;
  /** Per-highlight call counts under policy `contract`. */
  readonly counts: HighlightCounts;
  readonly map_state: MapState;
  readonly gym_would_reject: boolean;
  readonly verify_error: string | null;
  readonly paired: boolean;
  /** How the inputs row was found: by Gym's indices, by an equal task input, or not at all. */
  readonly paired_by: PairedBy;
}

/** One item of a transcript, in response.output order. */
export type TranscriptItem =
  | { readonly kind: "message"; readonly output_index: number; readonly role: string; readonly text: string }
  | { readonly kind: "reasoning"; readonly output_index: number; readonly text: string }
  | {
      readonly kind: "call";
      readonly output_index: number;
      readonly call_index: number;
      readonly call_id: string | null;
      readonly name: string;
      readonly arguments: string;
      /** The paired function_call_output's `output`, serialized when it is not a string. */
      readonly output: string | null;
      readonly output_index_of_output: number | null;
    }
  | {
      readonly kind: "output";
      readonly output_index: number;
      readonly call_id: string | null;
      readonly output: string;
    }
  | { readonly kind: "other"; readonly output_index: number; readonly type: string; readonly json: string };

export interface InputMessage {
  readonly role: string;
  readonly text: string;
}

export interface RolloutView {
  readonly line: number;
  readonly entry: RolloutIndexEntry;
  /** The prompt (responses_create_params.input) as role/text pairs. */
  readonly input: readonly InputMessage[];
  readonly items: readonly TranscriptItem[];
  /** Per-policy identity resolution for the list's server. */
  readonly resolution: Readonly<Record<Policy, ReadonlyArray<CallResolution>>>;
  readonly findings: readonly RolloutFinding[];
  readonly byte_length: number;
  /** Keys of the rollout that are not rendered elsewhere, with short JSON previews. */
  readonly extra_fields: readonly { readonly key: string; readonly preview: string }[];
}

export interface VerificationView {
  readonly server: string | null;
  readonly harness: HarnessId | null;
  readonly contract: VerifyResult;
  readonly legacy: VerifyResult;
}

/** A shiki token, flattened to what a span needs. */
export interface Token {
  readonly content: string;
  readonly light: string | null;
  readonly dark: string | null;
  readonly fontStyle: number;
}

export interface HighlightResult {
  readonly lines: readonly (readonly Token[])[];
  /** True when the text was too large to tokenize and comes back as plain lines. */
  readonly plain: boolean;
}

export interface Requests {
  /** fallbackServer: the verifying server for rows that name none (a bundled sample's server). */
  load: { params: { sources: readonly Source[]; fallbackServer?: string | null }; result: SessionSummary };
  /** Recomputes the index for a verifying server (null: each row's default) and a harness (alias flags). */
  reanalyze: {
    params: { dataset: string; server: string | null; harness: HarnessId | null };
    result: SessionSummary;
  };
  indexPage: {
    params: { dataset: string; start: number; count: number };
    result: { entries: RolloutIndexEntry[]; total: number };
  };
  rollout: { params: { dataset: string; line: number }; result: RolloutView | null };
  verify: {
    /** server null: the row's own choice (lib/verify chooseServer). */
    params: { dataset: string; line: number; server: string | null; harness: HarnessId | null };
    result: VerificationView | null;
  };
  raw: { params: { dataset: string; line: number }; result: { bytes: Uint8Array } | null };
  search: { params: { dataset: string; text: string }; result: { lines: number[] } };
  highlight: { params: { code: string; lang: "json" }; result: HighlightResult };
  servers: { params: Record<string, never>; result: { servers: string[] } };
  /** The run view (worker/run.ts): why-zero breakdown, metrics, filtered lines, inferred harness. */
  run: { params: { dataset: string; filter: string }; result: RunView | null };
  /** The filtered rows as CSV or JSONL, the same bytes as `cli triage --format F --filter EXPR`. */
  runExport: {
    params: { dataset: string; filter: string; format: ExportFormat };
    result: { text: string; rows: number } | { error: string };
  };
}

export type Method = keyof Requests;

export interface LoadProgress {
  readonly phase: "reading" | "analyzing";
  readonly file: string;
  readonly done: number;
  /** null when unknown (a stream without Content-Length, or a gzip file being read). */
  readonly total: number | null;
  readonly rows: number;
}

export type ToWorker =
  | { readonly type: "request"; readonly id: number; readonly method: Method; readonly params: unknown }
  | { readonly type: "cancel"; readonly id: number };

export type FromWorker =
  | { readonly type: "result"; readonly id: number; readonly result: unknown }
  | { readonly type: "error"; readonly id: number; readonly error: string; readonly cancelled: boolean }
  | { readonly type: "progress"; readonly id: number; readonly progress: LoadProgress };
