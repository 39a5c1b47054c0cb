"use client";
import Link from "next/link";
import { useCallback, useMemo, useRef, useState } from "react";
import { cx } from "@/components/cx";
import { DropTarget, LoadProgressBar, OpenFilesButton, OpenFolderButton, Welcome } from "@/components/Loader";
import topbar from "@/components/topbar.module.css";
import { runViewReady, useRunExport, useRunReport, useWholeFolderView } from "@/features/run/data";
import { FilterBar } from "@/features/run/FilterBar";
import { FolderTriage } from "@/features/run/FolderTriage";
import { filterApplies, type SortKey, taskFilter } from "@/features/run/list";
import type { ExportFormat } from "@/features/run/protocol";
import { RolloutTable } from "@/features/run/RolloutTable";
import { RunFilter } from "@/features/run/RunFilter";
import { RunMetricsPanel } from "@/features/run/RunMetricsPanel";
import { marksIn, reportScope } from "@/features/run/report-scope";
import { SummaryBand } from "@/features/run/SummaryBand";
import { TriagePanel } from "@/features/run/TriagePanel";
import { comparableRuns, folderComparisons } from "@/hooks/comparable-runs";
import {
  type ProgressStore,
  samplesList,
  useLineErrors,
  useLoad,
  useLoadProgress,
  usePrioritize,
  useRecentFiles,
  useSamples,
  useSession,
} from "@/hooks/data";
import { fileLabels } from "@/hooks/file-labels";
import { bundledSample } from "@/hooks/samples";
import { changedFilesText, servedFolder, servedReadErrorText, unmarkServed } from "@/hooks/served";
import type { DatasetSummary } from "@/hooks/types";
import { sameStrings, useStable, useStableCallback } from "@/hooks/use-stable";
import { useStages } from "@/hooks/use-stages";
import { type AgentInference, formatHarnessChoice, type HarnessChoice } from "@/lib/harness";
import type { GroupStats } from "@/lib/metrics";
import { formatBytes, formatCount, type Reward } from "@/lib/run";
import type { VerifierGroup, ZeroCause } from "@/lib/triage";
import { useGymMetrics } from "./data";
import { changedOnDisk, FileChips } from "./FileChips";
import { FolderPanel, GymMetricsPanel } from "./FolderPanel";
import { FollowBanner } from "./FollowBanner";
import styles from "./Inspector.module.css";
import {
  activeCause,
  breakdownScope,
  compareLink,
  folderFileFilter,
  hasFixedByMap,
  linkParts,
  liveLink,
  recordedChoice,
  repairLink,
  sameDetailSource,
  shownDataset,
  sortChange,
  switchReward,
  withCause,
  withFixedByMap,
  withRecordedValue,
} from "./inspector-state";
import { LineErrors } from "./LineErrors";
import { RolloutPane } from "./RolloutPane";
import { useDeepLink } from "./use-deep-link";
import { useInspectorFilter } from "./use-inspector-filter";
import { useListKeyboard } from "./use-list-keyboard";
import { useMarks } from "./use-marks";
import { useReanalysis } from "./use-reanalysis";
import { useRestoreWorkspace } from "./use-restore-workspace";
import { useServedNewFiles } from "./use-served-new-files";
import { useViewState } from "./use-view-state";
import { linkTarget } from "./view-state";

const NO_LINES: readonly number[] = [];
const NO_ROWS: readonly never[] = [];
const NO_DATASETS: readonly DatasetSummary[] = [];

/**
 * The served folder read again from the server, as at first: the tab keeps it served, its roles and marks (but
 * those of its files rewritten on disk, dropped first: `readServedAgain` below).
 */
