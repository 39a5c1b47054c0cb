"use client";
import Link from "next/link";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { cx } from "@/components/cx";
import { DropTarget, LoadProgressBar, OpenFilesButton, OpenFolderButton, Welcome } from "@/components/Loader";
import { Name } from "@/components/Name";
import topbar from "@/components/topbar.module.css";
import { runViewReady, useRunExport, useRunReport, useRunView } from "@/features/run/data";
import { FilterBar } from "@/features/run/FilterBar";
import { filterClauses, type SortKey, selectRollouts, statusCounts } from "@/features/run/list";
import { RolloutTable } from "@/features/run/RolloutTable";
import { RunFilter } from "@/features/run/RunFilter";
import { RunMetricsPanel } from "@/features/run/RunMetricsPanel";
import { SummaryBand } from "@/features/run/SummaryBand";
import { TriagePanel } from "@/features/run/TriagePanel";
import {
  storedWorkspace,
  useLineErrors,
  useLoad,
  usePrioritize,
  useReanalyze,
  useRecentFiles,
  useRememberWorkspace,
  useRolloutIndex,
  useSamples,
  useSearch,
  useSession,
} from "@/hooks/data";
import { fileLabels } from "@/hooks/file-labels";
import type { PickedFolder } from "@/hooks/folder-files";
import { bundledSample, pairedInputsSample } from "@/hooks/samples";
import type { RolloutIndexEntry, Sample, Source } from "@/hooks/types";
import { useKeyboard } from "@/hooks/use-keyboard";
import { formatHarnessChoice, NO_HARNESS, parseHarnessChoice } from "@/lib/harness";
import { type FilterClause, formatFilter, lineCountsText, parseFilter, textsOf } from "@/lib/run";
import type { ZeroCause, ZeroView } from "@/lib/triage";
import { FolderPanel, GymMetricsPanel } from "./FolderPanel";
import { FollowBanner } from "./FollowBanner";
import styles from "./Inspector.module.css";
import { LineErrors } from "./LineErrors";
import { RolloutPane } from "./RolloutPane";
import { servedFolder, servedSources } from "./served";
import { useViewState } from "./use-view-state";
import { DEFAULT_VIEW, keptForOpenedFiles, linkTarget } from "./view-state";

const NO_ENTRIES: readonly RolloutIndexEntry[] = [];
const NO_LINES: readonly number[] = [];

/** A zero in a view: its reward in that view is exactly 0. */
function zeroClause(view: ZeroView): FilterClause {
  return { kind: "range", field: view, min: 0, max: 0 };
}

function isZeroClause(clause: FilterClause): boolean {
  return clause.kind === "range" && clause.min === 0 && clause.max === 0;
}

/**
 * The filter with its cause clause replaced (or removed when cause is null), together with the zero clause
 * of the breakdown's view, so the list holds exactly the rollouts the cause's count counts; other clauses
 * are kept.
 */
function withCause(filter: string, cause: ZeroCause | null, view: ZeroView): string {
  const parsed = parseFilter(filter);
  const kept: FilterClause[] = parsed.ok
    ? parsed.clauses.filter((c) => c.kind !== "cause" && !isZeroClause(c))
    : [];
  return formatFilter(cause === null ? kept : [...kept, zeroClause(view), { kind: "cause", cause }]);
}

function activeCause(filter: string): ZeroCause | null {
  const causes = filterClauses(filter).flatMap((c) => (c.kind === "cause" ? [c.cause] : []));
  return causes.length === 1 ? (causes[0] ?? null) : null;
}

/** "line 6 · call 1 · filter cause:tool_failed": what a link shows. */
function linkParts(view: { line: number | null; call: string | null; f: string }): string {
  const parts: string[] = [];
  if (view.line !== null) parts.push(`line ${view.line}`);
  if (view.call !== null) parts.push(`call ${view.call}`);
  if (view.f.trim() !== "") parts.push(`filter ${view.f.trim()}`);
  return parts.join(" · ");
}

