"use client";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { DropTarget } from "@/components/Loader";
import { SubPageBrand } from "@/components/SubPageBrand";
import shell from "@/components/subpage.module.css";
import topbar from "@/components/topbar.module.css";
import { type useSamples, useSession } from "@/hooks/data";
import { servedReadErrorText } from "@/hooks/served";
import { useServedFolder } from "@/hooks/use-served-folder";
import { repeatsText } from "@/lib/compare";
import { HARNESS_LABELS, HARNESSES, isHarnessId } from "@/lib/harness";
import { type FileChoice, FileSelect, type InputsPick, styles } from "./common";
import {
  type InputsFile,
  useCompareFile,
  useCompareRuns,
  useDownloadCompareCsv,
  useFileChanged,
  usePairDetail,
  useRolloutList,
  useWhatIf,
} from "./data";
import { type Opened, sidePatch } from "./page-state";
import { RepairResult, ServerEditor } from "./RepairPanel";
import { CompareSummaryBand, PairTable, PairToolbar, selectPairs, TaskTable } from "./RunsView";
import {
  DEFAULT_A,
  DEFAULT_B,
  folderPair,
  inspectorHref,
  NO_INPUTS,
  namesServedFiles,
  repairFileOf,
  rewardsIn,
  whatIfFileOf,
} from "./state";
import type { CompareTab } from "./types";
import { useCompareState } from "./url";
import { useComparePage } from "./use-compare-page";
import { useRepairForm } from "./use-repair-form";
import { RolloutSelect, WhatIfTable } from "./WhatIfTable";

const TAB_LABELS: Record<CompareTab, string> = {
  runs: "Compare runs",
  whatif: "Harness what-if",
  repair: "Repair",
};

export function ComparePage() {
  const { state, setState, samples, opener, choices, inputChoices, openFiles, inputsFor, onDrop } =
    useComparePage();

  // A link naming the served folder's files by path opened afresh, or the runs' tab typed (no run named) in a
  // tab that shows the served folder: its files are there once the folder is read.
  const served = useServedFolder(
    namesServedFiles(state),
    state.tab === "runs" && state.a === DEFAULT_A && state.b === DEFAULT_B,
  );
  // Read for the tab: its runs are compared, as the inspector's link pairs them, chosen once.
  const session = useSession();
  const [decided, setDecided] = useState(!served.forTab);
  const [choice, setChoice] = useState<{ a: string; b: string } | null>(null);
  const pair =
    !decided && !served.reading && served.error === null ? folderPair(session?.datasets ?? []) : null;
  useEffect(() => {
    if (decided || served.reading || pair === "pending") return;
    // A folder without a run, or one that could not be read, keeps the bundled pair.
    setDecided(true);
    if (pair !== null) {
      setChoice(pair);
      setState(pair);
    }
  }, [decided, pair, served.reading, setState]);
  // The URL has the chosen runs (it follows the History API a render later): nothing more to wait for.
  const chosenShown = choice !== null && state.a === choice.a && state.b === choice.b;
  useEffect(() => {
    if (chosenShown) setChoice(null);
  }, [chosenShown]);
  // A list that could not be fetched offers no sample; the files opened here still compare. No file is
  // asked for while the served folder is read, nor before its runs are chosen and in the URL.
  const waiting = served.reading || !decided || (choice !== null && !chosenShown);
  const pendingRuns = pair === "pending" ? rewardsIn(session?.datasets ?? []) : null;
  const samplesReady = waiting ? undefined : (samples.data ?? (samples.isError ? [] : undefined));
  const tabProps: TabProps = { choices, inputChoices, samplesReady, openFiles, inputsFor };
  return (
    <DropTarget onFiles={(files) => void onDrop(files)}>
      <div className={shell.page}>
        <header className={topbar.topbar}>
          <SubPageBrand name="compare, what-if, repair" />
          <nav className={styles.tabs} aria-label="Compare views">
            {(Object.keys(TAB_LABELS) as CompareTab[]).map((tab) => (
              <button
                key={tab}
                type="button"
                role="tab"
                aria-selected={state.tab === tab}
                className={`${styles.tab}${state.tab === tab ? ` ${styles.tabOn}` : ""}`}
                data-tab={tab}
                onClick={() => setState({ tab }, { push: true })}
              >
                {TAB_LABELS[tab]}
              </button>
            ))}
          </nav>
          <div className={topbar.topbarActions}>
            <Link
              className={`button-small ${styles.navLink}`}
              href={inspectorHref(state, session?.datasets ?? [])}
            >
              ← Inspector
            </Link>
          </div>
        </header>
        {samples.error && (
          <div className="banner banner-error" role="alert" data-testid="samples-error">
            The bundled samples could not be listed: {samples.error.message}. Open or drop your own files.
          </div>
        )}
        {served.error && (
          <div className="banner banner-error" role="alert">
            {servedReadErrorText(served.error)}
          </div>
        )}
        {pendingRuns !== null && (
          <p className="muted" role="status" data-testid="served-choosing">
            The served folder&apos;s runs are compared once every reward is in ({pendingRuns.done} of{" "}
            {pendingRuns.files} files): which two are runs of the same tasks is known then.
          </p>
        )}
        {opener.error && (
          <div className="banner banner-error" role="alert">
            Could not open: {opener.error}
          </div>
        )}
        <main className={shell.body} data-tab-panel={state.tab}>
          {state.tab === "runs" && <RunsTab {...tabProps} />}
          {state.tab === "whatif" && <WhatIfTab {...tabProps} />}
          {state.tab === "repair" && (
            // Keyed by file: another file starts from its own default servers and no stale result.
            <RepairTab key={repairFileOf(state)} {...tabProps} />
          )}
        </main>
      </div>
    </DropTarget>
  );
}

