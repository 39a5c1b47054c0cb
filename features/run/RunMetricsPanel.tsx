import { Fragment, memo, useState } from "react";
import { formatReward } from "@/components/badges";
import { type GroupStats, passScopeText, type RewardSource, type RunMetrics, usageText } from "@/lib/metrics";
import { formatCount, lineCountsText, REWARDS } from "@/lib/run";
import { filterApplies } from "./list";
import styles from "./RunMetricsPanel.module.css";

interface Props {
  metrics: RunMetrics;
  /** The filter narrowing the rows the metrics cover ("" for none), and the run's rollouts. */
  filter: string;
  total: number;
  /** Lines of the file that are not rollouts (named beside the count, never in it). */
  unreadable: number;
  /** The by-task rows sent (lib/metrics shownTasks): how many tasks in all, and in which order. */
  tasksShown: { readonly total: number; readonly order: "task" | "fewest_passing" };
  /** Filter the list to one task's rollouts (a by-task row chosen). */
  onTask(task: GroupStats): void;
}

const MEAN_DECIMALS = 3;

function mean(value: number | null): string {
  return value === null ? "—" : value.toFixed(MEAN_DECIMALS);
}

function Value({ name, value, text }: { name: string; value: number | null; text?: string }) {
  return (
    <span className={styles.metricValue} data-metric={name} data-value={value === null ? "" : String(value)}>
      {text ?? mean(value)}
    </span>
  );
}

