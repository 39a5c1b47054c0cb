/**
 * The compare page's requests to the data worker and their types (answered by ./handlers.ts; worker/protocol.ts
 * composes them into DataRequests).
 *
 * Files come from the one file store, by reference (a FileRef: the stored file's dataset id, or a bundled
 * sample's name); a comparison parses the few files it needs. Only compact
 * results cross the boundary: a summary per file, one row per compared pair (the aligned actions of a
 * pair only when it is opened), the what-if table of one rollout, the outcome of a repair, and the
 * repaired file as a Blob when the user downloads it.
 */
import type {
  Action,
  CompareSummary,
  NameMismatch,
  TaskCompareSummary,
  TaskComparison,
  Verdict,
} from "@/lib/compare";
import type { HarnessId } from "@/lib/harness/types";
import type { CallStatus, Policy } from "@/lib/identity/types";
import type { UnresolvedReason } from "@/lib/repair";
import type { WhatIfErrorKind } from "@/lib/whatif";
import type { Source } from "@/worker/protocol";

export type { CallStatus, HarnessId, Policy, Source, UnresolvedReason, Verdict };

export interface CompareLineError {
  readonly line: number;
  readonly error: string;
}

/**
 * How the page names a file: the dataset id of a file opened in this tab (two files of the same name are
 * two ids), or the name of a bundled sample (fetched into the store the first time).
 */
export type FileRef = string;

export interface CompareFileSummary {
  /** The stored file's dataset id: the FileRef the page keeps in its URL for an opened file. */
  readonly id: string;
  /** The file name, for display (not unique: see id). */
  readonly name: string;
  /** Changes every time a file of this name is (re)loaded, so cached results keyed by it go stale. */
  readonly version: number;
  /**
   * What its rollouts are verified with changed (the server chosen in the inspector, a folder file's role):
   * the dataset's analysis revision. Results keyed by it are asked for again.
   */
  readonly analysis: number;
  /** "inputs": every parsed row is a materialized-inputs row (no `response`); see lib/verify isInputRow. */
  readonly kind: "rollouts" | "inputs";
  /** Rows of an inputs file (0 for rollouts). */
  readonly input_rows: number;
  readonly bytes: number;
  readonly lines: number;
  readonly rollouts: number;
  /** Lines that are not JSON or not rollouts (first MAX_REPORTED_ERRORS). */
  readonly errors: readonly CompareLineError[];
  readonly error_count: number;
  /** Verifying servers of its rollouts (as its own page chooses them), most frequent first. */
  readonly servers: readonly string[];
}

export interface SideRow {
  readonly line: number;
  readonly recorded: number | null;
  readonly reward: number | null;
  readonly error: string | null;
  readonly calls: number;
}

export interface PairRow {
  /** Position in the report (stable id of the pair for pairDetail). */
  readonly id: number;
  readonly key: string;
  readonly paired_by: "indices" | "input" | "id";
  readonly server: string;
  readonly a: SideRow;
  readonly b: SideRow;
  readonly verdict: Verdict;
  readonly reward_basis: "recomputed" | "recorded";
  /** Only the names can explain the different rewards (lib/compare PairReport.names_decided). */
  readonly names_decided: boolean;
  /** Paired by Gym's indices, of two different task inputs (lib/compare PairReport.tasks_differ). */
  readonly tasks_differ: boolean;
  /** Joined among several rollouts of one task in file order (lib/compare PairReport.repeats). */
  readonly repeats: { readonly a: number; readonly b: number } | null;
  /** One sentence on the first divergence, or null when the action sequences agree. */
  readonly divergence: string | null;
  readonly divergence_step: number | null;
  /**
   * The first call (B first, then A) whose verifier name is not its tool's name: why a pair with the
   * same actions can score differently. Null when every verifier name is the tool name.
   */
  readonly name_mismatch: NameMismatch | null;
}

/** The materialized-inputs file one side of a comparison used. */
export interface SideInputsView {
  readonly name: string;
  readonly rows: number;
  /** The side's rollouts whose (_ng_task_index, _ng_rollout_index) has a row in this file. */
  readonly paired: number;
  /**
   * Set when this side chose no inputs but the other did: compareRuns takes one inputs map for both runs
   * (as the CLI's --inputs), so the other side's file verifies this side too.
   */
  readonly shared_from: "a" | "b" | null;
}

/** The library's summary crosses the worker boundary as it is: it is already plain numbers. */
export type CompareSummaryView = CompareSummary;

/** One task of the comparison by task (lib/compare compareTasks), as the page lists it. */
export interface TaskRowView extends Omit<TaskComparison, "pairs"> {
  /** How the page names it: Gym's task index, else A's line of its first pair. */
  readonly label: string;
  readonly pairs: number;
}

/** The comparison by task: every task counted, the tasks whose mean reward differs listed (capped). */
export interface TasksView {
  readonly summary: TaskCompareSummary;
  /** Tasks lower in B first (largest drop first), then higher (largest gain first); the first TASK_ROWS_SHOWN. */
  readonly rows: readonly TaskRowView[];
  /** Tasks that differ, listed or not. */
  readonly differing: number;
}

export interface CompareView {
  readonly a: string;
  readonly b: string;
  readonly policy: Policy;
  readonly summary: CompareSummaryView;
  readonly pairs: readonly PairRow[];
  readonly tasks: TasksView;
  /** Line numbers of rollouts that found no partner. */
  readonly unpaired_a: readonly number[];
  readonly unpaired_b: readonly number[];
  readonly inputs_a: SideInputsView | null;
  readonly inputs_b: SideInputsView | null;
  /** Task keys whose input rows differ between A's and B's inputs files (A's row was used for both). */
  readonly input_conflicts: number;
}

