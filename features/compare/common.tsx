"use client";
import { formatReward } from "@/components/badges";
import { FileButton } from "@/components/FileButton";
import { formatBytes } from "@/lib/run";
import { isDatasetId, servedPathOf } from "@/worker/protocol";
import styles from "./compare.module.css";
import { VERDICT_SLUGS } from "./state";
import type { CompareFileSummary, SideInputsView, Verdict } from "./types";

export { styles };

const VERDICT_CLASS: Record<Verdict, string> = {
  "same actions, same reward": styles.verdictSame ?? "",
  "same actions, different reward": styles.verdictBug ?? "",
  "different actions": styles.verdictDiff ?? "",
};

const VERDICT_TEXT: Record<Verdict, string> = {
  "same actions, same reward": "same actions · same reward",
  "same actions, different reward": "same actions · different reward",
  "different actions": "different actions",
};

const VERDICT_HELP: Record<Verdict, string> = {
  "same actions, same reward": "Both runs did the same thing and scored the same.",
  "same actions, different reward":
    "Both runs made the same tool calls but scored differently. With calls on both sides and both rewards recomputed, only the names the verifier saw differ (an identity bug); otherwise something else the verifier read may differ (a text answer, the recording).",
  "different actions": "The agent did something different in the two runs.",
};

/**
 * A pair's verdict. Same actions with different rewards is marked as the identity bug only when the names
 * decided it (calls on both sides, both rewards recomputed); on recorded rewards the badge says so.
 */
export function VerdictBadge({
  verdict,
  basis,
  namesDecided,
}: {
  verdict: Verdict;
  basis: "recomputed" | "recorded";
  namesDecided: boolean;
}) {
  const notNames = verdict === "same actions, different reward" && !namesDecided;
  return (
    <span
      className={`${styles.verdict} ${notNames ? styles.verdictOther : VERDICT_CLASS[verdict]}`}
      data-verdict-badge={VERDICT_SLUGS[verdict]}
      data-basis={basis}
      title={
        notNames
          ? `${VERDICT_HELP[verdict]} Here not the names: ${basis === "recorded" ? "the rewards compared are the ones the files recorded (not both recomputed)" : "a side makes no tool call"}.`
          : VERDICT_HELP[verdict]
      }
    >
      {VERDICT_TEXT[verdict]}
      {basis === "recorded" && verdict !== "different actions" && " (recorded)"}
    </span>
  );
}

export function Reward({ value, muted }: { value: number | null; muted?: boolean }) {
  const tone = muted
    ? styles.rewardRecorded
    : value === 1
      ? styles.rewardOne
      : value === 0
        ? styles.rewardZero
        : "";
  return <span className={tone}>{formatReward(value)}</span>;
}

/** "recorded → recomputed", the same reading order as the inspector's reward box. */
export function RewardPair({ recorded, reward }: { recorded: number | null; reward: number | null }) {
  return (
    <span
      className={styles.rewardPair}
      title={`recorded ${formatReward(recorded)}, recomputed ${formatReward(reward)}`}
    >
      <Reward value={recorded} muted />
      <span className={styles.rewardArrow}>→</span>
      <Reward value={reward} />
    </span>
  );
}

export interface FileChoice {
  /** The FileRef: a stored file's dataset id, or a bundled sample's name. */
  readonly name: string;
  readonly title: string;
  /** What the option shows, when not the name itself ("run.jsonl #2"). */
  readonly label?: string;
}

/** A run's materialized-inputs file: the effective choice, what loaded, and how many rollouts it paired. */
export interface InputsPick {
  /** The inputs file in use, or null for none. */
  value: string | null;
  choices: readonly FileChoice[];
  summary: CompareFileSummary | undefined;
  loading: boolean;
  error: string | null;
  /** From the comparison, once it ran. */
  paired: SideInputsView | null | undefined;
  /** Absent: shown, not chosen here. */
  onChange?(name: string | null): void;
}

interface FileSelectProps {
  label: React.ReactNode;
  value: string;
  choices: readonly FileChoice[];
  summary: CompareFileSummary | undefined;
  loading: boolean;
  error: string | null;
  testId: string;
  onChange(name: string): void;
  /** One file or several (a rollouts file with its inputs file). */
  onFiles(files: File[]): void;
  inputs?: InputsPick;
  /** A followed file no longer what was read (rewritten, shrunk, gone): said as the inspector says it. */
  changed?: string | null;
}

const NO_INPUTS_OPTION = "";

