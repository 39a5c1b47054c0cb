import { memo, useState } from "react";
import { cx } from "@/components/cx";
import { useDraft } from "@/hooks/use-draft";
import {
  type AgentInference,
  chooseFor,
  formatHarnessChoice,
  type HarnessChoice,
  harnessFor,
} from "@/lib/harness";
import type { HarnessId } from "@/lib/harness/types";
import { DEFAULT_REWARD, type Reward, rewardName } from "@/lib/run";
import { shellQuote } from "@/lib/shell";
import { filterApplies, HARNESS_IDS } from "./list";
import styles from "./RunFilter.module.css";

/** " of the folder's N rollouts files, a file column": what a folder's file exports (its folder's rows). */
function folderFilesText(runs: number): string {
  return runs === 1
    ? " of the folder's rollouts file, in a file column"
    : ` of every one of the folder's ${runs} rollouts files, in a file column`;
}

/** Agents listed with their own harness select unfolded at most (HarnessAgents). */
export const HARNESS_AGENTS_OPEN_MAX = 3;

interface Props {
  filter: string;
  onFilter(filter: string): void;
  /** Why the filter text could not be read. */
  error: string | null;
  /** Rows the filter keeps (null: no filter). */
  kept: number | null;
  fileName: string;
  /** The inputs file paired with the file (its name as opened), if any. */
  inputsName: string | null;
  /** The verifying server the user chose for every row, if any. */
  server: string | null;
  /**
   * The opened folder the file is one rollouts file of (its name, how many rollouts files it has), or null:
   * the CLI reads a folder's file with its configs only as part of the folder.
   */
  folder: {
    readonly name: string;
    /** Where a served folder is on the machine serving it (`cli view`): the command names it, runnable there. */
    readonly path: string | null;
    /** Files picked together and read as a folder: the CLI reads them as a folder holding only them. */
    readonly picked: boolean;
    readonly runs: number;
    /** Roles the user chose in the folder's table (`--role PATH=ROLE`). */
    readonly roles: readonly { readonly path: string; readonly role: string }[];
  } | null;
  /** The run view's reward setting: the report counts zeros and reads pass@k in it. */
  reward: Reward;
  onExport(format: "csv" | "jsonl"): void;
  /** Downloads the report to share (the filter and the marked rollouts). */
  onReport(): void;
  /** Rollouts marked for the report. */
  marked: number;
  exportError: string | null;
  /** The harness inferred per agent (offered for that agent only, never applied on its own). */
  inferred: readonly AgentInference[];
  /** The run's agents (agent_ref.name). */
  agents: readonly string[];
  harness: HarnessChoice;
  onHarness(harness: HarnessChoice): void;
}

function HarnessSelect({
  label,
  value,
  none,
  onChange,
}: {
  label: string;
  value: HarnessId | null;
  none: string;
  onChange(harness: HarnessId | null): void;
}) {
  return (
    <select
      aria-label={label}
      value={value ?? ""}
      onChange={(event) => onChange(HARNESS_IDS.find((id) => id === event.target.value) ?? null)}
    >
      <option value="">{none}</option>
      {HARNESS_IDS.map((id) => (
        <option key={id} value={id}>
          {id}
        </option>
      ))}
    </select>
  );
}

const EXAMPLES =
  "recorded:..0  contract:0.5..1  field:agent_ref.name=hermes_agent  field:response.model~gpt  flag:alias_guess  cause:identity";

/** What the export reads beside the file: the CLI command gives the same rows only with the same of each. */
export interface ExportCommandInput {
  readonly fileName: string;
  readonly folder: Props["folder"];
  /** The inputs file paired with a file opened alone (a folder's task rows are the folder's own). */
  readonly inputsName: string | null;
  /** The verifying server chosen for every row, if any. */
  readonly server: string | null;
  readonly harness: HarnessChoice;
  readonly filter: string;
}