function reloadServed(): void {
  window.location.reload();
}
const NO_INFERENCES: readonly AgentInference[] = [];
/** New files of a served folder named in its banner (the rest counted). */
const NEW_FILES_NAMED = 5;
/** A followed file with no line yet (a run that just started): not an empty file's error. */
const WAITING_TEXT = "No line yet: the run's first rollout shows here as soon as it is written.";
/** A whole file read and not one line a rollout (Gym's bbq: records with a reward and no response). */
const NO_ROLLOUTS_TEXT =
  "No line of this file is a rollout: each line is listed with what it is instead (“… not a rollout”).";

/** Unreadable lines still listed under a file's problem (one cut line, a tiny CSV): each says what it is. */
const PROBLEM_LINES_LISTED = 3;

/** A file that is not a rollouts file (its problem said above the list): its list is empty for that. */
const PROBLEM_EMPTY_TEXT = "No rollout in this file: what it is instead is said above.";

/** The load's progress bar: the only part of the page a progress report re-renders. */
function LiveProgressBar({ progress, onCancel }: { progress: ProgressStore; onCancel(): void }) {
  return <LoadProgressBar progress={useLoadProgress(progress)} onCancel={onCancel} />;
}

export function Inspector() {
  const [view, setView] = useViewState();
  // Session events stay urgent (cheap: the list's work is keyed on the deferred rows below), so a revision's
  // rows are asked for at once; deferring them too put two background renders between the worker and the
  // list, and under CPU load a background render is restarted by every new event.
  const session = useSession();
  const loader = useLoad();
  const samples = useSamples();
  const searchInput = useRef<HTMLInputElement>(null);

  // A reload reopens the tab's files (kept in the origin-private file system), unless a link names a sample.
  const { restoring, servedError, lostFolder, endRestoring } = useRestoreWorkspace(
    session,
    view.sample,
    loader,
  );

  const rolloutSets = session?.datasets.filter((dataset) => dataset.kind === "rollouts") ?? [];
  const dataset = shownDataset(rolloutSets, view.file, view.name, loader.loading);
  // The inputs file paired with the shown file, by the name it was opened under (the list's sentences, the CLI command).
  const pairedInputsName =
    session?.datasets.find((candidate) => candidate.id === dataset?.paired_inputs)?.name ?? null;
  // Not for a file with a problem (empty, CSV, binary): its banner says what it is, and no line is listed.
  const noRollouts = dataset?.indexed === true && dataset.rows === 0 && dataset.problem === null;
  const waitingFirstLine = noRollouts && dataset?.lines === 0 && dataset.follow?.following === true;
  const noRolloutsText = waitingFirstLine ? WAITING_TEXT : NO_ROLLOUTS_TEXT;
  // Files opened here replace the served folder: a reload then reopens them, not the folder.
  const openedHere = useStableCallback(() => {
    endRestoring();
    unmarkServed();
  });
  const { landing, goHome, onFiles, onFolder, onSample, onRecent, setAside, applySetAside, dismissSetAside } =
    useDeepLink({
      view,
      setView,
      dataset,
      rolloutNames: rolloutSets.map((candidate) => candidate.name),
      samples,
      loader,
      onOpened: openedHere,
    });
  const recent = useRecentFiles(landing || session === null || session.datasets.length === 0);
  /** "name" alone when unique, else "name #k" (k-th loaded file of that name). */
  const chipName = fileLabels(session?.datasets ?? []);
  const inputs = session?.datasets.filter((candidate) => candidate.kind === "inputs") ?? [];
  const folder = session?.folder ?? null;
  const folderRun = folder?.runs.find((run) => run.dataset === dataset?.id) ?? null;
  // The opened folder when the open file is one of its rollouts files (its report, its CLI line).
  const fileFolder = folderRun === null ? null : folder;
  const gymMetrics = useGymMetrics(dataset, (folderRun?.metrics.length ?? 0) > 0);
  // The folder's rollouts files, each opened: with two or more, the whole folder's answer sums them.
  const folderFiles = rolloutSets.filter(
    (set) => folder?.runs.some((run) => run.dataset === set.id) === true,
  );
  const wholeFolder = useWholeFolderView(fileFolder === null ? [] : folderFiles).data ?? null;
  // Its runs of one experiment (an HTTP run beside an MCP run of the same tasks), offered side by side.
  // The same list while session events bring no new pair: the memoized folder panel does not render again.
  const comparisons = useStable(
    folderComparisons(folderFiles).map(({ a, b }) => ({
      a: a.folder_path ?? a.name,
      b: b.folder_path ?? b.name,
      href: compareLink(null, null, a.ref, [a.ref, b.ref]),
    })),
    (x, y) =>
      x.length === y.length &&
      x.every((pair, at) => pair.href === y[at]?.href && pair.a === y[at]?.a && pair.b === y[at]?.b),
  );
  // Rollouts marked for the report, each with its file: a folder's report shows the marks of all its files.
  const { marks, mark, forget } = useMarks(session?.datasets ?? NO_DATASETS, session?.folder?.path ?? null);
  const served = servedFolder();
  // Read again from the server; the marks of its files rewritten on disk first dropped (their lines changed).
  const readServedAgain = useStableCallback(() => {
    forget(rolloutSets.filter(changedOnDisk).map((set) => set.id));
    reloadServed();
  });
  const servedChanges = useServedNewFiles(folder, served);
  const newFiles = servedChanges.added;
  const changedText = changedFilesText(servedChanges.changed);
  // A served folder is read again from the server, as at first (the tab keeps it served); a picked one is
  // picked again.
  const readAgain = served ? { onReadAgain: readServedAgain } : {};
  // The folder's files changed on disk since they were read (the sums keep their rows as first read).
  const folderInputs = inputs.filter((set) => set.folder_path !== null);
  const staleFiles = useStable(
    [...folderFiles, ...folderInputs].flatMap((file) =>
      changedOnDisk(file)
        ? [
            `${file.name}${file.kind === "inputs" ? " (task rows)" : ""}${file.follow?.gone === true ? " (gone)" : ""}`,
          ]
        : [],
    ),
    sameStrings,
  );

  const reanalyzer = useReanalysis({
    dataset,
    server: view.server,
    harness: view.harness,
    loading: loader.loading,
  });
  const { harnessChoice } = reanalyzer;
  const busy = loader.loading || reanalyzer.pending;

  const lineErrors = useLineErrors(dataset);
  const prioritize = usePrioritize(dataset?.id ?? null);
  const list = useInspectorFilter(dataset, view, busy);
  const { entries, rows, counts, agents, servers, query, search, searchDone, runView, runLines } = list;
  const { firstLine, selectedLine, selectedEntry, ready, rewarded } = list;
  const runExport = useRunExport();
  const runReport = useRunReport();
  const marked = useMemo(
    () => (dataset ? marks.filter((m) => m.dataset === dataset.id).map((m) => m.line) : NO_LINES),
    [marks, dataset],
  );
  const reportMarks = dataset ? marksIn(reportScope(folder, dataset.id), marks).length : 0;
  const [exportError, setExportError] = useState<string | null>(null);

  // The open rollout's what-if: a bundled sample by its name, a file opened in this tab by its dataset id
  // (/compare offers this tab's files by id; the link is followed in the page, so the store is the same), a
  // served folder's file by its path (DatasetSummary.ref: the link outlives a reload).
  const datasetRef = dataset?.ref ?? null;
  const compareHref = compareLink(
    view.sample ?? datasetRef,
    selectedEntry?.line ?? null,
    view.sample === null ? datasetRef : null,
    view.sample === null ? comparableRuns(dataset, rolloutSets) : [],
  );

  // Handlers of stable identity and the detail pane's file kept while only its rows or rewards change: the
  // memoized panes below render again for what concerns them, not for every session event.
  const onSort = useStableCallback((key: SortKey) => setView((state) => sortChange(state, key)));
  const selectLine = useStableCallback((line: number) => setView({ line, call: null }, { push: true }));
  const setFilter = useStableCallback((f: string) => setView({ f }));
  // The URL names the file as links do (DatasetSummary.ref): a served folder's file by its path, so the
  // address bar opened in another tab reads the served folder and shows the same file.
  const refOf = (id: string) => rolloutSets.find((d) => d.id === id)?.ref ?? id;
  const chooseFile = useStableCallback((id: string) => setView({ file: refOf(id), line: null, call: null }));
  // A file of the folder opened from the whole folder's table: on its rollouts of the chosen cause (the
  // filter the folder's count is of), else without a cause clause (one chosen before does not linger).
  // A file chosen in the whole folder's table: its own panels, below the table, are brought into view.
  const fileSection = useRef<HTMLDivElement>(null);
  const chooseFolderFile = useStableCallback((id: string, cause: ZeroCause | null) => {
    setView({
      file: refOf(id),
      f: folderFileFilter(view.f, cause, view.reward),
      line: null,
      call: null,
    });
    requestAnimationFrame(() => fileSection.current?.scrollIntoView({ block: "start" }));
  });
  const setFilterFromTop = useStableCallback((f: string) => setView({ f, line: null, call: null }));
  const onReward = useStableCallback((next: Reward) => setView((state) => switchReward(state, next)));
  const onCause = useStableCallback((cause: ZeroCause | null) =>
    setView({ f: withCause(view.f, cause, view.reward), line: null, call: null }),
  );
  const onRecordedValue = useStableCallback((key: string, value: string, group: VerifierGroup | undefined) =>
    setView({ f: withRecordedValue(view.f, key, value, group), line: null, call: null }),
  );
  const recordedFilter = useMemo(() => recordedChoice(view.f), [view.f]);
  const onFixedByMap = useStableCallback((on: boolean) =>
    setView({ f: withFixedByMap(view.f, on, view.reward), line: null, call: null }),
  );
  // The shown file's repair: a sample by its name, a file of this tab as the what-if link names it.
  const repairFile = view.sample ?? datasetRef;
  const repairHrefOf = useCallback(
    (harness: string) => (repairFile === null ? null : repairLink(repairFile, harness)),
    [repairFile],
  );
  const onExport = useStableCallback((format: ExportFormat) => {
    if (!dataset) return;
    setExportError(null);
    // A folder's file exports the folder's rows, named after it, as its report.
    void runExport(dataset, view.f, format, fileFolder?.name ?? null).then(setExportError);
  });
  const onReport = useStableCallback(() => {
    if (!dataset) return;
    setExportError(null);
    // A folder's file gets the folder's report: named after the folder (Gym's files share their names).
    void runReport(dataset, view.f, marks, view.reward, fileFolder?.name ?? null).then(setExportError);
  });
  const onHarness = useStableCallback((choice: HarnessChoice) =>
    setView({ harness: formatHarnessChoice(choice) }),
  );
  const onTask = useStableCallback((task: GroupStats) =>
    setView({ f: taskFilter(task), line: null, call: null }),
  );
  const onMark = useStableCallback((on: boolean) => {
    if (!dataset || !selectedEntry) return;
    mark(dataset.id, selectedEntry.line, on);
  });
  const detailSource = useStable(dataset, sameDetailSource);
  // The workspace's first mount in four tasks: its frame (in the render of the session event that brings the
  // file, which cannot be interrupted), then the list, the panels around it and the open rollout, each in a
  // background render of its own (bench/main-thread.md).
  const stage = useStages(!landing && dataset ? "workspace" : null, 4);
  const triageCounts = useMemo(
    () =>
      !runView
        ? null
        : !filterApplies(runView.filter)
          ? runView.counts
          : { rollouts: runView.breakdown_rollouts, unreadable: runView.counts.unreadable },
    [runView],
  );
  // Not on the landing page: j/k there would open a rollout of a file it does not show.
  useListKeyboard({
    rows: landing ? NO_ROWS : rows,
    entries: landing ? NO_ROWS : entries,
    firstLine,
    setView,
    searchInput,
  });

  return (
    <DropTarget onFiles={onFiles} onFolder={onFolder}>
      <div className={styles.app}>
        <header className={topbar.topbar}>
          <h1>
            <Link href="/" onClick={goHome} className={styles.homeLink} data-testid="home-link">
              Rollout Inspector
            </Link>
          </h1>
          <FileChips
            rollouts={rolloutSets}
            inputs={inputs}
            shown={dataset?.id ?? null}
            names={chipName}
            onChoose={chooseFile}
          />
          <div className={topbar.topbarActions}>
            {busy && <LiveProgressBar progress={loader.progress} onCancel={loader.cancel} />}
            <Link className="button" href={compareHref} data-testid="compare-link">
              Compare · what-if · repair
            </Link>
            <Link
              className="button"
              href={liveLink(dataset?.ref ?? null, selectedEntry?.line ?? null)}
              data-testid="live-link"
            >
              Live
            </Link>
            {session && <OpenFilesButton onFiles={onFiles} />}
            {session && <OpenFolderButton onFolder={onFolder} />}
          </div>
        </header>
        {view.sample && samples.error && (
          <div className="banner banner-error" role="alert" data-testid="unknown-sample">
            This link opens the bundled sample “{view.sample}”, but the bundled samples could not be listed:{" "}
            {samples.error.message}.
          </div>
        )}
        {view.sample && samples.data && bundledSample(view.sample, samples.data) === null && (
          <div className="banner banner-error" role="alert" data-testid="unknown-sample">
            There is no bundled sample named “{view.sample}”.
          </div>
        )}
        {servedError && (
          <div className="banner banner-error" role="alert" data-testid="served-error">
            {servedReadErrorText(servedError)}
          </div>
        )}
        {newFiles.length > 0 && (
          <div className="banner" data-testid="served-new-files">
            <span>
              {newFiles.length === 1 ? "A file" : `${newFiles.length} files`} appeared in the served folder
              since it was read: {newFiles.slice(0, NEW_FILES_NAMED).join(", ")}
              {newFiles.length > NEW_FILES_NAMED ? ` and ${newFiles.length - NEW_FILES_NAMED} more` : ""}.
              Read the folder again to add {newFiles.length === 1 ? "it" : "them"}.
            </span>
            <button type="button" className="link-button" onClick={readServedAgain}>
              Read the folder again
            </button>
          </div>
        )}
        {changedText !== null && (
          <div className="banner" data-testid="served-changed-files">
            <span>{changedText}</span>
            <button type="button" className="link-button" onClick={readServedAgain}>
              Read the folder again
            </button>
          </div>
        )}
        {folderInputs.map((changed) =>
          changed.follow?.problem == null ? null : (
            // A task-rows file changed on disk: the rollouts are paired with its rows as first read.
            <FollowBanner key={changed.id} follow={changed.follow} name={changed.name} {...readAgain} />
          ),
        )}
        {dataset?.follow && (
          <FollowBanner
            follow={dataset.follow}
            name={dataset.name}
            others={
              rolloutSets.filter((set) => set.id !== dataset.id && set.follow?.following === true).length
            }
            {...readAgain}
          />
        )}
        {loader.error && (
          <div className="banner banner-error" role="alert" data-testid="load-error">
            Could not load: {loader.error}
          </div>
        )}
        {lostFolder && !dataset && !busy && (
          <div className="banner" role="status" data-testid="folder-not-reopened">
            <span>
              The folder <strong>{lostFolder}</strong> was open before the reload. A page cannot open a folder
              by itself (the browser hands it the files only when you pick them): open it again.
            </span>
            <OpenFolderButton onFolder={onFolder} />
          </div>
        )}
        {(landing || !dataset) && !busy && !view.sample && !lostFolder && linkTarget(view) && (
          <div className="banner" role="status" data-testid="link-needs-file">
            <span>
              This link shows {linkParts(view)} of{" "}
              {view.name ? <strong data-testid="link-file">{view.name}</strong> : "a file you opened"}. Files
              never leave the browser: open{" "}
              {view.name === null
                ? "it"
                : view.name.includes("/")
                  ? "the folder that holds it (a file opened alone is offered the link, not given it)"
                  : "that file, or a folder that holds it,"}{" "}
              here
              {(recent.data ?? []).length > 0 ? " (or pick it from the recent files)" : ""} and the link
              applies.
            </span>
          </div>
        )}
        {setAside !== null && dataset && !landing && !busy && (
          <div className="banner" role="status" data-testid="link-set-aside">
            {/* One run of text: the banner lays its children out in a row. */}
            <span>
              This link shows {linkParts(setAside)} of{" "}
              <strong data-testid="set-aside-file">{setAside.name}</strong>, not of the file shown,{" "}
              <strong>{dataset.name}</strong> (Gym names many files alike: another run&apos;s may have the
              same name). It is not applied.
            </span>{" "}
            <button type="button" className="button-small" onClick={applySetAside} data-testid="link-apply">
              Apply it to this file
            </button>{" "}
            <button type="button" className="button-small" onClick={dismissSetAside}>
              Dismiss
            </button>
          </div>
        )}
        {landing ? (
          <Welcome
            samples={samplesList(samples)}
            onFiles={onFiles}
            onFolder={onFolder}
            onSample={onSample}
            recent={recent.data ?? []}
            onRecent={onRecent}
          />
        ) : !dataset ? (
          // Only inputs, or a folder without rollouts (its panel says which file could be); an empty
          // workspace (nothing a reload could reopen) is the landing page.
          session && (session.datasets.length > 0 || folder !== null) && !busy ? (
            <>
              {folder && (
                <FolderPanel
                  key={folder.name}
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
                samples={samplesList(samples)}
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
            <section className={styles.listPane} data-testid="list-pane">
              {stage >= 3 && (
                <>
                  {folder && (
                    <FolderPanel
                      key={folder.name}
                      folder={folder}
                      busy={busy}
                      onRole={(path, role) => void loader.setRole(path, role)}
                    />
                  )}
                  {wholeFolder && (
                    <FolderTriage
                      view={wholeFolder}
                      reward={view.reward}
                      shown={dataset?.id ?? null}
                      onFile={chooseFolderFile}
                      comparisons={comparisons}
                      stale={staleFiles}
                      {...readAgain}
                    />
                  )}
                  <div ref={fileSection} data-testid="file-section" />
                  {dataset.problem && (
                    // Above the run's panels: the file holds no rollout, and they have nothing to say.
                    <div className="banner banner-error" role="alert" data-testid="file-problem">
                      {dataset.name}: {dataset.problem}
                    </div>
                  )}
                  {!runView && !runViewReady(dataset) && (
                    <p className={cx("muted", styles.runPending)} data-testid="run-pending">
                      Why-zero breakdown and run metrics once every reward is in ({dataset.rewarded} of{" "}
                      {dataset.rows}).
                    </p>
                  )}
                  {runView && triageCounts && (
                    <TriagePanel
                      triage={runView.triage}
                      counts={triageCounts}
                      unverified={runView.unverified}
                      scope={breakdownScope(
                        runView.filter,
                        runView.breakdown_rollouts,
                        runView.counts.rollouts,
                      )}
                      reward={view.reward}
                      // One setting (?reward=): the zeros of a chip, tile or cause chosen before follow it.
                      onReward={onReward}
                      active={activeCause(view.f)}
                      onCause={onCause}
                      recorded={runView.recorded_fields}
                      recordedChoice={recordedFilter}
                      onRecordedValue={onRecordedValue}
                      fixedByMapActive={hasFixedByMap(view.f)}
                      onFixedByMap={onFixedByMap}
                      repairHref={repairHrefOf}
                    />
                  )}
                  <RunFilter
                    filter={view.f}
                    onFilter={setFilter}
                    error={runView?.filter_error ?? null}
                    kept={runLines === null ? null : runLines.length}
                    fileName={dataset.name}
                    inputsName={pairedInputsName}
                    server={dataset.server_override}
                    folder={
                      fileFolder === null
                        ? null
                        : {
                            name: fileFolder.name,
                            path: fileFolder.path,
                            picked: fileFolder.picked,
                            // The files the export reads (features/run/report-scope.ts): a file not read is not in it.
                            runs: fileFolder.runs.filter((run) => run.dataset !== null).length,
                            roles: fileFolder.files
                              .filter((file) => file.chosen)
                              .map((file) => ({ path: file.path, role: file.role })),
                          }
                    }
                    reward={view.reward}
                    onExport={onExport}
                    exportError={exportError}
                    marked={reportMarks}
                    onReport={onReport}
                    inferred={runView?.inferred_by_agent ?? NO_INFERENCES}
                    agents={agents}
                    harness={harnessChoice}
                    onHarness={onHarness}
                  />
                  {folderRun && <GymMetricsPanel run={folderRun} views={gymMetrics} />}
                  {runView && (
                    <RunMetricsPanel
                      metrics={runView.metrics}
                      unreadable={runView.counts.unreadable}
                      filter={runView.filter}
                      total={runView.counts.rollouts}
                      tasksShown={runView.by_task_shown}
                      onTask={onTask}
                    />
                  )}
                </>
              )}
              {stage >= 2 && (
                <SummaryBand
                  counts={counts}
                  entries={rows}
                  total={entries.length}
                  errorLines={dataset.error_count}
                  filter={view.f}
                  onFilter={setFilterFromTop}
                  reward={view.reward}
                  pendingLabel={restoring ? "restoring (results being checked)" : "rewards pending"}
                />
              )}
              {/* A file that is something else (a CSV, a binary) is said in one sentence, not line by line,
                  unless its lines are few: one cut line's diagnosis is its line's (lib/filekind). */}
              {stage >= 3 && (!dataset.problem || dataset.error_count <= PROBLEM_LINES_LISTED) && (
                <LineErrors
                  errors={lineErrors.errors}
                  total={lineErrors.total}
                  fileName={dataset.name}
                  onMore={lineErrors.more}
                />
              )}
              {stage >= 2 && (
                <>
                  <FilterBar
                    filter={view.f}
                    onFilter={setFilter}
                    reward={view.reward}
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
                    emptyText={
                      noRollouts
                        ? noRolloutsText
                        : dataset.indexed && dataset.rows === 0
                          ? // The file's problem is said above the list; no filter is to blame.
                            PROBLEM_EMPTY_TEXT
                          : undefined
                    }
                    inputsOpen={dataset.paired_inputs !== null}
                    // The label a task row's file has in sentences (a folder's: its path), by the paired dataset.
                    inputsName={pairedInputsName}
                  />
                </>
              )}
              {stage >= 3 && (
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
                    {formatCount(dataset.lines)} lines · {formatBytes(dataset.bytes)}
                    {dataset.paired_inputs ? ` · ${dataset.paired_rows} paired with inputs` : ""}
                  </span>
                </footer>
              )}
            </section>
            <section className={styles.detailPane} data-testid="detail-pane">
              {selectedEntry ? (
                stage >= 4 && (
                  <RolloutPane
                    dataset={detailSource ?? dataset}
                    entry={selectedEntry}
                    call={view.call === null ? null : Number(view.call)}
                    server={view.server}
                    harness={harnessChoice}
                    onView={setView}
                    marked={marked.includes(selectedEntry.line)}
                    onMark={onMark}
                    unlisted={!rows.some((row) => row.line === selectedEntry.line)}
                  />
                )
              ) : (
                <div className={styles.placeholder}>
                  {noRollouts ? (
                    <p>{noRolloutsText}</p>
                  ) : (
                    <p>
                      Select a rollout on the left, or press <kbd>j</kbd> / <kbd>k</kbd>.
                    </p>
                  )}
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
