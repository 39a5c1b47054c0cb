/**
 * The run view's requests (./run-view.ts), answered from the data service's store: every rollout of a
 * rollouts file, verified as the rest of the app verifies it (its paired input row, the server choice, the
 * harness). The rows come from the rewards pass (the pool computes each rollout's run row with its
 * rewards, Dataset.runRows), so the view is an aggregation, never a second verification of the file; only
 * rollouts whose rewards are still pending are read and computed here. The rows are cached by dataset id
 * and revision.
 */
import type { EmittedNames } from "@/lib/harness";
import { parseJsonLine } from "@/lib/jsonl";
import { REPORT_UNREADABLE_MAX, renderReport } from "@/lib/report";
import { type RunRow, runRow } from "@/lib/run";
import { runOptions } from "@/worker/core";
import { rolloutOf, rowContext } from "@/worker/jobs";
import type { FolderSummary } from "@/worker/protocol";
import type { Handlers } from "@/worker/rpc";
import type { DataService } from "@/worker/service";
import type { Dataset } from "@/worker/store";
import type { RunRequests } from "./protocol";
import { type ReportFolder, reportData } from "./report";
import { marksIn, reportScope } from "./report-scope";
import {
  type PrecomputedRows,
  type RunSource,
  type RunSourceLine,
  runExport,
  runView,
  wholeFolderView,
} from "./run-view";

const decoder = new TextDecoder();

/** Bytes read at once when rollouts are parsed again (a field filter): consecutive lines, one slice. */
export const RUN_READ_BYTES = 4 * 1024 * 1024;

/**
 * A rollouts dataset as the run view reads it; null for an unknown id or an inputs file. `signal`: the
 * request's, so a text clause's search stops with it (the list's search of the same text goes on).
 */
export function runSource(
  service: DataService,
  id: string,
  signal: AbortSignal = new AbortController().signal,
): RunSource | null {
  const dataset = service.get(id);
  if (dataset?.kind !== "rollouts") return null;
  return {
    key: `${id}#${dataset.revision}`,
    harness: dataset.harness,
    rows: () => precomputed(dataset),
    rollouts: () => rollouts(dataset, dataset.lines()),
    unreadable: dataset.errors().length,
    // The followed file's last line without its break (a run writing it, or a file cut short): said, not counted.
    waiting: (dataset.follow?.waiting ?? 0) > 0 ? 1 : 0,
    // Text clauses are answered by the page's own byte search, so the list and the export keep the same lines.
    textLines: async (text) => new Set((await service.search(id, text, signal, () => {})).lines),
  };
}

async function precomputed(dataset: Dataset): Promise<PrecomputedRows> {
  // Every rollout (the index's rows); the lines that are not rollouts are counted as unreadable, as the
  // chip and `cli triage` count them (lib/run lineCountsText). A row whose rewards are being recomputed
  // (another server, harness or inputs) is computed here.
  const lines = dataset.lines();
  const current = (line: number) =>
    dataset.entries.get(line)?.rewards === "done" ? dataset.runRows.get(line) : undefined;
  const computed = new Map<number, RunRow>();
  const missing = lines.filter((line) => current(line) === undefined);
  for await (const { line, value, options } of rollouts(dataset, missing)) {
    computed.set(line, runRow(line, value, options));
  }
  const rows: RunRow[] = [];
  const names: EmittedNames[] = [];
  for (const line of lines) {
    const stored = current(line);
    const row = stored?.run ?? computed.get(line);
    if (!row) continue;
    rows.push(row);
    if (stored) names.push({ agent: row.agent, server: row.server, emitted: stored.emitted });
  }
  return { rows, names };
}

