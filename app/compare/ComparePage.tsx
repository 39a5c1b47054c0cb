"use client";
import Link from "next/link";
import { useCallback, useMemo, useState } from "react";
import { type FileChoice, FileSelect, styles } from "@/components/compare/common";
import { RepairResult, type ServerDraft, ServerEditor } from "@/components/compare/RepairPanel";
import { CompareSummaryBand, PairTable, PairToolbar, selectPairs } from "@/components/compare/RunsView";
import { RolloutSelect, WhatIfTable } from "@/components/compare/WhatIfTable";
import { DropTarget } from "@/components/Loader";
import {
  useCompareFile,
  useCompareRuns,
  useDownloadRepaired,
  useOpenCompareFile,
  usePairDetail,
  useRepair,
  useRolloutList,
  useServerTools,
  useWhatIf,
} from "@/hooks/compare";
import { parseToolList } from "@/hooks/compare-state";
import type { CompareTab } from "@/hooks/compare-types";
import { useCompareState } from "@/hooks/compare-url";
import { useSamples } from "@/hooks/data";
import { HARNESS_LABELS, HARNESSES, isHarnessId } from "@/lib/harness";

const TAB_LABELS: Record<CompareTab, string> = {
  runs: "Compare runs",
  whatif: "Harness what-if",
  repair: "Repair",
};

/** Choices for the file pickers: the bundled rollouts samples, then files opened in this tab. */
function useFileChoices(local: readonly string[]): FileChoice[] {
  const samples = useSamples();
  return useMemo(() => {
    const bundled = (samples.data ?? [])
      .filter((s) => s.kind === "rollouts")
      .map((s) => ({ name: s.file, title: s.title }));
    const opened = local
      .filter((name) => !bundled.some((b) => b.name === name))
      .map((name) => ({ name, title: `${name} (opened in this tab)` }));
    return [...opened, ...bundled];
  }, [samples.data, local]);
}

export function ComparePage() {
  const [state, setState] = useCompareState();
  const samples = useSamples();
  const opener = useOpenCompareFile();
  const [local, setLocal] = useState<string[]>([]);
  const choices = useFileChoices(local);

  const openLocal = useCallback(
    async (file: File, apply: (name: string) => void) => {
      const summary = await opener.open(file);
      if (!summary) return;
      setLocal((names) => (names.includes(summary.name) ? names : [summary.name, ...names]));
      apply(summary.name);
    },
    [opener.open],
  );

  const onDrop = useCallback(
    (files: File[]) => {
      const [first, second] = files;
      if (!first) return;
      if (state.tab === "runs") {
        if (second) {
          void openLocal(first, (a) => setState({ a, pair: null }));
          void openLocal(second, (b) => setState({ b, pair: null }));
        } else void openLocal(first, (b) => setState({ b, pair: null }));
      } else if (state.tab === "whatif") void openLocal(first, (sample) => setState({ sample, line: null }));
      else void openLocal(first, (repairFile) => setState({ repairFile }));
    },
    [state.tab, openLocal, setState],
  );

  return (
    <DropTarget onFiles={onDrop}>
      <div className={styles.page}>
        <header className="topbar">
          <div className={styles.brand}>
            <h1>
              <Link href="/">Rollout Inspector</Link>
            </h1>
            <span className={styles.brandSep}>/</span>
            <span>compare, what-if, repair</span>
          </div>
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
          <div className="topbar-actions">
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
        <main className={styles.body} data-tab-panel={state.tab}>
          {state.tab === "runs" && (
            <RunsTab choices={choices} samplesReady={samples.data} openLocal={openLocal} />
          )}
          {state.tab === "whatif" && (
            <WhatIfTab choices={choices} samplesReady={samples.data} openLocal={openLocal} />
          )}
          {state.tab === "repair" && (
            // Keyed by file: another file starts from its own default servers and no stale result.
            <RepairTab
              key={state.repairFile}
              choices={choices}
              samplesReady={samples.data}
              openLocal={openLocal}
            />
          )}
        </main>
      </div>
    </DropTarget>
  );
}

interface TabProps {
  choices: FileChoice[];
  samplesReady: ReturnType<typeof useSamples>["data"];
  openLocal(file: File, apply: (name: string) => void): Promise<void>;
}

function RunsTab({ choices, samplesReady, openLocal }: TabProps) {
  const [state, setState] = useCompareState();
  const fileA = useCompareFile(state.a, samplesReady);
  const fileB = useCompareFile(state.b, samplesReady);
  const runs = useCompareRuns(fileA.data, fileB.data, state.policy);
  const detail = usePairDetail(fileA.data, fileB.data, state.policy, state.pair);
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
          onChange={(a) => setState({ a, pair: null })}
          onFile={(file) => void openLocal(file, (a) => setState({ a, pair: null }))}
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
          onChange={(b) => setState({ b, pair: null })}
          onFile={(file) => void openLocal(file, (b) => setState({ b, pair: null }))}
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
            onWhatIf={(sample, line) => setState({ tab: "whatif", sample, line }, { push: true })}
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

function WhatIfTab({ choices, samplesReady, openLocal }: TabProps) {
  const [state, setState] = useCompareState();
  const name = state.sample ?? state.b;
  const file = useCompareFile(name, samplesReady);
  const list = useRolloutList(file.data);
  const firstLine = list.data?.[0]?.line ?? null;
  const line = state.line ?? firstLine;
  const whatIf = useWhatIf(file.data, line);
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
          onFile={(f) => void openLocal(f, (sample) => setState({ sample, line: null }))}
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

function RepairTab({ choices, samplesReady, openLocal }: TabProps) {
  const [state, setState] = useCompareState();
  const file = useCompareFile(state.repairFile, samplesReady);
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
      params.harness !== state.harness ||
      JSON.stringify(params.servers) !== JSON.stringify(parsed));

  const canRun = file.data !== undefined && parsed.length > 0 && parsed.every((s) => s.tools.length > 0);
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
            onFile={(f) => void openLocal(f, (repairFile) => setState({ repairFile }))}
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
              if (file.data) repair.run({ file: file.data, harness: state.harness, servers: parsed });
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