interface TabProps {
  choices: FileChoice[];
  inputChoices: FileChoice[];
  samplesReady: ReturnType<typeof useSamples>["data"];
  openFiles(files: readonly File[]): Promise<Opened>;
  inputsFor(file: string, choice: string | null): string | null;
}

/** A run's inputs file as the hooks take it: undefined while it loads, null when there is none. */
function useInputsFile(name: string | null, samples: TabProps["samplesReady"]) {
  const query = useCompareFile(name, samples);
  const data: InputsFile = name === null ? null : query.data;
  return { query, data };
}

function inputsPick(
  name: string | null,
  file: ReturnType<typeof useInputsFile>,
  choices: readonly FileChoice[],
  paired: InputsPick["paired"],
  onChange?: InputsPick["onChange"],
): InputsPick {
  return {
    value: name,
    choices,
    summary: file.query.data,
    loading: file.query.isFetching,
    error: file.query.error?.message ?? null,
    paired,
    ...(onChange ? { onChange } : {}),
  };
}

/** The inputs a single-file tab uses: the runs tab's choice when the file is one of its runs. */
function singleFileInputs(file: string, props: TabProps, state: ReturnType<typeof useCompareState>[0]) {
  if (file === state.b) return props.inputsFor(file, state.bi);
  if (file === state.a) return props.inputsFor(file, state.ai);
  return props.inputsFor(file, null);
}

