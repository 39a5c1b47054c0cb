/**
 * The run view's requests to the data worker (answered by ./handlers.ts; worker/protocol.ts composes them into
 * DataRequests).
 */
import type { Reward } from "@/lib/run";
import type { ExportFormat, RunView } from "./run-view";

export type { ExportFormat, RunView };

export interface RunRequests {
  /** The run view (./run-view.ts): why-zero breakdown, metrics, filtered lines, inferred harness. */
  run: {
    /** reward: the run view's one setting (lib/run reward.ts): the breakdown's zeros and pass@k's reward. */
    params: { dataset: string; filter: string; reward: Reward };
    result: RunView | null;
  };
  /** The filtered rows as CSV or JSONL, the same bytes as `cli triage --format F --filter EXPR`. */
  /**
   * The report to share (lib/report): the breakdown counting zeros in `reward`, the metrics under the filter, and the marked
   * rollouts (none marked: the first the filter keeps), the same bytes as `cli report FILE --filter EXPR --mark L`.
   */
  runReport: {
    params: { dataset: string; filter: string; marked: readonly number[]; reward: Reward };
    result: { html: string; rollouts: number } | { error: string };
  };
  runExport: {
    params: { dataset: string; filter: string; format: ExportFormat };
    result: { text: string; rows: number } | { error: string };
  };
}
