/**
 * The run view's requests to the data worker (answered by ./handlers.ts; worker/protocol.ts composes them into
 * DataRequests).
 */
import type { Reward } from "@/lib/run";
import type { MarkedRollout } from "./report-scope";
import type { ExportFormat, RunView, WholeFolderView } from "./run-view";

export type { ExportFormat, RunView, WholeFolderView };

export interface RunRequests {
  /** The run view (./run-view.ts): why-zero breakdown, metrics, filtered lines, inferred harness. */
  run: {
    /** reward: the run view's one setting (lib/run reward.ts): the breakdown's zeros and pass@k's reward. */
    params: { dataset: string; filter: string; reward: Reward };
    result: RunView | null;
  };
  /**
   * Every rollouts file of the folder `dataset` belongs to, summed (./run-view.ts wholeFolderView), as
   * `cli triage DIR` sums them; null for a file opened alone or a folder with one rollouts file.
   */
  runFolder: {
    params: { dataset: string };
    result: WholeFolderView | null;
  };
  /**
   * The report to share (lib/report): the breakdown counting zeros in `reward`, the metrics under the filter, and the marked
   * rollouts (none marked: the first the filter keeps), the same bytes as `cli report FILE --filter EXPR --mark L`;
   * for a file of an opened folder, every rollouts file of the folder (./report-scope.ts), as
   * `cli report DIR --mark FILE:LINE`. Marks of files outside the report are left out.
   */
  runReport: {
    params: { dataset: string; filter: string; marked: readonly MarkedRollout[]; reward: Reward };
    result: { html: string; rollouts: number } | { error: string };
  };
  /**
   * The filtered rows as CSV or JSONL, the same bytes as `cli triage FILE --format F --filter EXPR`; for a file
   * of an opened folder, every rollouts file of the folder, as `cli triage DIR --format F --filter EXPR`.
   */
  runExport: {
    params: { dataset: string; filter: string; format: ExportFormat };
    result: { text: string; rows: number } | { error: string };
  };
}