function RunsTab(props: TabProps) {
  const { choices, inputChoices, samplesReady, openFiles, inputsFor } = props;
  const [state, setState] = useCompareState();
  const fileA = useCompareFile(state.a, samplesReady);
  const fileB = useCompareFile(state.b, samplesReady);
  const changedA = useFileChanged(state.a);
  const changedB = useFileChanged(state.b);
  const aiName = inputsFor(state.a, state.ai);
  const biName = inputsFor(state.b, state.bi);
  const inputsA = useInputsFile(aiName, samplesReady);
  const inputsB = useInputsFile(biName, samplesReady);
  const files = { a: fileA.data, b: fileB.data, ai: inputsA.data, bi: inputsB.data };
  const runs = useCompareRuns(files, state.policy);
  const detail = usePairDetail(files, state.policy, state.pair);
  const csv = useDownloadCompareCsv(files, state.policy);
  /** Picked for one side: its rollouts file (automatic inputs unless one came with it) and/or its inputs. */
  const pickFor = (side: "a" | "b") => async (picked: File[]) => {
    const patch = sidePatch(side, await openFiles(picked));
    if (patch !== null) setState(patch);
  };
  // Only bundled samples can be opened in the inspector by link; a local file would need opening again.
  const bundled = useMemo(() => new Set((samplesReady ?? []).map((s) => s.file)), [samplesReady]);
  const shown = useMemo(
    () => (runs.data ? selectPairs(runs.data.pairs, state.verdicts, state.sort).length : 0),
    [runs.data, state.verdicts, state.sort],
  );
  return (
    <>
      <p className={styles.intro}>
        Two runs of the same tasks (HTTP vs MCP, or two harnesses), paired by{" "}
        <code>(_ng_task_index, _ng_rollout_index)</code>, else by equal task input. Each pair's tool calls are
        reduced to canonical actions (server, tool, arguments) and aligned; rewards are recomputed here under
        the chosen policy. Click a pair to see its actions side by side.
      </p>
      <div className={styles.pickers}>
        <FileSelect
          label="A · reference run"
          value={state.a}
          choices={choices}
          summary={fileA.data}
          loading={fileA.isFetching}
          error={fileA.error?.message ?? null}
          testId="compare-a"
          changed={changedA}
          onChange={(a) => setState({ a, ai: null, pair: null })}
          onFiles={(picked) => void pickFor("a")(picked)}
          inputs={inputsPick(aiName, inputsA, inputChoices, runs.data?.inputs_a, (ai) =>
            setState({ ai: ai ?? NO_INPUTS, pair: null }),
          )}
        />
        <span className={styles.vs}>vs</span>
        <FileSelect
          label="B · run under test"
          value={state.b}
          choices={choices}
          summary={fileB.data}
          loading={fileB.isFetching}
          error={fileB.error?.message ?? null}
          testId="compare-b"
          changed={changedB}
          onChange={(b) => setState({ b, bi: null, pair: null })}
          onFiles={(picked) => void pickFor("b")(picked)}
          inputs={inputsPick(biName, inputsB, inputChoices, runs.data?.inputs_b, (bi) =>
            setState({ bi: bi ?? NO_INPUTS, pair: null }),
          )}
        />
        <div className={styles.picker}>
          <span className={styles.pickerLabel}>Policy</span>
          <div className={styles.pickerRow}>
            <select
              value={state.policy}
              onChange={(e) =>
                setState({ policy: e.target.value === "legacy" ? "legacy" : "contract", pair: null })
              }
              data-testid="compare-policy"
              aria-label="Policy"
            >
              <option value="contract">contract (follow provenance)</option>
              <option value="legacy">legacy (Gym before provenance)</option>
            </select>
          </div>
          <span className={styles.fileMeta}>how each side's rewards are recomputed</span>
        </div>
      </div>
      {runs.error && (
        <div className="banner banner-error" role="alert">
          Could not compare: {runs.error.message}
        </div>
      )}
      {runs.isFetching && !runs.data && <div className="muted">comparing…</div>}
      {runs.data && runs.data.input_conflicts > 0 && (
        <div className="banner" role="status" data-testid="input-conflicts">
          {runs.data.input_conflicts} task keys have different input rows in A's and B's inputs files: they
          are different tasks under one key, and A's rows were used for both runs.
        </div>
      )}
      {runs.data && state.a === state.b && aiName === biName && (
        <div className="banner" role="status" data-testid="same-run">
          {runs.data.summary.pairs > 0
            ? "A and B are the same file: each rollout is compared with itself."
            : "A and B are the same file, and its rollouts carry neither Gym's task indices nor task inputs to pair by."}{" "}
          Choose another run for B.
        </div>
      )}
      {runs.data && runs.data.summary.tasks_differ > 0 && (
        <div className="banner banner-error" role="alert" data-testid="tasks-differ-banner">
          {runs.data.summary.tasks_differ} of {runs.data.summary.pairs} pairs share Gym's (_ng_task_index,
          _ng_rollout_index) but not their task input: A and B look like runs of different tasks, and those
          pairs compare two tasks, not two runs of one.
        </div>
      )}
      {runs.data && runs.data.summary.among_repeats > 0 && !(state.a === state.b && aiName === biName) && (
        <div className="banner" role="status" data-testid="repeats-banner">
          {repeatsText(runs.data.summary.among_repeats, runs.data.summary.pairs, "A", "B")}.
        </div>
      )}
      {runs.data && (
        <section className={styles.section} data-testid="compare-result" data-ready={!runs.isFetching}>
          <CompareSummaryBand view={runs.data} />
          {runs.data.tasks.summary.repeated > 0 && (
            <TaskTable tasks={runs.data.tasks} a={runs.data.a} b={runs.data.b} />
          )}
          <PairToolbar
            view={runs.data}
            verdicts={state.verdicts}
            sort={state.sort}
            shown={shown}
            onToggle={(slug) =>
              setState((s) => ({
                verdicts: s.verdicts.includes(slug)
                  ? s.verdicts.filter((v) => v !== slug)
                  : [...s.verdicts, slug],
              }))
            }
            onSort={(sort) => setState({ sort })}
            csv={{ ...csv, ready: !runs.isFetching }}
          />
          <PairTable
            view={runs.data}
            verdicts={state.verdicts}
            sort={state.sort}
            open={state.pair}
            detail={detail.data ?? undefined}
            detailLoading={detail.isFetching}
            onOpen={(pair) => setState({ pair })}
            inspectorHref={(file, line) =>
              bundled.has(file) ? `/?sample=${encodeURIComponent(file)}&line=${line}` : null
            }
            // The pair table offers B's rollouts: B's FileRef (not its name, which two files may share).
            onWhatIf={(_name, line) => setState({ tab: "whatif", sample: state.b, line }, { push: true })}
          />
          {(runs.data.unpaired_a.length > 0 || runs.data.unpaired_b.length > 0) && (
            <p className={styles.note}>
              Unpaired: A lines {runs.data.unpaired_a.join(", ") || "none"}; B lines{" "}
              {runs.data.unpaired_b.join(", ") || "none"}.
            </p>
          )}
        </section>
      )}
    </>
  );
}

