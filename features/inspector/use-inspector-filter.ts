"use client";
import { useDeferredValue, useMemo } from "react";
import { useRunView } from "@/features/run/data";
import { filterClauses, selectRollouts, statusCounts } from "@/features/run/list";
import { useRolloutIndex, useSearch } from "@/hooks/data";
import type { DatasetSummary, RolloutIndexEntry } from "@/hooks/types";
import { sameStrings, useStable } from "@/hooks/use-stable";
import { lineHolds, textsOf } from "@/lib/run";
import { workspaceReadiness } from "./inspector-state";
import { useClosedByBack } from "./use-view-state";
import type { ViewState } from "./view-state";

const NO_ENTRIES: readonly RolloutIndexEntry[] = [];

/**
 * The lines a search answer decides the text clause `query` with: the answer for this text, or for a text the
 * typed one holds (the previous answer kept while "refund" becomes "refunds": its lines hold every new match,
 * so no match is hidden); null for an answer of another text, which decides nothing (every row kept) until
 * this text's arrives.
 */
export function answerLines(
  query: string,
  answer: { readonly text: string; readonly lines: ReadonlySet<number> } | undefined,
): ReadonlySet<number> | null {
  const text = query.trim();
  return text !== "" && answer !== undefined && lineHolds(text, answer.text) ? answer.lines : null;
}

/** The distinct names the rows carry, sorted: one pass, no allocation per row (it runs at every revision). */
function namesOf(
  entries: readonly RolloutIndexEntry[],
  name: (entry: RolloutIndexEntry) => string | null,
): string[] {
  const names = new Set<string>();
  for (const entry of entries) {
    const value = name(entry);
    if (value) names.add(value);
  }
  return [...names].sort();
}

/**
 * The list of the shown file under the one filter: the worker's rows, narrowed by the filter's clauses, its
 * text clause (answered by the worker's byte search) and the run view's answer for the filter, then sorted;
 * the open rollout, the tiles' counts, the agents and servers to choose from, and the workspace's readiness.
 */
export function useInspectorFilter(
  dataset: DatasetSummary | null,
  view: Pick<ViewState, "f" | "reward" | "sort" | "desc" | "line">,
  /** Files load or rewards are recomputed: the workspace is not ready. */
  busy: boolean,
) {
  const index = useRolloutIndex(dataset);
  // One filter: the search box is its text clause, answered by the worker's byte search.
  const clauses = useMemo(() => filterClauses(view.f), [view.f]);
  const query = useDeferredValue(textsOf(clauses)[0] ?? "");
  const search = useSearch(dataset, query);
  const latestEntries = index.data ?? NO_ENTRIES;
  // Streamed rows and streamed search matches re-render the list in a background (interruptible) render:
  // React renders it in slices between input events instead of one long task per revision.
  const entries = useDeferredValue(latestEntries);
  const searchLines = useDeferredValue(answerLines(query, search.data));
  const { sort, desc } = view;
  const run = useRunView(dataset, view.f, view.reward);
  // The run view (breakdown, metrics, the lines a filter keeps) lands in a background render too: on a big
  // run its first arrival, once every reward is in, re-filters the list and mounts both panels.
  const runView = useDeferredValue(run.data);
  // The worker's answer for this very filter (a previous filter's answer is kept on screen while it computes).
  const runLines = runView && runView.filter === view.f ? runView.lines : null;
  const kept = useMemo(() => (runLines === null ? null : new Set(runLines)), [runLines]);
  const rows = useMemo(
    () =>
      selectRollouts(
        entries,
        { clauses, sort, desc },
        { search: searchLines === null ? null : { text: query, lines: searchLines }, kept },
      ),
    [entries, clauses, sort, desc, searchLines, query, kept],
  );
  // The tiles count the rows the filter keeps, as the list, the metrics and the export do; the zero tile
  // counts zeros in the reward setting, as the headline does.
  const counts = useMemo(() => statusCounts(rows, view.reward), [rows, view.reward]);
  // The same lists while new rows bring no new name: the filter bar's options are not rebuilt per revision.
  const agents = useStable(
    useMemo(() => namesOf(entries, (e) => e.agent), [entries]),
    sameStrings,
  );
  const servers = useStable(
    useMemo(() => namesOf(entries, (e) => e.server), [entries]),
    sameStrings,
  );

  // Without a line in the URL the first listed rollout is open, so a loaded file shows a transcript at once;
  // not after Back (or Forward) to a URL without a line: that closes the rollout.
  const firstLine = rows[0]?.line ?? null;
  const closedByBack = useClosedByBack(view.line);
  const selectedLine = view.line ?? (closedByBack ? null : firstLine);
  const selectedEntry = entries.find((entry) => entry.line === selectedLine) ?? null;

  const searchDone =
    query.trim() !== "" &&
    search.data?.text === query.trim() &&
    !search.isPlaceholderData &&
    !search.isFetching &&
    search.data.ms != null;
  // The index is complete when the whole file is read and this page holds the worker's latest rows.
  const readiness = workspaceReadiness({
    dataset,
    busy,
    indexSettled: index.isSuccess && !index.isPlaceholderData,
    current: entries === latestEntries,
  });
  const list = { entries, rows, counts, agents, servers, runLines, firstLine, selectedLine, selectedEntry };
  return { ...list, ...readiness, query, search, searchDone, runView };
}
