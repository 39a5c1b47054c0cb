"use client";
import Link from "next/link";
import { useCallback, useMemo, useState } from "react";
import { DropTarget } from "@/components/Loader";
import { SubPageBrand } from "@/components/SubPageBrand";
import shell from "@/components/subpage.module.css";
import topbar from "@/components/topbar.module.css";
import { useSamples, useSession } from "@/hooks/data";
import { fileLabels } from "@/hooks/file-labels";
import { HARNESS_LABELS, HARNESSES, isHarnessId } from "@/lib/harness";
import { type FileChoice, FileSelect, type InputsPick, styles } from "./common";
import {
  type InputsFile,
  useCompareFile,
  useCompareRuns,
  useDownloadRepaired,
  useOpenCompareFile,
  usePairDetail,
  useRepair,
  useRolloutList,
  useServerTools,
  useWhatIf,
} from "./data";
import { RepairResult, type ServerDraft, ServerEditor } from "./RepairPanel";
import { CompareSummaryBand, PairTable, PairToolbar, selectPairs } from "./RunsView";
import { NO_INPUTS, parseToolList, resolveInputs } from "./state";
import type { CompareFileSummary, CompareTab } from "./types";
import { useCompareState } from "./url";
import { RolloutSelect, WhatIfTable } from "./WhatIfTable";

const TAB_LABELS: Record<CompareTab, string> = {
  runs: "Compare runs",
  whatif: "Harness what-if",
  repair: "Repair",
};

type FileKind = CompareFileSummary["kind"];

interface OpenedFile {
  /** The stored file's dataset id: the FileRef the pickers and the URL keep. */
  readonly id: string;
  readonly name: string;
  readonly kind: FileKind;
}

/** Files opened together (their FileRefs), split by what the worker found them to be. */
interface Opened {
  readonly rollouts: readonly string[];
  readonly inputs: readonly string[];
}

/**
 * Choices for a kind of file picker: files opened in this tab (on this page or in the inspector: one
 * store), by dataset id, so two files of the same name are two choices ("name #1", "name #2"); then the
 * bundled samples of that kind, by name.
 */
function useFileChoices(local: readonly OpenedFile[], kind: FileKind): FileChoice[] {
  const samples = useSamples();
  const session = useSession();
  return useMemo(() => {
    const bundled = (samples.data ?? [])
      .filter((s) => s.kind === kind)
      .map((s) => ({ name: s.file, title: s.title }));
    const stored = (session?.files ?? [])
      .filter((f) => f.indexed)
      .map((f) => ({ id: f.id, name: f.name, kind: f.kind }));
    // "#k" counts in opening order, as the inspector's chips do: the session and `local` list the latest
    // first, and files opened here that the session does not list yet are the latest of all.
    const all = [...stored]
      .reverse()
      .concat([...local].reverse().filter((l) => !stored.some((s) => s.id === l.id)));
    const labels = fileLabels(all);
    const ids = new Set<string>();
    const opened = [...local, ...stored]
      .filter((f) => f.kind === kind && !bundled.some((b) => b.name === f.name))
      .filter((f) => !ids.has(f.id) && ids.add(f.id))
      .map((f) => {
        const label = labels.get(f.id) ?? f.name;
        return { name: f.id, label, title: `${label} (opened in this tab)` };
      });
    return [...opened, ...bundled];
  }, [samples.data, session?.files, local, kind]);
}