function GroupTable({ title, groups, by }: { title: string; groups: readonly GroupStats[]; by: string }) {
  return (
    <table className={styles.metricsTable} data-group={by}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{by}</th>
          <th scope="col">n</th>
          <th scope="col">recorded</th>
          <th scope="col">contract</th>
          <th scope="col">legacy</th>
          <th scope="col" title="recorded differs from recomputed (contract)">
            rec ≠ rec.
          </th>
        </tr>
      </thead>
      <tbody>
        {groups.map((g) => (
          <tr key={g.key ?? "(none)"} data-key={g.key ?? ""}>
            <th scope="row">{g.key ?? "(none)"}</th>
            <td>{g.n}</td>
            <td data-value={g.mean.recorded ?? ""}>{mean(g.mean.recorded)}</td>
            <td data-value={g.mean.contract ?? ""}>{mean(g.mean.contract)}</td>
            <td data-value={g.mean.legacy ?? ""}>{mean(g.mean.legacy)}</td>
            <td>{g.recorded_vs_recomputed.differ}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Run metrics, all computed in lib/metrics: means by group, pass@k, distribution, policies, tokens. */
const REWARD_HINT: Record<RewardSource, string> = {
  recorded: "the reward the run recorded",
  contract: "recomputed here under the contract policy (follow provenance)",
  legacy: "recomputed here under the legacy policy (Gym before provenance)",
};

export const RunMetricsPanel = memo(function RunMetricsPanel({
  metrics,
  filter,
  total,
  unreadable,
  tasksShown,
  onTask,
}: Props) {
  const reward = metrics.reward;
  const distribution = metrics.distribution[reward];
  const max = Math.max(1, ...distribution.bins.map((b) => b.count));
  const filtered = filterApplies(filter);
  // The group tables (one row per task: thousands on a big run) are rendered only while the panel is open,
  // so a run view arriving does not commit them unseen (bench/browser.md, longest main-thread task).
  const [open, setOpen] = useState(false);
  return (
    <details
      className={styles.runMetrics}
      data-testid="run-metrics"
      data-rollouts={metrics.rollouts}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>
        Run metrics{" "}
        <span className="muted" data-testid="metrics-scope">
          ·{" "}
          {filtered
            ? `${metrics.rollouts} of ${total} rollouts (filter: ${filter.trim()})`
            : lineCountsText({ rollouts: metrics.rollouts, unreadable })}{" "}
          · pass@k on the {reward} reward
        </span>
      </summary>
      <div className={styles.metricsGrid}>
        <div className={styles.metric}>
          <span className={styles.metricLabel}>reward</span>
          <span data-testid="metrics-reward" data-reward={reward}>
            {reward}
            <span className="muted">
              {" "}
              pass@k, passed and the distribution read {REWARD_HINT[reward]} (the reward switch of the
              why-zero breakdown)
            </span>
          </span>
        </div>
        <div className={styles.metric}>
          <span className={styles.metricLabel}>mean reward</span>
          <span>
            {REWARDS.map((source, i) => (
              <Fragment key={source}>
                {i > 0 ? " · " : ""}
                <span
                  data-chosen={source === reward}
                  className={source === reward ? styles.chosen : undefined}
                >
                  {source} <Value name={`mean-${source}`} value={metrics.mean[source]} />
                </span>
              </Fragment>
            ))}
          </span>
        </div>
        <div className={styles.metric}>
          <span
            className={styles.metricLabel}
            title={`unbiased estimator over each task's rollouts (${reward}), averaged over tasks`}
            data-testid="pass-at-k-label"
            data-reward={reward}
          >
            pass@k ({reward})
          </span>
          <span>
            {metrics.pass_at_k.map((p) => (
              <span key={p.k} className={styles.metricItem} title={`${p.tasks} tasks with ≥ ${p.k} rollouts`}>
                @{p.k} <Value name={`pass-at-${p.k}`} value={p.value} />
              </span>
            ))}
            <span className="muted" data-testid="pass-scope">
              ({passScopeText(metrics)})
            </span>
          </span>
        </div>
        <div className={styles.metric}>
          <span className={styles.metricLabel}>policies</span>
          <span>
            <Value
              name="policy-gained"
              value={metrics.policy_change.gained.length}
              text={String(metrics.policy_change.gained.length)}
            />{" "}
            gain under contract ·{" "}
            <Value
              name="policy-lost"
              value={metrics.policy_change.lost.length}
              text={String(metrics.policy_change.lost.length)}
            />{" "}
            lose · mean Δ <Value name="policy-delta" value={metrics.policy_change.mean_delta} />
          </span>
        </div>
        <div className={styles.metric}>
          <span className={styles.metricLabel}>tokens</span>
          <span data-testid="tokens-text">
            <Value name="tokens-total" value={metrics.usage.total_tokens} text="" />
            {usageText(metrics.usage, formatCount)}
          </span>
        </div>
        <div className={styles.metric}>
          <span className={styles.metricLabel}>models</span>
          <span>
            {metrics.by_model.map((m) => (
              <span
                key={m.model ?? ""}
                className={styles.metricItem}
                data-model={m.model ?? ""}
                data-tokens={m.total_tokens}
              >
                {m.model ?? "(none)"} ×{m.n}
                {m.rollouts > 0 && ` · ${formatCount(m.total_tokens)} tok`}
              </span>
            ))}
          </span>
        </div>
        <div className={styles.metric}>
          <span className={styles.metricLabel}>distribution ({reward})</span>
          <span className={styles.dist}>
            {distribution.bins.map((b) => (
              <span key={b.reward} className={styles.distBin} data-reward={b.reward} data-count={b.count}>
                <span className={styles.distBar} style={{ width: `${(100 * b.count) / max}%` }} />
                <span className={styles.distText}>
                  {formatReward(b.reward)}: {b.count}
                </span>
              </span>
            ))}
            {distribution.missing > 0 && (
              <span className="muted">
                {reward === "recorded" ? "none recorded" : "unverified"}: {distribution.missing}
              </span>
            )}
          </span>
        </div>
      </div>
      {open && (
        <div className={styles.metricsTables}>
          <GroupTable title="By agent" groups={metrics.by_agent} by="agent" />
          <GroupTable title="By server" groups={metrics.by_server} by="server" />
          <table className={styles.metricsTable} data-group="task">
            <caption data-testid="tasks-caption">
              {tasksShown.order === "task"
                ? "By task (select one to list its rollouts)"
                : `By task: the ${metrics.by_task.length} of ${formatCount(tasksShown.total)} tasks with the smallest share passing (select one to list its rollouts; the filter field:_ng_task_index=N, with agent:NAME among several agents, lists another)`}
            </caption>
            <thead>
              <tr>
                <th scope="col">task</th>
                <th scope="col">n</th>
                <th scope="col">passed ({reward})</th>
                <th scope="col">contract</th>
                <th scope="col">recorded</th>
              </tr>
            </thead>
            <tbody>
              {metrics.by_task.map((g) => (
                <tr key={g.key ?? "(none)"} data-key={g.key ?? ""}>
                  <th scope="row">
                    {g.key === null ? (
                      "(none)"
                    ) : g.task?.scoped && g.task.agent === null ? (
                      // No filter names rollouts without an agent apart from the others' same task.
                      g.key
                    ) : (
                      <button type="button" className="link-button" onClick={() => onTask(g)}>
                        {g.key}
                      </button>
                    )}
                  </th>
                  <td>{g.n}</td>
                  <td>{g.passed}</td>
                  <td>{mean(g.mean.contract)}</td>
                  <td>{mean(g.mean.recorded)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
});