function WhatIfTab(props: TabProps) {
  const { choices, samplesReady, openFiles } = props;
  const [state, setState] = useCompareState();
  const name = whatIfFileOf(state);
  const file = useCompareFile(name, samplesReady);
  const inputsName = singleFileInputs(name, props, state);
  const inputs = useInputsFile(inputsName, samplesReady);
  const list = useRolloutList(file.data);
  const firstLine = list.data?.[0]?.line ?? null;
  const line = state.line ?? firstLine;
  const whatIf = useWhatIf(file.data, inputs.data, line);
  return (
    <>
      <p className={styles.intro}>
        One rollout, re-emitted under every harness's alias: once with a provenance map from that harness's
        exact alias map and once without, each verified under the contract and set beside the bare-HTTP
        reward. With provenance every variant should equal HTTP; this is Gym's acceptance test for any
        rollout.
      </p>
      <div className={styles.pickers}>
        <FileSelect
          label="File"
          value={name}
          choices={choices}
          summary={file.data}
          loading={file.isFetching}
          error={file.error?.message ?? null}
          testId="whatif-file"
          onChange={(sample) => setState({ sample, line: null })}
          onFiles={(picked) =>
            void openFiles(picked).then(({ rollouts: [r] }) => {
              if (r !== undefined) setState({ sample: r, line: null });
            })
          }
          inputs={inputsPick(inputsName, inputs, [], undefined)}
        />
        <RolloutSelect entries={list.data ?? []} line={line} onLine={(l) => setState({ line: l })} />
      </div>
      {whatIf.error && (
        <div className="banner banner-error" role="alert">
          {whatIf.error.message}
        </div>
      )}
      {whatIf.data === null && (
        <div className="banner">
          Line {line} is not a rollout of {name}.
        </div>
      )}
      {whatIf.data && (
        <section className={styles.section} data-testid="whatif-result" data-line={whatIf.data.line}>
          <WhatIfTable view={whatIf.data} />
        </section>
      )}
    </>
  );
}

