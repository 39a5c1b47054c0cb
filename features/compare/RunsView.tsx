"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Fragment, useEffect, useMemo, useRef, useState } from "react";
import { StatusBadge } from "@/components/badges";
import chips from "@/components/chips.module.css";
import { cx } from "@/components/cx";
import { Name } from "@/components/Name";
import { nameMismatchText, recordedDifferText, tasksText } from "@/lib/compare";
import { MEAN_DECIMALS } from "@/lib/metrics";
import { RewardPair, styles, VerdictBadge } from "./common";
import { type PairSort, VERDICT_ORDER, VERDICT_SLUGS, type VerdictSlug, verdictRank } from "./state";
import type { ActionView, CompareView, PairDetail, PairRow, StepView, TasksView } from "./types";

function mean(value: number | null): string {
  return value === null ? "—" : value.toFixed(MEAN_DECIMALS);
}

/** B's mean less A's, signed. */
function delta(value: number | null): string {
  if (value === null) return "—";
  return `${value > 0 ? "+" : value < 0 ? "−" : ""}${Math.abs(value).toFixed(MEAN_DECIMALS)}`;
}

/**
 * The comparison by task, for runs with Gym's repeats: rollout k of A and rollout k of B are two samples of a
 * task, so what a reviewer weighs is each task's passes on both sides. Listed: the tasks whose mean differs.
 */