/** `cli triage` that writes the export's rows (a folder's file: the folder's, with the roles chosen). */
export function exportCommand(input: ExportCommandInput): string {
  const { folder } = input;
  // A folder's file is routed by the folder's configs and paired with its task rows: the CLI does that for
  // the folder, not for the file alone (every rollouts file, each row naming its file).
  const roles = (folder?.roles ?? []).map((r) => ` --role ${shellQuote(`${r.path}=${r.role}`)}`).join("");
  const inputs =
    folder === null && input.inputsName !== null ? ` --inputs ${shellQuote(input.inputsName)}` : "";
  // A server or harness chosen here is the shown file's, and the folder's triage would apply it to every file.
  const server = input.server === null || folder !== null ? "" : ` --server ${shellQuote(input.server)}`;
  const chosen = folder === null ? formatHarnessChoice(input.harness) : "";
  const harness = chosen === "" ? "" : ` --harness ${shellQuote(chosen)}`;
  const filter = filterApplies(input.filter) ? ` --filter ${shellQuote(input.filter.trim())}` : "";
  // Files picked together have no folder of their own: the CLI takes one that holds them (cliNote says so).
  const path =
    folder === null
      ? shellQuote(input.fileName)
      : folder.picked
        ? "DIR"
        : shellQuote(folder.path ?? folder.name);
  return `npm run --silent cli -- triage ${path}${roles}${inputs}${server}${harness} --format csv${filter}`;
}

/** The structured filter (lib/run syntax), the export of what it keeps, and the inferred harness offer. */
export const RunFilter = memo(function RunFilter(props: Props) {
  const [draft, setDraft] = useDraft(props.filter, props.onFilter);
  const cli = exportCommand(props);
  // What the command's CSV is beside the download: the same rows; for a folder's file, the folder's triage
  // (every rollouts file, a file column, as the download), whose next steps name paths from the folder's parent.
  // `npm run` runs in the Rollout Inspector checkout (or with --prefix naming it) and reads paths from where
  // it is typed; a served folder's command names its path on the machine `view` serves from.
  const cliNote =
    props.folder === null
      ? "in the Rollout Inspector checkout, the file's path for its name: the same bytes"
      : props.folder.picked
        ? "in the Rollout Inspector checkout, DIR a folder holding the picked files and nothing else: the same rows"
        : props.folder.path !== null
          ? "in the Rollout Inspector checkout on the machine `view` serves from: the same rows"
          : "in the Rollout Inspector checkout, the folder's path for its name: the same rows";
  const files = props.folder === null ? "" : folderFilesText(props.folder.runs);
  return (
    <div className={styles.runFilter}>
      <div className={styles.runFilterRow}>
        <input
          type="text"
          className={cx(styles.filterInput, props.error && styles.filterInputBad)}
          placeholder="Filter: recorded:..0  field:path=text  flag:alias_guess  cause:identity"
          aria-label="Structured filter"
          aria-invalid={props.error !== null}
          title={EXAMPLES}
          spellCheck={false}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          data-testid="structured-filter"
        />
        <button
          type="button"
          className="button-small"
          onClick={() => props.onExport("csv")}
          data-testid="export-csv"
        >
          CSV
        </button>
        <button
          type="button"
          className="button-small"
          onClick={() => props.onExport("jsonl")}
          data-testid="export-jsonl"
        >
          JSONL
        </button>
        <button
          type="button"
          className="button-small"
          onClick={props.onReport}
          data-testid="export-report"
          title="One self-contained HTML file to share: the breakdown, the metrics and the marked rollouts (none marked: the first 20 the filter keeps that scored 0 or below)"
        >
          Report{props.marked > 0 ? ` (${props.marked} marked)` : ""}
        </button>
      </div>
      {props.error && (
        <div className={styles.filterError} role="alert" data-testid="filter-error">
          {props.error}
        </div>
      )}
      {props.exportError && (
        <div className={styles.filterError} role="alert">
          {props.exportError}
        </div>
      )}
      <div className={cx(styles.runFilterHint, "muted")}>
        {/* The export refuses a filter that does not read (features/run/run-view.ts): said before it is tried. */}
        {props.error !== null
          ? "The export and the report wait for a filter that reads; without one"
          : props.kept === null
            ? `Exports every rollout${files}`
            : props.folder === null
              ? `Exports the ${props.kept} rollouts the filter keeps`
              : `Exports the rollouts the filter keeps${files} (${props.kept} in this file)`}
        {"; from a shell: "}
        <code className={styles.cliLine} data-testid="export-cli" title={cliNote}>
          {cli}
        </code>{" "}
        ({cliNote}). The report counts zeros and pass@k in{" "}
        <span data-testid="export-reward" data-reward={props.reward}>
          {rewardName(props.reward)}
        </span>{" "}
        (<code>cli report{props.reward === DEFAULT_REWARD ? "" : ` --reward ${props.reward}`}</code>).
      </div>
      <div className={cx(styles.runFilterRow, styles.runSettings)}>
        <span className="harness-choice">
          harness, every agent{" "}
          <HarnessSelect
            label="Harness for every agent"
            value={props.harness.all}
            none="unknown"
            onChange={(all) => props.onHarness({ ...props.harness, all })}
          />
        </span>
        <span
          className="muted"
          title="The harness that emitted the names, for alias diagnostics (flags). An agent's own choice below wins for its rows only."
        >
          for alias diagnostics (flags)
        </span>
      </div>
      {props.agents.length > 0 && (
        <HarnessAgents
          agents={props.agents}
          harness={props.harness}
          inferred={props.inferred}
          onHarness={props.onHarness}
        />
      )}
    </div>
  );
});