/** The given rollouts (in file order) read back, each with how it is verified; a slice of lines at a time. */
async function* rollouts(dataset: Dataset, lines: readonly number[]): AsyncGenerator<RunSourceLine> {
  for (let at = 0; at < lines.length; ) {
    // One slice of consecutive lines within one Blob part, at most RUN_READ_BYTES (or one longer line).
    const first = dataset.lineRef(lines[at] ?? 0);
    if (first === null) {
      at++;
      continue;
    }
    let end = first.offset + first.length;
    let next = at + 1;
    for (; next < lines.length; next++) {
      const ref = dataset.lineRef(lines[next] ?? 0);
      if (ref === null || ref.blob !== first.blob || ref.offset + ref.length - first.offset > RUN_READ_BYTES)
        break;
      end = ref.offset + ref.length;
    }
    const bytes = new Uint8Array(await first.blob.slice(first.offset, end).arrayBuffer());
    for (let i = at; i < next; i++) {
      const line = lines[i] ?? 0;
      const ref = dataset.lineRef(line);
      if (ref === null) continue;
      const start = ref.offset - first.offset;
      const parsed = parseJsonLine(decoder.decode(bytes.subarray(start, start + ref.length)));
      const rollout = parsed.ok ? rolloutOf(parsed.value) : null;
      if (rollout === null) continue;
      const context = await rowContext(rollout, dataset.pairedInputs, dataset.analysisOptions());
      yield { line, value: rollout, options: runOptions(context) };
    }
    at = next;
  }
}

/** The opened folder's files and hidden entries, as its report names them. */
function folderOf(folder: FolderSummary | null): ReportFolder | null {
  return folder === null ? null : { files: folder.files, hidden: folder.hidden };
}

/**
 * The rollouts files a request on `dataset` covers (./report-scope.ts: its folder's, or itself), each with its
 * path in the folder (null alone) and its run source; files that are not read are left out.
 */
function scopeSources(service: DataService, dataset: string) {
  const scope = reportScope(service.session().folder, dataset);
  const sources = scope.files.flatMap(({ dataset: id, file }) => {
    const source = runSource(service, id);
    const read = service.get(id);
    return source === null || read === undefined ? [] : [{ dataset: id, file, source, read }];
  });
  return { scope, sources };
}

export function runHandlers(service: DataService): Handlers<RunRequests> {
  return {
    run: ({ dataset, filter, reward }, { signal }) => {
      const source = runSource(service, dataset, signal);
      return source === null ? null : runView(source, filter, { reward });
    },
    runFolder: ({ dataset }) => {
      const { scope, sources } = scopeSources(service, dataset);
      if (scope.folder === null || scope.files.length < 2) return null;
      return wholeFolderView(
        scope.folder,
        sources.flatMap(({ dataset: id, file, source }) =>
          file === null ? [] : [{ dataset: id, file, source }],
        ),
      );
    },
    runReport: async ({ dataset, filter, marked, reward }) => {
      const opened = service.get(dataset);
      if (opened?.kind !== "rollouts") return { error: "no such dataset" };
      const { scope, sources } = scopeSources(service, dataset);
      const marks = marksIn(scope, marked);
      const data = await reportData(
        sources.map(({ file, source, read }) => ({
          file,
          source,
          read: (lines: readonly number[]) => rollouts(read, lines),
          // As the page lists them (LineErrors): lib/folder's words, the damage of a gzip among them.
          unreadable: () =>
            read
              .errors()
              .slice(0, REPORT_UNREADABLE_MAX)
              .map((e) => ({ line: e.line, reason: e.error })),
          problem: () => read.problem,
        })),
        {
          title: scope.folder ?? opened.name,
          filter,
          marked: marks.length === 0 ? null : marks,
          reward,
          folder: folderOf(scope.folder === null ? null : service.session().folder),
        },
      );
      if ("error" in data) return data;
      return { html: renderReport(data), rollouts: data.runs.reduce((n, run) => n + run.rollouts.length, 0) };
    },
    runExport: ({ dataset, filter, format }) => {
      if (service.get(dataset)?.kind !== "rollouts") return { error: "no such dataset" };
      // A folder's file exports the folder's rows, as its report is the folder's (./report-scope.ts).
      return runExport(scopeSources(service, dataset).sources, filter, format);
    },
  };
}
