/**
 * Which rollouts files a report covers, decided once for the page (the Report button's count of marks) and
 * the worker (the report itself): a file of an opened folder stands for every rollouts file of that folder,
 * each labelled with its path there (as `cli report DIR`); a file opened alone for itself.
 */
import { comparePaths } from "@/lib/folder";
import type { FolderSummary } from "@/worker/protocol";

export interface ReportScope {
  /** The folder's name, or null for a file opened alone. */
  readonly folder: string | null;
  readonly files: readonly { readonly dataset: string; readonly file: string | null }[];
}

export function reportScope(folder: FolderSummary | null, dataset: string): ReportScope {
  // In the order `cli report DIR` and `cli triage DIR` walk the folder, whatever order the files came in.
  const files = (folder?.runs ?? [])
    .flatMap((run) => (run.dataset === null ? [] : [{ dataset: run.dataset, file: run.rollouts }]))
    .sort((a, b) => comparePaths(a.file, b.file));
  if (folder === null || !files.some((file) => file.dataset === dataset))
    return { folder: null, files: [{ dataset, file: null }] };
  return { folder: folder.name, files };
}

/** A rollout marked on the page: its dataset and line. */
export interface MarkedRollout {
  readonly dataset: string;
  readonly line: number;
}

/** The marks a report of `scope` shows, each with its file label. */
export function marksIn(scope: ReportScope, marks: readonly MarkedRollout[]) {
  return marks.flatMap((mark) => {
    const file = scope.files.find((f) => f.dataset === mark.dataset);
    return file === undefined ? [] : [{ file: file.file, line: mark.line }];
  });
}