function RepairTab(props: TabProps) {
  const { choices, samplesReady, openFiles } = props;
  const [state, setState] = useCompareState();
  const repairFile = repairFileOf(state);
  const file = useCompareFile(repairFile, samplesReady);
  const inputsName = singleFileInputs(repairFile, props, state);
  const inputs = useInputsFile(inputsName, samplesReady);
  const { servers, setDrafts, stale, canRun, run, repair, download } = useRepairForm(
    file.data,
    inputs.data,
    state.harness,
  );
  return (
    <>
      <p className={styles.intro}>
        Derive <code>mcp_tool_call_provenance</code> for a historical run that recorded none, from the exact
        alias map of the harness that produced it and the MCP servers it had. A name that no identity or more
        than one identity produces stays out, with its reason. The repaired file is written losslessly: only
        repaired lines change, and only by the derived map and its label.
      </p>
      <div className={styles.form}>
        <div className={styles.pickers}>
          <FileSelect
            label="File"
            value={repairFile}
            choices={choices}
            summary={file.data}
            loading={file.isFetching}
            error={file.error?.message ?? null}
            testId="repair-file"
            onChange={(repairFile) => setState({ repairFile })}
            onFiles={(picked) =>
              void openFiles(picked).then(({ rollouts: [r] }) => {
                if (r !== undefined) setState({ repairFile: r });
              })
            }
            inputs={inputsPick(inputsName, inputs, [], undefined)}
          />
          <div className={styles.picker}>
            <span className={styles.pickerLabel}>Harness that produced it</span>
            <div className={styles.pickerRow}>
              <select
                value={state.harness}
                onChange={(e) => {
                  if (isHarnessId(e.target.value)) setState({ harness: e.target.value });
                }}
                data-testid="repair-harness"
                aria-label="Harness"
              >
                {HARNESSES.map((h) => (
                  <option key={h} value={h}>
                    {HARNESS_LABELS[h]} ({h})
                  </option>
                ))}
              </select>
            </div>
            <span className={styles.fileMeta}>its alias rule is applied forward, then inverted</span>
          </div>
        </div>
        <ServerEditor servers={servers} onChange={setDrafts} />
        <div className={styles.formActions}>
          <button
            type="button"
            className="button-primary"
            disabled={!canRun || repair.pending}
            data-testid="repair-run"
            onClick={() => run()}
          >
            {repair.pending ? "Repairing…" : "Derive provenance"}
          </button>
          {!canRun && file.data && (
            <span className="muted">Name at least one server, each with its comma-separated tools.</span>
          )}
          {repair.error && <span className={styles.error}>{repair.error}</span>}
        </div>
      </div>
      {repair.result && (
        <section className={styles.section} data-testid="repair-result" data-file={repair.result.file}>
          <RepairResult
            view={repair.result}
            onHarness={(harness) => {
              setState({ harness }, { push: true });
              run(harness);
            }}
            stale={stale}
            downloading={download.pending}
            saved={download.saved}
            downloadError={download.error}
            onDownload={() => {
              if (repair.result) download.download(repair.result.id);
            }}
          />
        </section>
      )}
    </>
  );
}