export function ComparePage() {
  const [state, setState] = useCompareState();
  const samples = useSamples();
  const opener = useOpenCompareFile();
  const [local, setLocal] = useState<OpenedFile[]>([]);
  // Inputs files opened together with a rollouts file, so every tab verifies that file with them.
  const [companions, setCompanions] = useState<Readonly<Record<string, string>>>({});
  const choices = useFileChoices(local, "rollouts");
  const inputChoices = useFileChoices(local, "inputs");

  const openFiles = useCallback(
    async (files: readonly File[]): Promise<Opened> => {
      const opened: OpenedFile[] = [];
      // One at a time: the worker reads files in turn anyway, and the order of the picks is kept.
      for (const file of files) {
        const summary = await opener.open(file);
        if (summary) opened.push({ id: summary.id, name: summary.name, kind: summary.kind });
      }
      setLocal((known) => [...opened, ...known.filter((k) => !opened.some((o) => o.id === k.id))]);
      const rollouts = opened.filter((o) => o.kind === "rollouts").map((o) => o.id);
      const inputs = opened.filter((o) => o.kind === "inputs").map((o) => o.id);
      const [firstInputs] = inputs;
      if (firstInputs !== undefined && rollouts.length > 0) {
        setCompanions((known) => ({
          ...known,
          ...Object.fromEntries(rollouts.map((name, i) => [name, inputs[i] ?? firstInputs])),
        }));
      }
      return { rollouts, inputs };
    },
    [opener.open],
  );

  /** The inputs file a rollouts file is verified with: the choice, its companion, or its bundled sample's. */
  const inputsFor = useCallback(
    (file: string, choice: string | null): string | null =>
      resolveInputs(choice ?? companions[file] ?? null, file, samples.data ?? []),
    [companions, samples.data],
  );

  const onDrop = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      const { rollouts, inputs } = await openFiles(files);
      const [r1, r2] = rollouts;
      const [i1, i2] = inputs;
      if (state.tab === "runs") {
        // Two runs: A then B, one inputs file for both or one each. One run (or inputs alone) goes to B.
        if (r1 !== undefined && r2 !== undefined) {
          setState({ a: r1, b: r2, ai: i1 ?? null, bi: i2 ?? i1 ?? null, pair: null });
        } else if (r1 !== undefined) setState({ b: r1, bi: i1 ?? null, pair: null });
        else if (i1 !== undefined) setState({ bi: i1, pair: null });
      } else if (r1 === undefined) return;
      else if (state.tab === "whatif") setState({ sample: r1, line: null });
      else setState({ repairFile: r1 });
    },
    [state.tab, openFiles, setState],
  );

  const tabProps: TabProps = { choices, inputChoices, samplesReady: samples.data, openFiles, inputsFor };
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
            <Link className={`button-small ${styles.navLink}`} href="/">
              ← Inspector
            </Link>
          </div>
        </header>
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
            <RepairTab key={state.repairFile} {...tabProps} />
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
  const aiName = inputsFor(state.a, state.ai);
  const biName = inputsFor(state.b, state.bi);
  const inputsA = useInputsFile(aiName, samplesReady);
  const inputsB = useInputsFile(biName, samplesReady);
  const files = { a: fileA.data, b: fileB.data, ai: inputsA.data, bi: inputsB.data };
  const runs = useCompareRuns(files, state.policy);
  const detail = usePairDetail(files, state.policy, state.pair);
  /** Picked for one side: its rollouts file (automatic inputs unless one came with it) and/or its inputs. */
  const pickFor = (side: "a" | "b") => async (picked: File[]) => {
    const { rollouts, inputs } = await openFiles(picked);
    const [r] = rollouts;
    const [i] = inputs;
    if (r !== undefined)
      setState(side === "a" ? { a: r, ai: i ?? null, pair: null } : { b: r, bi: i ?? null, pair: null });
    else if (i !== undefined) setState(side === "a" ? { ai: i, pair: null } : { bi: i, pair: null });
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
      {runs.data && (
        <section className={styles.section} data-testid="compare-result" data-ready={!runs.isFetching}>
          <CompareSummaryBand view={runs.data} />
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
  const name = state.sample ?? state.b;
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

function draftsFrom(
  servers: readonly { name: string; tools: readonly string[] }[],
  preferred: readonly string[],
) {
  const pick =
    preferred.map((p) => servers.find((s) => s.name === p)).find((s) => s !== undefined) ?? servers[0];
  return pick ? [{ name: pick.name, tools: pick.tools.join(", ") }] : [{ name: "", tools: "" }];
}

function RepairTab(props: TabProps) {
  const { choices, samplesReady, openFiles } = props;
  const [state, setState] = useCompareState();
  const file = useCompareFile(state.repairFile, samplesReady);
  const inputsName = singleFileInputs(state.repairFile, props, state);
  const inputs = useInputsFile(inputsName, samplesReady);
  const known = useServerTools();
  const repair = useRepair();
  const download = useDownloadRepaired();
  const [drafts, setDrafts] = useState<ServerDraft[] | null>(null);

  // Default: the file's verifying server with its known tools, until the user edits the list.
  const defaults = useMemo(
    () => (known.data ? draftsFrom(known.data, file.data?.servers ?? []) : null),
    [known.data, file.data],
  );
  const servers = drafts ?? defaults ?? [];
  const parsed = useMemo(
    () =>
      servers
        .map((s) => ({ name: s.name.trim(), tools: parseToolList(s.tools) }))
        .filter((s) => s.name !== ""),
    [servers],
  );
  const params = repair.params;
  const stale =
    params !== null &&
    (params.file.name !== file.data?.name ||
      params.file.version !== file.data?.version ||
      params.inputs?.version !== inputs.data?.version ||
      params.harness !== state.harness ||
      JSON.stringify(params.servers) !== JSON.stringify(parsed));

  const canRun =
    file.data !== undefined &&
    inputs.data !== undefined &&
    parsed.length > 0 &&
    parsed.every((s) => s.tools.length > 0);
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
            value={state.repairFile}
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
            onClick={() => {
              if (file.data && inputs.data !== undefined) {
                repair.run({ file: file.data, inputs: inputs.data, harness: state.harness, servers: parsed });
              }
            }}
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