function InputsLine({
  inputs,
  rollouts,
  testId,
}: {
  inputs: InputsPick;
  rollouts: number | undefined;
  testId: string;
}) {
  const { summary } = inputs;
  const shownName = summary?.name ?? inputs.value;
  const options: readonly FileChoice[] =
    inputs.value === null || inputs.choices.some((c) => c.name === inputs.value)
      ? inputs.choices
      : [{ name: inputs.value, title: shownName ?? inputs.value }, ...inputs.choices];
  // A view computed for another choice (the comparison is rerunning) says nothing about this one.
  const paired =
    inputs.paired &&
    (inputs.value === null ? inputs.paired.shared_from !== null : inputs.paired.name === shownName)
      ? inputs.paired
      : null;
  const shared = inputs.value === null ? paired : null;
  return (
    <div
      className={styles.inputsLine}
      data-testid={`${testId}-inputs`}
      data-inputs={shownName ?? ""}
      data-inputs-ref={inputs.value ?? ""}
      data-rows={summary?.input_rows}
      data-paired={paired?.paired}
      data-shared-from={shared?.shared_from ?? undefined}
    >
      <span className={styles.inputsLabel}>inputs</span>
      {inputs.onChange ? (
        <select
          value={inputs.value ?? NO_INPUTS_OPTION}
          onChange={(event) => inputs.onChange?.(event.target.value === "" ? null : event.target.value)}
          data-testid={`${testId}-inputs-select`}
          aria-label="Materialized inputs"
          title="Materialized inputs: the task rows of rollouts that carry no task fields"
        >
          <option value={NO_INPUTS_OPTION} title="the rollouts' own echoed task fields are used">
            none
          </option>
          {options.map((c) => (
            <option key={c.name} value={c.name} title={c.title}>
              {optionText(c.label ?? c.name)}
            </option>
          ))}
        </select>
      ) : (
        <span className="mono">{shownName ?? "none"}</span>
      )}
      {shared && (
        <span className={styles.fileMeta}>
          verified with {shared.shared_from?.toUpperCase()}'s {shared.name} (one inputs map serves both runs)
          · {shared.paired} of {rollouts ?? "?"} rollouts paired
        </span>
      )}
      {inputs.value !== null && (
        <span className={styles.fileMeta}>
          {inputs.error ? (
            <span className={styles.error}>{inputs.error}</span>
          ) : inputs.loading || !summary ? (
            "loading…"
          ) : summary.kind !== "inputs" ? (
            <span className={styles.error}>not a materialized-inputs file</span>
          ) : (
            <>
              {summary.input_rows} rows
              {paired && (
                <span className={paired.paired === 0 ? styles.error : undefined}>
                  {" "}
                  · {paired.paired} of {rollouts ?? "?"} rollouts paired
                  {paired.paired === 0
                    ? ": no row has a rollout's (_ng_task_index, _ng_rollout_index) or its task input"
                    : ""}
                </span>
              )}
            </>
          )}
        </span>
      )}
    </div>
  );
}

/**
 * Pick a bundled sample or a loaded file; open a local one (with its materialized-inputs file, picked
 * together). Shows what was loaded, its line errors, and the inputs file the run uses.
 */
/**
 * The most characters a file's option shows (a select of `.pickerRow select`'s max-width at its monospace size):
 * a longer path keeps its end, where the file's own name tells two runs of one folder apart
 * ("run/workplace_assistant/data/example_rollo…" hid "_mcp.jsonl"); the whole path is the option's title.
 */
export const OPTION_CHARS = 54;

export function optionText(label: string, max = OPTION_CHARS): string {
  if (label.length <= max) return label;
  const base = label.slice(label.lastIndexOf("/") + 1);
  const tail = label.slice(-Math.min(Math.max(base.length, Math.ceil(max * 0.6)), max - 2));
  return `${label.slice(0, max - 1 - tail.length)}…${tail}`;
}

export function FileSelect({
  label,
  value,
  choices,
  summary,
  loading,
  error,
  testId,
  onChange,
  onFiles,
  inputs,
  changed = null,
}: FileSelectProps) {
  // A file the URL names but that is not open (gone with a reload): its ref is no name to show.
  // A served folder's file is named by its path until it is read.
  const shown =
    summary?.name ?? (error !== null && isDatasetId(value) ? "(not open)" : (servedPathOf(value) ?? value));
  const options: readonly FileChoice[] = choices.some((c) => c.name === value)
    ? choices
    : [{ name: value, title: shown, label: shown }, ...choices];
  return (
    <div className={styles.picker} data-picker={testId}>
      <span className={styles.pickerLabel}>{label}</span>
      <div className={styles.pickerRow}>
        <select
          value={value}
          onChange={(event) => onChange(event.target.value)}
          data-testid={`${testId}-select`}
          aria-label={typeof label === "string" ? label : testId}
        >
          {options.map((c) => (
            <option key={c.name} value={c.name} title={c.title}>
              {optionText(c.label ?? c.name)}
            </option>
          ))}
        </select>
        <FileButton
          onFiles={onFiles}
          label="Open file…"
          className="button-small"
          testId={`${testId}-file`}
          title="A rollouts file, or a rollouts file and its materialized inputs picked together"
        />
      </div>
      <span className={styles.fileMeta} data-loaded={summary ? summary.name : undefined}>
        {error ? (
          <span className={styles.error}>{error}</span>
        ) : loading || !summary ? (
          "loading…"
        ) : (
          <>
            {summary.rollouts} rollouts · {formatBytes(summary.bytes)}
            {summary.servers.length > 0 ? ` · ${summary.servers.join(", ")}` : ""}
            {summary.error_count > 0 && (
              <span
                className={styles.error}
                title={summary.errors.map((e) => `line ${e.line}: ${e.error}`).join("\n")}
              >
                {" "}
                · {summary.error_count} unreadable {summary.error_count === 1 ? "line" : "lines"} (first: line{" "}
                {summary.errors[0]?.line}: {summary.errors[0]?.error})
              </span>
            )}
          </>
        )}
      </span>
      {changed && (
        <span className={styles.error} role="alert" data-testid={`${testId}-changed`}>
          {changed}
        </span>
      )}
      {inputs && <InputsLine inputs={inputs} rollouts={summary?.rollouts} testId={testId} />}
    </div>
  );
}