/** One action of a canonical action sequence, as the page shows it. */
export interface ActionView
  extends Pick<
    Action,
    "index" | "server" | "tool" | "emitted" | "call_id" | "status" | "verifier_name" | "arguments_valid"
  > {
  readonly named_by: string;
  /** Arguments as compact JSON (or the raw text when they do not parse), cut at MAX_ARGUMENT_CHARS. */
  readonly arguments: string;
}

export interface StepView {
  readonly kind: "same" | "changed" | "only_a" | "only_b";
  readonly a: ActionView | null;
  readonly b: ActionView | null;
}

export interface PairDetail {
  readonly id: number;
  readonly steps: readonly StepView[];
  readonly first_divergence: number | null;
  /** Set when the actions were too long to align within lib/compare's cost bound: what was done instead. */
  readonly alignment_note: string | null;
  readonly a_error: string | null;
  readonly b_error: string | null;
}

export interface RolloutListEntry {
  readonly line: number;
  readonly task_index: number | null;
  readonly rollout_index: number | null;
  readonly recorded: number | null;
  readonly calls: number;
}

export interface WhatIfRowView {
  readonly harness: HarnessId;
  readonly label: string;
  readonly with_provenance: boolean;
  readonly reward: number | null;
  readonly error: string | null;
  readonly equals_http: boolean;
  readonly emitted: readonly string[];
  readonly verifier_names: readonly string[];
  readonly statuses: readonly CallStatus[];
}

export interface WhatIfView {
  readonly file: string;
  readonly line: number;
  readonly server: string;
  /** Why that server verifies it: the same choice as the inspector's (its folder's configs, its sample, …). */
  readonly server_reason: string;
  /** How the rollout was paired with a row of the inputs file in use (null: no inputs file). */
  readonly input: {
    readonly file: string;
    readonly paired: boolean;
    readonly reason: string;
    /** Paired by Gym's indices with a row whose task input differs from the line's. */
    readonly disagrees: boolean;
  } | null;
  readonly recorded: number | null;
  readonly http: {
    readonly reward: number | null;
    readonly error: string | null;
    readonly names: readonly string[];
  };
  readonly rows: readonly WhatIfRowView[];
  readonly reemitted_calls: readonly number[];
  readonly error: string | null;
  /** lib/whatif's kind of `error`: nothing to try (no call, no port here) is said plainly, not as a failure. */
  readonly error_kind: WhatIfErrorKind | null;
}

export interface RepairServerInput {
  readonly name: string;
  readonly tools: readonly string[];
}

export interface RepairRolloutView {
  readonly line: number;
  readonly status: "repaired" | "unchanged" | "skipped" | "invalid";
  readonly message: string;
  readonly derived: readonly {
    readonly call_id: string;
    readonly emitted: string;
    readonly server_name: string;
    readonly tool_name: string;
  }[];
  readonly unresolved: readonly {
    readonly call_id: string | null;
    readonly emitted: string;
    readonly reason: UnresolvedReason;
    readonly message: string;
  }[];
  readonly recorded: number | null;
  /** Recomputed under the contract, before and after the repair. */
  readonly before: number | null;
  readonly after: number | null;
  readonly before_error: string | null;
  readonly after_error: string | null;
}

export interface RepairView {
  /** Id of the repaired bytes held by the worker (for `download`). */
  readonly id: number;
  readonly file: string;
  readonly harness: HarnessId;
  readonly servers: readonly RepairServerInput[];
  /** Nothing repaired: the other harnesses whose aliases of these servers' tools the calls' names are (inferred). */
  readonly suggested: readonly HarnessId[];
  readonly summary_text: string;
  readonly repaired: number;
  readonly unchanged: number;
  readonly skipped: number;
  readonly invalid: number;
  readonly derived_calls: number;
  readonly unresolved: Readonly<Record<UnresolvedReason, number>>;
  readonly collisions: readonly { readonly alias: string; readonly identities: readonly string[] }[];
  readonly changed_lines: number;
  readonly output_bytes: number;
  readonly rollouts: readonly RepairRolloutView[];
}

/** Two rollout files, each with its optional materialized-inputs file (by loaded name). */
export interface RunsParams {
  readonly a: FileRef;
  readonly b: FileRef;
  readonly ai: FileRef | null;
  readonly bi: FileRef | null;
  readonly policy: Policy;
}

/** The compare page's requests; the one data worker answers them beside the inspector's. */
export interface CompareRequests {
  /**
   * A file by reference: the stored file of that dataset id, else the latest stored file of that name,
   * else (when `sample` is set) the bundled sample of that name.
   */
  file: { params: { ref: FileRef; sample: boolean }; result: CompareFileSummary };
  /** Opens a local file into the store (it is then offered on both pages). */
  open: { params: { source: Source }; result: CompareFileSummary };
  compare: { params: RunsParams; result: CompareView };
  /** The comparison as CSV (lib/compare compareCsv) and the file name to save it under. */
  compareCsv: { params: RunsParams; result: { text: string; name: string } };
  pairDetail: { params: RunsParams & { id: number }; result: PairDetail | null };
  rollouts: { params: { file: FileRef }; result: RolloutListEntry[] };
  whatIf: { params: { file: FileRef; line: number; inputs: FileRef | null }; result: WhatIfView | null };
  repairServers: { params: Record<string, never>; result: { servers: RepairServerInput[] } };
  repair: {
    params: {
      file: FileRef;
      harness: HarnessId;
      servers: readonly RepairServerInput[];
      inputs: FileRef | null;
    };
    result: RepairView;
  };
  download: { params: { id: number }; result: { blob: Blob; name: string } | null };
}