/** What the breakdown covers under a filter: every clause but its cause clauses (null: the whole run). */
function breakdownScope(filter: string, covered: number, total: number): string | null {
  const clauses = filterClauses(filter);
  if (filter.trim() === "") return null;
  const causes = clauses.some((c) => c.kind === "cause");
  return `Breakdown of ${covered} of ${total} rollouts (filter: ${filter.trim()})${
    causes ? "; its cause clause is left out here, so every cause stays visible" : ""
  }`;
}

function sampleSources(file: string, samples: readonly Sample[]): Source[] {
  const sources: Source[] = [{ kind: "url", url: `/samples/${file}`, name: file }];
  const inputs = pairedInputsSample(file, samples);
  if (inputs !== null) sources.push({ kind: "url", url: `/samples/${inputs}`, name: inputs });
  return sources;
}

export function Inspector() {
  const [view, setView] = useViewState();
  // Session events stay urgent (cheap: the list's work is keyed on the deferred rows below), so a revision's
  // rows are asked for at once; deferring them too put two background renders between the worker and the
  // list, and under CPU load a background render is restarted by every new event.
  const session = useSession();
  const loader = useLoad();
  const samples = useSamples();
  const reanalyzer = useReanalyze();
  const searchInput = useRef<HTMLInputElement>(null);

  // A reload reopens the tab's files (kept in the origin-private file system), unless a link names a sample.
  useRememberWorkspace(session);
  const restored = useRef(false);
  // Rows of a reopened file whose results are being checked say so ("restoring"), never "unverified".
  const [restoring, setRestoring] = useState(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const ids = storedWorkspace();
    if (servedFolder()) {
      // A folder `cli view` serves is read from the server, so a reload sees what the run wrote since.
      void servedSources().then(
        ({ sources }) => loader.load(sources),
        (error: unknown) => setServedError(error instanceof Error ? error.message : String(error)),
      );
      return;
    }
    if (session === null && !view.sample && ids.length > 0) {
      setRestoring(true);
      void loader.restore(ids);
    }
  }, [session, view.sample, loader.restore, loader.load]);
  const [servedError, setServedError] = useState<string | null>(null);

  // Open the sample named in the URL (a deep link), once the sample list is known.
  const loadedSample = useRef<string | null>(null);
  useEffect(() => {
    const sample = view.sample;
    if (!sample || loadedSample.current === sample || samples.isPending) return;
    loadedSample.current = sample;
    const entry = bundledSample(sample, samples.data ?? []);
    if (entry === null) return;
    void loader.load(sampleSources(entry.file, samples.data ?? []), entry.server ?? null);
  }, [view.sample, samples.isPending, samples.data, loader.load]);

  // The landing page is shown again after Back from a sample (the URL loses ?sample=) or the title link,
  // though the worker still holds the file: a later sample or file replaces it.
  const [home, setHome] = useState(false);
  const landing = home || (loadedSample.current !== null && view.sample === null);
  useEffect(() => {
    if (view.sample !== null) setHome(false);
  }, [view.sample]);
  const recent = useRecentFiles(landing || session === null || session.datasets.length === 0);
  // A link that names a rollout, call or filter keeps them for the file opened next, while none is shown.
  const showing = useRef(false);
  const onRecent = (id: string) => {
    loadedSample.current = null;
    setHome(false);
    setView((state) => (showing.current ? { ...DEFAULT_VIEW } : keptForOpenedFiles(state)));
    void loader.restore([id]);
  };
  const goHome = (event: React.MouseEvent) => {
    event.preventDefault();
    setHome(true);
    setView({ ...DEFAULT_VIEW }, { push: true });
  };

  const onFiles = useCallback(
    (files: File[]) => {
      loadedSample.current = null;
      setHome(false);
      setRestoring(false);
      setView((state) => (showing.current ? { ...DEFAULT_VIEW } : keptForOpenedFiles(state)));
      void loader.load(files.map((file) => ({ kind: "file" as const, file })));
    },
    [loader.load, setView],
  );
  const onFolder = useCallback(
    (folder: PickedFolder) => {
      loadedSample.current = null;
      setHome(false);
      setView({ ...DEFAULT_VIEW });
      void loader.loadFolder(folder.name, folder.entries);
    },
    [loader.loadFolder, setView],
  );
  const onSample = useCallback(
    (sample: Sample) => setView({ ...DEFAULT_VIEW, sample: sample.file }, { push: true }),
    [setView],
  );

  const rolloutSets = session?.datasets.filter((dataset) => dataset.kind === "rollouts") ?? [];
  // The URL names a dataset by id (files with the same name are distinct datasets); a name still works for links.
  const dataset =
    rolloutSets.find((candidate) => candidate.id === view.file) ??
    rolloutSets.find((candidate) => candidate.name === view.file) ??
    rolloutSets[0] ??
    null;
  showing.current = dataset !== null && !landing;
  // The URL names the shown file, so a link says which file to open in a tab that does not hold it.
  useEffect(() => {
    if (dataset !== null && !landing && view.name !== dataset.name) setView({ name: dataset.name });
  }, [dataset, landing, view.name, setView]);
  /** "name" alone when unique, else "name #k" (k-th loaded file of that name). */
  const chipName = fileLabels(session?.datasets ?? []);
  const inputs = session?.datasets.filter((candidate) => candidate.kind === "inputs") ?? [];
  const folder = session?.folder ?? null;
  const folderRun = folder?.runs.find((run) => run.dataset === dataset?.id) ?? null;

  // The verifying server chosen in the URL applies to the whole list; the harness to each agent's rows.
  const harnessChoice = useMemo(() => {
    const parsed = parseHarnessChoice(view.harness);
    return parsed.ok ? parsed.choice : NO_HARNESS;
  }, [view.harness]);
  useEffect(() => {
    if (!dataset || reanalyzer.pending || loader.loading) return;
    if (dataset.server_override !== view.server || dataset.harness !== view.harness) {
      void reanalyzer.reanalyze(dataset.id, view.server, harnessChoice);
    }
  }, [
    dataset,
    view.server,
    view.harness,
    harnessChoice,
    reanalyzer.pending,
    reanalyzer.reanalyze,
    loader.loading,
  ]);

  const index = useRolloutIndex(dataset);
  const lineErrors = useLineErrors(dataset);
  // One filter: the search box is its text clause, answered by the worker's byte search.
  const clauses = useMemo(() => filterClauses(view.f), [view.f]);
  const query = useDeferredValue(textsOf(clauses)[0] ?? "");
  const search = useSearch(dataset, query);
  const prioritize = usePrioritize(dataset?.id ?? null);
  const latestEntries = index.data ?? NO_ENTRIES;
  // Streamed rows and streamed search matches re-render the list in a background (interruptible) render:
  // React renders it in slices between input events instead of one long task per revision.
  const entries = useDeferredValue(latestEntries);
  const searchLines = useDeferredValue(query.trim() ? (search.data?.lines ?? null) : null);
  const { sort, desc } = view;
  const run = useRunView(dataset, view.f, view.reward);
  // The breakdown counts the run's own (recorded) zeros unless switched to a policy's recomputed ones.
  const [zeroView, setZeroView] = useState<ZeroView>("recorded");
  const runExport = useRunExport();
  const runReport = useRunReport();
  // Rollouts marked for the report, for the file they were marked in.
  const [marks, setMarks] = useState<{ dataset: string | null; lines: readonly number[] }>({
    dataset: null,
    lines: [],
  });
  const marked = marks.dataset !== null && marks.dataset === dataset?.id ? marks.lines : NO_LINES;
  const [exportError, setExportError] = useState<string | null>(null);
  // The worker's answer for this very filter (a previous filter's answer is kept on screen while it computes).
  const runLines = run.data && run.data.filter === view.f ? run.data.lines : null;
  const kept = useMemo(() => (runLines === null ? null : new Set(runLines)), [runLines]);
  const rows = useMemo(
    () =>
      selectRollouts(
        entries,
        { clauses, sort, desc },
        { search: searchLines === null ? null : { text: query, lines: new Set(searchLines) }, kept },
      ),
    [entries, clauses, sort, desc, searchLines, query, kept],
  );
  // The tiles count the rows the filter keeps, as the list, the metrics and the export do.
  const counts = useMemo(() => statusCounts(rows), [rows]);
  const agents = useMemo(
    () => [...new Set(entries.flatMap((e) => (e.agent ? [e.agent] : [])))].sort(),
    [entries],
  );
  const servers = useMemo(
    () => [...new Set(entries.flatMap((e) => (e.server ? [e.server] : [])))].sort(),
    [entries],
  );

  // Without a line in the URL the first listed rollout is open, so a loaded file shows a transcript at once.
  const firstLine = rows[0]?.line ?? null;
  const selectedLine = view.line ?? firstLine;
  const selectedEntry = entries.find((entry) => entry.line === selectedLine) ?? null;
  // A bundled sample's open rollout has a what-if of its own; a local file cannot travel in a URL.
  const compareHref =
    view.sample && selectedEntry
      ? `/compare?tab=whatif&sample=${encodeURIComponent(view.sample)}&line=${selectedEntry.line}`
      : "/compare";

  const onSort = (key: SortKey) =>
    setView((state) => ({
      sort: key,
      desc: state.sort === key ? !state.desc : key !== "line" && key !== "agent" && key !== "task",
    }));
  const selectLine = (line: number) => setView({ line, call: null }, { push: true });

  // Functional updates read the URL, so fast key repeats never act on a stale selection.
  const moveRollout = (delta: number) =>
    setView((state) => {
      if (rows.length === 0) return {};
      const current = state.line ?? firstLine;
      const at = rows.findIndex((row) => row.line === current);
      const next =
        at === -1 ? (delta > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + delta));
      const row = rows[next];
      return row ? { line: row.line, call: null } : {};
    });
  const moveCall = (delta: number) =>
    setView((state) => {
      const line = state.line ?? firstLine;
      const entry = entries.find((candidate) => candidate.line === line);
      if (!entry || entry.calls === 0) return {};
      const current = state.call === null ? -1 : Number(state.call);
      const next =
        current === -1 && delta < 0
          ? entry.calls - 1
          : Math.min(entry.calls - 1, Math.max(0, current + delta));
      return { line: entry.line, call: String(next) };
    });
  useKeyboard({
    j: () => moveRollout(1),
    k: () => moveRollout(-1),
    n: () => moveCall(1),
    p: () => moveCall(-1),
    "/": () => searchInput.current?.focus(),
    escape: () => searchInput.current?.blur(),
  });

  const searchDone =
    query.trim() !== "" &&
    search.data?.text === query.trim() &&
    !search.isPlaceholderData &&
    !search.isFetching &&
    search.data.ms != null;
  const busy = loader.loading || reanalyzer.pending;
  // The index is complete when the whole file is read and this page holds the worker's latest rows.
  const ready =
    dataset?.indexed === true &&
    !busy &&
    index.isSuccess &&
    !index.isPlaceholderData &&
    entries === latestEntries;
  const rewarded = ready && dataset !== null && dataset.rewarded === dataset.rows;
  return (
    <DropTarget onFiles={onFiles} onFolder={onFolder}>
      <div className={styles.app}>
        <header className={topbar.topbar}>
          <h1>
            <Link href="/" onClick={goHome} className={styles.homeLink} data-testid="home-link">
              Rollout Inspector
            </Link>
          </h1>
          <div className={styles.files}>
            {rolloutSets.map((candidate) => (
              <button
                type="button"
                key={candidate.id}
                className={cx(styles.fileChip, candidate.id === dataset?.id && styles.fileChipOn)}
                onClick={() => setView({ file: candidate.id, line: null, call: null })}
                data-dataset={candidate.name}
                data-dataset-id={candidate.id}
                title={`${candidate.lines} lines, ${candidate.bytes} bytes`}
              >
                {/* The file name is isolated: its bidi text never reorders the counts beside it. */}
                <bdi className="chip-name">
                  <Name value={chipName.get(candidate.id) ?? candidate.name} />
                </bdi>
                <span className="muted" data-testid="chip-counts">
                  {" "}
                  {lineCountsText({ rollouts: candidate.rows, unreadable: candidate.error_count })}
                  {candidate.paired_inputs ? ` · ${candidate.paired_rows} paired` : ""}
                </span>
              </button>
            ))}
            {inputs.map((candidate) => (
              <span
                key={candidate.id}
                className={cx(styles.fileChip, styles.fileChipInputs)}
                data-inputs={candidate.name}
              >
                <bdi className="chip-name">
                  <Name value={chipName.get(candidate.id) ?? candidate.name} />
                </bdi>{" "}
                <span className="muted">inputs · {candidate.rows} rows</span>
              </span>
            ))}
          </div>
          <div className={topbar.topbarActions}>
            {busy && <LoadProgressBar progress={loader.progress} onCancel={loader.cancel} />}
            <Link className="button" href={compareHref} data-testid="compare-link">
              Compare · what-if · repair
            </Link>
            <Link className="button" href="/live" data-testid="live-link">
              Live
            </Link>
            {session && <OpenFilesButton onFiles={onFiles} />}
            {session && <OpenFolderButton onFolder={onFolder} />}
          </div>
        </header>
        {view.sample && !samples.isPending && bundledSample(view.sample, samples.data ?? []) === null && (
          <div className="banner banner-error" role="alert" data-testid="unknown-sample">
            There is no bundled sample named “{view.sample}”.
          </div>
        )}
        {servedError && (
          <div className="banner banner-error" role="alert" data-testid="served-error">
            Could not read the served folder: {servedError}
          </div>
        )}
        {dataset?.follow && <FollowBanner follow={dataset.follow} />}
        {loader.error && (
          <div className="banner banner-error" role="alert" data-testid="load-error">
            Could not load: {loader.error}
          </div>
        )}
        {(landing || !dataset) && !busy && !view.sample && linkTarget(view) && (
          <div className="banner" role="status" data-testid="link-needs-file">
            This link shows {linkParts(view)} of{" "}
            {view.name ? <strong data-testid="link-file">{view.name}</strong> : "a file you opened"}. Files
            never leave the browser: open {view.name ? "that file" : "it"} here (or pick it from the recent
            files) and the link applies.
          </div>
        )}
        {landing ? (
          <Welcome
            samples={samples.data ?? []}
            onFiles={onFiles}
            onFolder={onFolder}
            onSample={onSample}
            recent={recent.data ?? []}
            onRecent={onRecent}
          />
        ) : !dataset ? (
          session && !busy ? (
            <>
              {folder && (
                <FolderPanel
                  folder={folder}
                  busy={busy}
                  onRole={(path, role) => void loader.setRole(path, role)}
                />
              )}
              <div className="banner">
                {folder
                  ? "No file of this folder holds rollouts: change a file's role above, or add the rollouts file."
                  : "Only materialized inputs are loaded. Add the rollouts file they belong to."}
                <OpenFilesButton onFiles={onFiles} />
              </div>
            </>
          ) : (
            !busy && (
              <Welcome
                samples={samples.data ?? []}
                onFiles={onFiles}
                onFolder={onFolder}
                onSample={onSample}
                recent={recent.data ?? []}
                onRecent={onRecent}
              />
            )
          )
        ) : (
          <main
            className={styles.workspace}
            data-ready={ready}
            data-rewarded={rewarded}
            // Only the finished search of the current text (a kept previous result has its own time).
            data-search-ms={searchDone ? search.data?.ms : undefined}
            data-search-first-ms={searchDone ? (search.data?.firstMs ?? undefined) : undefined}
          >
            <section className={styles.listPane}>
              {folder && (
                <FolderPanel
                  folder={folder}
                  busy={busy}
                  onRole={(path, role) => void loader.setRole(path, role)}
                />
              )}
              {!run.data && !runViewReady(dataset) && (
                <p className={cx("muted", styles.runPending)} data-testid="run-pending">
                  Why-zero breakdown and run metrics once every reward is in ({dataset.rewarded} of{" "}
                  {dataset.rows}).
                </p>
              )}
              {run.data && (
                <TriagePanel
                  triage={run.data.triage}
                  counts={
                    run.data.filter.trim() === ""
                      ? run.data.counts
                      : { rollouts: run.data.breakdown_rollouts, unreadable: run.data.counts.unreadable }
                  }
                  scope={breakdownScope(
                    run.data.filter,
                    run.data.breakdown_rollouts,
                    run.data.counts.rollouts,
                  )}
                  view={zeroView}
                  onView={(next) => {
                    setZeroView(next);
                    // A cause chosen in another view keeps its cause, counted in the new view.
                    const cause = activeCause(view.f);
                    if (cause !== null)
                      setView({ f: withCause(view.f, cause, next), line: null, call: null });
                  }}
                  active={activeCause(view.f)}
                  onCause={(cause) =>
                    setView({ f: withCause(view.f, cause, zeroView), line: null, call: null })
                  }
                />
              )}
              <RunFilter
                filter={view.f}
                onFilter={(f) => setView({ f })}
                error={run.data?.filter_error ?? null}
                kept={runLines === null ? null : runLines.length}
                fileName={dataset.name}
                onExport={(format) => {
                  setExportError(null);
                  void runExport(dataset, view.f, format).then(setExportError);
                }}
                exportError={exportError}
                marked={marked.length}
                onReport={() => {
                  setExportError(null);
                  void runReport(dataset, view.f, marked, zeroView).then(setExportError);
                }}
                inferred={run.data?.inferred_by_agent ?? []}
                agents={agents}
                harness={harnessChoice}
                onHarness={(choice) => setView({ harness: formatHarnessChoice(choice) })}
              />
              {folderRun && <GymMetricsPanel run={folderRun} />}
              {run.data && (
                <RunMetricsPanel
                  metrics={run.data.metrics}
                  unreadable={run.data.counts.unreadable}
                  filter={run.data.filter}
                  total={run.data.counts.rollouts}
                  onReward={(reward) => setView({ reward })}
                  onTask={(task) => setView({ f: `field:_ng_task_index=${task}`, line: null, call: null })}
                />
              )}
              <SummaryBand
                counts={counts}
                entries={rows}
                total={entries.length}
                errorLines={dataset.error_count}
                filter={view.f}
                onFilter={(f) => setView({ f, line: null, call: null })}
                pendingLabel={restoring ? "restoring (results being checked)" : "rewards pending"}
              />
              {dataset.problem ? (
                <div className="banner banner-error" role="alert" data-testid="file-problem">
                  {dataset.name}: {dataset.problem}
                </div>
              ) : (
                <LineErrors
                  errors={lineErrors.errors}
                  total={lineErrors.total}
                  fileName={dataset.name}
                  onMore={lineErrors.more}
                />
              )}
              <FilterBar
                filter={view.f}
                onFilter={(f) => setView({ f })}
                agents={agents}
                servers={servers}
                shown={rows.length}
                total={entries.length}
                searching={query.trim() !== "" && search.isFetching}
                searchRef={searchInput}
              />
              <RolloutTable
                rows={rows}
                selected={selectedLine}
                onSelect={selectLine}
                sort={view.sort}
                desc={view.desc}
                onSort={onSort}
                onVisible={prioritize}
              />
              <footer className={styles.listFooter}>
                <span>
                  <kbd>j</kbd>/<kbd>k</kbd> rollout
                </span>
                <span>
                  <kbd>n</kbd>/<kbd>p</kbd> call
                </span>
                <span>
                  <kbd>/</kbd> search
                </span>
                <span className={cx("muted", styles.listFooterFile)}>
                  {dataset.lines.toLocaleString("en-US")} lines · {(dataset.bytes / 1024 / 1024).toFixed(1)}{" "}
                  MiB
                  {dataset.paired_inputs ? ` · ${dataset.paired_rows} paired with inputs` : ""}
                </span>
              </footer>
            </section>
            <section className={styles.detailPane} data-testid="detail-pane">
              {selectedEntry ? (
                <RolloutPane
                  dataset={dataset}
                  entry={selectedEntry}
                  call={view.call === null ? null : Number(view.call)}
                  server={view.server}
                  harness={harnessChoice}
                  onView={setView}
                  marked={marked.includes(selectedEntry.line)}
                  onMark={(on) =>
                    setMarks({
                      dataset: dataset.id,
                      lines: on
                        ? [...marked, selectedEntry.line]
                        : marked.filter((line) => line !== selectedEntry.line),
                    })
                  }
                />
              ) : (
                <div className={styles.placeholder}>
                  <p>
                    Select a rollout on the left, or press <kbd>j</kbd> / <kbd>k</kbd>.
                  </p>
                  <p className="muted">
                    <kbd>n</kbd> / <kbd>p</kbd> step through its calls, <kbd>/</kbd> searches.
                  </p>
                </div>
              )}
            </section>
          </main>
        )}
      </div>
    </DropTarget>
  );
}