/**
 * Agents whose harness is chosen apart, each with its own select (and an inferred harness to apply, when there is
 * one); listed as they are up to HARNESS_AGENTS_OPEN_MAX agents, else folded unless one has its own choice. The
 * golden workplace run has 17 agents, whose lines stood ~1,500 px above the rollout list.
 */
export function HarnessAgents({
  agents,
  harness: choice,
  inferred,
  onHarness,
}: Pick<Props, "agents" | "harness" | "inferred" | "onHarness">) {
  const offerOf = (agent: string) => {
    const offer = inferred.find((i) => i.agent === agent)?.inference;
    const applied = harnessFor(choice, agent);
    return offer && offer.harnesses.length > 0 && !offer.harnesses.some((h) => h === applied) ? offer : null;
  };
  const withOwn = agents.filter((agent) => Object.hasOwn(choice.agents, agent)).length;
  const offered = agents.filter((agent) => offerOf(agent) !== null).length;
  // Unfolded while an agent has its own choice, until the user folds or unfolds it: the agents come in as rows
  // stream, so nothing is decided when the list first shows.
  const [toggled, setToggled] = useState<boolean | null>(null);
  const open = toggled ?? withOwn > 0;
  const list = (
    <div className="harness-agents" data-testid="harness-agents">
      {agents.map((agent) => {
        const own = Object.hasOwn(choice.agents, agent) ? (choice.agents[agent] ?? null) : null;
        const offer = offerOf(agent);
        const applied = harnessFor(choice, agent);
        return (
          <div key={agent} className="harness-agent" data-agent={agent} data-harness={applied ?? ""}>
            <span className="harness-choice">
              {agent}{" "}
              <HarnessSelect
                label={`Harness for ${agent}`}
                value={own}
                none={choice.all === null ? "unknown" : `as every agent (${choice.all})`}
                onChange={(harness) => onHarness(chooseFor(choice, agent, harness))}
              />
            </span>
            {offer !== null && (
              <span className={styles.harnessOffer} data-testid="harness-offer">
                <em>inferred</em> for {agent} ({offer.explained} of {offer.aliased} names):{" "}
                {offer.harnesses.map((harness) => (
                  <button
                    type="button"
                    key={harness}
                    className="button-small"
                    onClick={() => onHarness(chooseFor(choice, agent, harness))}
                    data-harness={harness}
                  >
                    use {harness}
                  </button>
                ))}
                <span className="muted"> — not applied until you choose it.</span>
              </span>
            )}
          </div>
        );
      })}
    </div>
  );
  if (agents.length <= HARNESS_AGENTS_OPEN_MAX) return list;
  return (
    <details
      open={open}
      // The toggle event also follows a render's change of `open`: only the user's change is kept.
      onToggle={(event) => {
        if (event.currentTarget.open !== open) setToggled(event.currentTarget.open);
      }}
      data-testid="harness-agents-folded"
    >
      <summary className="muted">
        Harness per agent: {agents.length} agents
        {withOwn > 0 ? `, ${withOwn} with a harness of their own` : ""}
        {offered > 0 ? `, ${offered} with an inferred harness not applied` : ""}
      </summary>
      {list}
    </details>
  );
}