export function TaskTable({ tasks, a, b }: { tasks: TasksView; a: string; b: string }) {
  const { summary } = tasks;
  return (
    <details className={styles.byTask} open={tasks.differing > 0} data-testid="compare-tasks">
      <summary>
        <strong>By task</strong> <span data-testid="compare-tasks-summary">{tasksText(summary, "B")}</span>
      </summary>
      {tasks.rows.length > 0 && (
        <table className={styles.table} data-testid="compare-tasks-table">
          <thead>
            <tr>
              <th>task</th>
              <th className={styles.num}>pairs</th>
              <th className={styles.num} title={`Rollouts of ${a} with a reward above 0`}>
                A passes
              </th>
              <th className={styles.num} title={`Rollouts of ${b} with a reward above 0`}>
                B passes
              </th>
              <th className={styles.num}>A mean</th>
              <th className={styles.num}>B mean</th>
              <th className={styles.num}>B − A</th>
            </tr>
          </thead>
          <tbody>
            {tasks.rows.map((row) => (
              <tr key={row.label} data-task={row.label} data-delta={row.delta ?? ""}>
                <td className="mono">{row.label}</td>
                <td className={styles.num}>{row.pairs}</td>
                <td className={styles.num}>
                  {row.a.passes} / {row.a.scored}
                </td>
                <td className={styles.num}>
                  {row.b.passes} / {row.b.scored}
                </td>
                <td className={styles.num}>{mean(row.a.mean)}</td>
                <td className={styles.num}>{mean(row.b.mean)}</td>
                <td
                  className={cx(styles.num, row.delta !== null && row.delta < 0 ? styles.lower : undefined)}
                >
                  {delta(row.delta)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {tasks.differing > tasks.rows.length && (
        <p className="muted">
          The first {tasks.rows.length} of {tasks.differing} tasks whose mean differs are listed: those B
          scores lower first, the largest drop first, then those it scores higher; the pair table below and
          its CSV hold every rollout.
        </p>
      )}
    </details>
  );
}

function percent(rate: number | null): string {
  return rate === null ? "—" : `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)}%`;
}

export function CompareSummaryBand({ view }: { view: CompareView }) {
  const s = view.summary;
  // parity_rate is a share of pairs; the count reads better next to it.
  const rewardParity = s.parity_rate === null ? 0 : Math.round(s.parity_rate * s.pairs);
  const recordedDiffer = recordedDifferText(s.recorded_differ);
  return (
    <div
      className={styles.summary}
      data-testid="compare-summary"
      data-parity={s.parity_rate === null ? "" : String(s.parity_rate)}
      data-pairs={s.pairs}
    >
      <div
        className={`${styles.stat} ${s.recomputed === 0 ? styles.toneNeutral : s.parity_rate === 1 ? styles.toneGood : styles.toneBad}`}
        data-testid="reward-parity"
        data-recomputed={s.recomputed}
      >
        <span className={styles.statValue}>{percent(s.parity_rate)}</span>
        <span className={styles.statLabel}>
          reward parity · {rewardParity} of {s.pairs} pairs score the same
          {s.recomputed < s.pairs &&
            (s.recomputed === 0
              ? " · as the files recorded them: no pair had both rewards recomputed"
              : ` · ${s.pairs - s.recomputed} as the files recorded them (not recomputed)`)}
        </span>
        {recordedDiffer !== null && (
          <span className={styles.statLabel} data-testid="recorded-differ" data-count={s.recorded_differ}>
            {recordedDiffer}
          </span>
        )}
      </div>
      {s.with_calls === 0 && s.pairs > 0 ? (
        // The same actions of runs that make no call are no evidence: there is nothing to compare.
        <div className={`${styles.stat} ${styles.toneNeutral}`} data-testid="action-parity">
          <span className={styles.statValue}>—</span>
          <span className={styles.statLabel}>action parity · neither run makes a tool call</span>
        </div>
      ) : (
        <div
          className={`${styles.stat} ${s.action_parity_rate === 1 ? styles.toneGood : styles.toneChanged}`}
          data-testid="action-parity"
        >
          <span className={styles.statValue}>{percent(s.action_parity_rate)}</span>
          <span className={styles.statLabel}>action parity · same canonical actions</span>
        </div>
      )}
      <div
        className={`${styles.stat} ${s.names_decided > 0 ? styles.toneBad : styles.toneNeutral}`}
        data-testid="identity-bugs"
        data-count={s.names_decided}
        title="Pairs whose tool calls are the same on both sides and whose recomputed rewards differ: only the names the verifier saw can explain it."
      >
        <span className={styles.statValue}>{s.names_decided}</span>
        <span className={styles.statLabel}>
          rewards differ only because of names
          {s.same_actions_different_reward > s.names_decided &&
            ` · ${s.same_actions_different_reward - s.names_decided} more with the same calls and different rewards, not recomputed or without a call`}
        </span>
      </div>
      <div className={`${styles.stat} ${s.different_actions > 0 ? styles.toneChanged : styles.toneNeutral}`}>
        <span className={styles.statValue}>{s.different_actions}</span>
        <span className={styles.statLabel}>pairs with different actions</span>
      </div>
      <div className={`${styles.stat} ${styles.toneNeutral}`}>
        <span className={styles.statValue}>{s.pairs}</span>
        <span className={styles.statLabel}>
          pairs · unpaired {s.unpaired_a} in A, {s.unpaired_b} in B
        </span>
      </div>
    </div>
  );
}

const SLUG_LABEL: Record<VerdictSlug, string> = {
  "identity-bug": "same actions, different reward",
  "different-actions": "different actions",
  same: "same actions, same reward",
};
const SLUG_CHIP: Record<VerdictSlug, string | undefined> = {
  "identity-bug": chips.tone_mismatched,
  "different-actions": chips.tone_changed,
  same: undefined,
};

interface ToolbarProps {
  view: CompareView;
  verdicts: readonly VerdictSlug[];
  sort: PairSort;
  onToggle(slug: VerdictSlug): void;
  onSort(sort: PairSort): void;
  shown: number;
  /** The comparison's CSV download; ready once the shown comparison is the current one. */
  csv: { download(): void; pending: boolean; ready: boolean; error: string | null };
}

export function PairToolbar({ view, verdicts, sort, onToggle, onSort, shown, csv }: ToolbarProps) {
  const counts: Record<VerdictSlug, number> = {
    "identity-bug": view.summary.same_actions_different_reward,
    "different-actions": view.summary.different_actions,
    same: view.summary.same_actions_same_reward,
  };
  return (
    <div className={styles.toolbar}>
      <span className="muted">Show</span>
      {VERDICT_ORDER.map((slug) => (
        <button
          key={slug}
          type="button"
          className={cx(chips.chip, SLUG_CHIP[slug], verdicts.includes(slug) && chips.chipOn)}
          aria-pressed={verdicts.includes(slug)}
          data-filter-verdict={slug}
          onClick={() => onToggle(slug)}
        >
          {SLUG_LABEL[slug]}
          <span className={styles.chipCount}>{counts[slug]}</span>
        </button>
      ))}
      <span className={styles.toolbarSpacer} />
      <span className="muted" data-testid="pairs-shown">
        {shown} of {view.pairs.length} pairs
      </span>
      <label className="muted">
        sort{" "}
        <select
          value={sort}
          onChange={(e) => onSort(e.target.value === "pair" ? "pair" : "verdict")}
          data-testid="pair-sort"
        >
          <option value="verdict">by verdict (regressions first)</option>
          <option value="pair">by task and rollout</option>
        </select>
      </label>
      <button
        type="button"
        onClick={csv.download}
        disabled={csv.pending || !csv.ready}
        data-testid="compare-csv"
        title="Every pair, whatever is shown, then each rollout that found no partner: the same bytes as cli compare --format csv"
      >
        {csv.pending ? "Preparing…" : "Download CSV"}
      </button>
      {csv.error && (
        <span className={styles.error} role="alert">
          Could not download: {csv.error}
        </span>
      )}
    </div>
  );
}

/** Filters and sorts the pairs as the URL says. */
export function selectPairs(
  pairs: readonly PairRow[],
  verdicts: readonly VerdictSlug[],
  sort: PairSort,
): PairRow[] {
  const shown =
    verdicts.length === 0 ? [...pairs] : pairs.filter((p) => verdicts.includes(VERDICT_SLUGS[p.verdict]));
  if (sort === "verdict") {
    // Stable: within a verdict, pairs stay in task order.
    shown.sort((x, y) => verdictRank(x.verdict) - verdictRank(y.verdict) || x.id - y.id);
  }
  return shown;
}

interface PairTableProps {
  view: CompareView;
  verdicts: readonly VerdictSlug[];
  sort: PairSort;
  open: number | null;
  detail: PairDetail | undefined;
  detailLoading: boolean;
  onOpen(id: number | null): void;
  /** The inspector's URL for a line of a file, when the file can be opened there by link (a bundled sample). */
  inspectorHref(file: string, line: number): string | null;
  onWhatIf(file: string, line: number): void;
}

/** Rows rendered before "show all": a table of many thousand pairs would make every update slow. */
export const PAIR_ROWS_SHOWN = 500;

/**
 * A verifier name that is not its tool's name. It explains a pair with the same actions and different
 * rewards (marked as the divergence it is); when the rewards agree it changed nothing, so it reads as a note.
 */
export function NameMismatch({ pair }: { pair: PairRow }) {
  const mismatch = pair.name_mismatch;
  if (mismatch === null) return null;
  const harmless = pair.verdict === "same actions, same reward";
  return (
    <div
      className={harmless ? styles.nameMismatchNote : styles.nameMismatch}
      data-testid="name-mismatch"
      data-tone={harmless ? "neutral" : "divergent"}
    >
      {/* lib/compare's words, the CSV's names_seen: one sentence wherever a pair is read. */}
      {pair.divergence === null ? "Same actions, but " : ""}
      {nameMismatchText(mismatch)}
      {harmless ? ": the rewards agree." : ""}
    </div>
  );
}

/** An error several pairs share is said once above the table, with how many pairs it stopped. */
const SHARED_ERROR_PAIRS = 2;

interface SharedError {
  readonly error: string;
  readonly pairs: number;
}

function pairErrors(pair: PairRow): string[] {
  return [...new Set([pair.a.error, pair.b.error].filter((e): e is string => e !== null && e !== ""))];
}

/** Errors that SHARED_ERROR_PAIRS pairs or more have, most frequent first. */
export function sharedErrors(pairs: readonly PairRow[]): SharedError[] {
  const counts = new Map<string, number>();
  for (const pair of pairs)
    for (const error of pairErrors(pair)) counts.set(error, (counts.get(error) ?? 0) + 1);
  return [...counts]
    .filter(([, n]) => n >= SHARED_ERROR_PAIRS)
    .sort((x, y) => y[1] - x[1])
    .map(([error, n]) => ({ error, pairs: n }));
}

/** A pair's errors: its own in full, one the table states above as a short pointer to it. */
function PairErrors({ pair, shared }: { pair: PairRow; shared: readonly SharedError[] }) {
  const errors = pairErrors(pair);
  if (errors.length === 0) return null;
  const own = errors.filter((e) => !shared.some((s) => s.error === e));
  return (
    <div className={styles.error} data-pair-errors={errors.length}>
      {own.join("; ")}
      {own.length < errors.length && (
        <span className="muted">{own.length > 0 ? "; " : ""}not verified: see above the table</span>
      )}
    </div>
  );
}

export function PairTable({
  view,
  verdicts,
  sort,
  open,
  detail,
  detailLoading,
  onOpen,
  inspectorHref,
  onWhatIf,
}: PairTableProps) {
  const selected = useMemo(() => selectPairs(view.pairs, verdicts, sort), [view.pairs, verdicts, sort]);
  const shared = useMemo(() => sharedErrors(view.pairs), [view.pairs]);
  const [all, setAll] = useState(false);
  const rows = all ? selected : selected.slice(0, PAIR_ROWS_SHOWN);
  return (
    <>
      {shared.length > 0 && (
        <div className={styles.sharedErrors} data-testid="pair-errors">
          {shared.map(({ error, pairs }) => (
            <div key={error}>
              <span className={styles.error}>{pairs} pairs could not be verified here:</span> {error}
            </div>
          ))}
        </div>
      )}
      <table className={styles.table} data-testid="pair-table">
        <thead>
          <tr>
            <th title="(_ng_task_index:_ng_rollout_index), else the lines of a pair found by task input or id">
              pair
            </th>
            <th className={styles.num}>A line</th>
            <th className={styles.num}>A reward</th>
            <th className={styles.num}>B line</th>
            <th className={styles.num}>B reward</th>
            <th className={styles.num}>calls</th>
            <th>verdict</th>
            <th>first divergence · why</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={8} className={styles.empty}>
                {view.pairs.length === 0
                  ? "No rollouts paired: the files share no (_ng_task_index, _ng_rollout_index), task input or id."
                  : "No pair has the selected verdicts."}
              </td>
            </tr>
          )}
          {rows.map((p) => {
            const isOpen = open === p.id;
            return (
              <Fragment key={p.id}>
                <tr
                  className={`${styles.pairRow}${isOpen ? ` ${styles.pairRowOpen}` : ""}`}
                  data-verdict={VERDICT_SLUGS[p.verdict]}
                  data-pair={p.key}
                  data-a-line={p.a.line}
                  data-b-line={p.b.line}
                  data-a-reward={p.a.reward ?? "none"}
                  data-b-reward={p.b.reward ?? "none"}
                  onClick={() => onOpen(isOpen ? null : p.id)}
                >
                  <td className="mono">
                    {/* The row is clickable; this button is the keyboard path (the click bubbles to the row). */}
                    <button
                      type="button"
                      className={styles.expander}
                      aria-expanded={isOpen}
                      aria-label={`${isOpen ? "Close" : "Open"} pair ${p.key}`}
                    >
                      {isOpen ? "▾" : "▸"}
                    </button>
                    {p.paired_by === "indices" ? (
                      p.key
                    ) : (
                      // A task input or an id is a poor label (every workplace prompt opens alike): the
                      // lines tell pairs apart, the key is on hover.
                      <span title={p.key} data-pair-label>
                        A {p.a.line} · B {p.b.line}
                        <span className="muted"> (by {p.paired_by})</span>
                      </span>
                    )}
                  </td>
                  <td className={`${styles.num} ${styles.lineLink}`}>{p.a.line}</td>
                  <td className={styles.num}>
                    <RewardPair recorded={p.a.recorded} reward={p.a.reward} />
                  </td>
                  <td className={`${styles.num} ${styles.lineLink}`}>{p.b.line}</td>
                  <td className={styles.num}>
                    <RewardPair recorded={p.b.recorded} reward={p.b.reward} />
                  </td>
                  <td className={styles.num}>
                    {p.a.calls === p.b.calls ? p.a.calls : `${p.a.calls} / ${p.b.calls}`}
                  </td>
                  <td>
                    <VerdictBadge verdict={p.verdict} basis={p.reward_basis} namesDecided={p.names_decided} />
                  </td>
                  <td className={styles.divergenceText}>
                    {p.tasks_differ && (
                      <span className={styles.pairWarning} data-testid="tasks-differ">
                        Different tasks: the same (_ng_task_index, _ng_rollout_index), but A's and B's task
                        inputs differ.{" "}
                      </span>
                    )}
                    {p.repeats !== null && (
                      <span className="muted" data-testid="pair-repeats">
                        One of several rollouts of this task (A {p.repeats.a}, B {p.repeats.b}), joined in
                        file order.{" "}
                      </span>
                    )}
                    {p.divergence ??
                      (p.name_mismatch || p.tasks_differ ? null : (
                        <span className="muted">none: the action sequences agree.</span>
                      ))}
                    <NameMismatch pair={p} />
                    <PairErrors pair={p} shared={shared} />
                  </td>
                </tr>
                {isOpen && (
                  <tr>
                    <td colSpan={8} className={styles.detailCell}>
                      {detail && detail.id === p.id ? (
                        <>
                          <div className={styles.detailActions}>
                            {/* Without a call there is nothing a harness could re-emit. */}
                            {p.b.calls > 0 && (
                              <button
                                type="button"
                                className="button-small"
                                data-testid="pair-whatif"
                                onClick={() => onWhatIf(view.b, p.b.line)}
                              >
                                Harness what-if for B line {p.b.line}
                              </button>
                            )}
                            {(["a", "b"] as const).map((side) => {
                              const href = inspectorHref(view[side], p[side].line);
                              return href === null ? null : (
                                <a key={side} className={`button-small ${styles.navLink}`} href={href}>
                                  Open {side.toUpperCase()} line {p[side].line} in the inspector
                                </a>
                              );
                            })}
                          </div>
                          <Alignment detail={detail} a={view.a} b={view.b} />
                        </>
                      ) : (
                        <div className={styles.empty}>{detailLoading ? "aligning…" : "no detail"}</div>
                      )}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
          {rows.length < selected.length && (
            <tr>
              <td colSpan={8} className={styles.empty}>
                {selected.length - rows.length} more pairs.{" "}
                <button type="button" className="link-button" onClick={() => setAll(true)}>
                  show all
                </button>
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </>
  );
}

function Action({ action }: { action: ActionView | null }) {
  if (action === null) return <span className={styles.absent}>no call here</span>;
  const unseen = action.server !== null && action.verifier_name !== action.tool;
  return (
    <div data-action-tool={action.tool}>
      <div className={styles.actionTool} title={`tool identified via ${action.named_by.replace("_", " ")}`}>
        {action.server !== null && (
          <span className={styles.actionServer}>
            <Name value={action.server} />
            {" / "}
          </span>
        )}
        <Name value={action.tool} />
      </div>
      <div className={styles.actionMeta}>
        <StatusBadge status={action.status} highlight={unseen ? "mismatched" : "none"} />
        <span>
          emitted{" "}
          <code>
            <Name value={action.emitted} />
          </code>
        </span>
        {action.emitted !== action.verifier_name && (
          <span>
            verifier sees <code>{action.verifier_name}</code>
          </span>
        )}
        {unseen && <span className={styles.unseen}>the verifier sees the alias, not the tool</span>}
      </div>
      <div className={styles.args}>{action.arguments}</div>
    </div>
  );
}

function stepClass(step: StepView, first: boolean): string {
  const kind = step.kind === "changed" ? styles.stepChanged : step.kind === "same" ? "" : styles.stepOnly;
  return `${styles.step} ${kind ?? ""}${first ? ` ${styles.stepFirst}` : ""}`;
}

/** A step's height before it is measured (one action with short arguments on each side). */
export const STEP_ESTIMATE = 110;
/** Steps rendered beyond the visible ones. */
const STEP_OVERSCAN = 6;

/**
 * The aligned steps in their own scroll box, virtualized: only the steps on screen are in the DOM, however
 * long the rollouts (two 16k-call rollouts align in up to 32k steps). Opens at the first divergence.
 */
function Steps({ detail }: { detail: PairDetail }) {
  const box = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: detail.steps.length,
    getScrollElement: () => box.current,
    estimateSize: () => STEP_ESTIMATE,
    overscan: STEP_OVERSCAN,
  });
  const first = detail.first_divergence;
  useEffect(() => {
    if (first !== null) virtualizer.scrollToIndex(first, { align: "start" });
  }, [first, virtualizer]);
  const rows = virtualizer.getVirtualItems();
  return (
    <div className={styles.steps} ref={box} data-steps={detail.steps.length}>
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        <div style={{ transform: `translateY(${rows[0]?.start ?? 0}px)` }}>
          {rows.map(({ index, key }) => {
            const step = detail.steps[index];
            if (!step) return null;
            const isFirst = first === index;
            return (
              <div
                key={key}
                ref={virtualizer.measureElement}
                data-index={index}
                className={stepClass(step, isFirst)}
                data-step={step.kind}
                data-first-divergence={isFirst || undefined}
              >
                <div className={styles.stepNo}>{index + 1}</div>
                <div className={styles.stepSide}>
                  {isFirst && <div className={styles.firstLabel}>first divergence</div>}
                  <Action action={step.a} />
                </div>
                <div className={styles.stepSide}>
                  {isFirst && <div className={styles.firstLabel}>{step.kind.replace("_", " ")}</div>}
                  <Action action={step.b} />
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

export function Alignment({ detail, a, b }: { detail: PairDetail; a: string; b: string }) {
  return (
    <div className={styles.alignment} data-testid="alignment">
      <div className={styles.alignHead}>#</div>
      <div className={styles.alignHead}>
        <span className={styles.sideTag}>A</span>
        <span className={styles.alignFile}>{a}</span>
      </div>
      <div className={styles.alignHead}>
        <span className={styles.sideTag}>B</span>
        <span className={styles.alignFile}>{b}</span>
      </div>
      {detail.alignment_note !== null && (
        <div className={styles.alignNote} data-testid="alignment-note">
          {detail.alignment_note}
        </div>
      )}
      {detail.steps.length === 0 && (
        <>
          <div className={styles.stepNo} />
          <div className={styles.stepSide}>
            <span className={styles.absent}>no tool calls</span>
          </div>
          <div className={styles.stepSide}>
            <span className={styles.absent}>no tool calls</span>
          </div>
        </>
      )}
      {detail.steps.length > 0 && <Steps detail={detail} />}
      {(detail.a_error || detail.b_error) && (
        <>
          <div className={styles.stepNo} />
          <div className={`${styles.stepSide} ${styles.error}`}>{detail.a_error}</div>
          <div className={`${styles.stepSide} ${styles.error}`}>{detail.b_error}</div>
        </>
      )}
    </div>
  );
}
