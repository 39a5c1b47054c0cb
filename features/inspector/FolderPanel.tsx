"use client";
import { useState } from "react";
import badges from "@/components/badges.module.css";
import { cx } from "@/components/cx";
import { PathText } from "@/components/PathText";
import {
  FILE_ROLE_LABEL,
  FILE_ROLES,
  type FileRole,
  type FolderRunView,
  type FolderSummary,
  formatFigure,
  type GymMetrics,
  type GymMetricsView,
} from "@/hooks/types";
import { hiddenText, readFileRole } from "@/lib/folder";
import styles from "./FolderPanel.module.css";

function GymNumbers({ metrics }: { metrics: GymMetrics }) {
  if (metrics.kind === "dataset") {
    return (
      <ul className={styles.folderMetricsList}>
        <li>
          Number of examples: <span className="mono">{metrics.examples}</span>
        </li>
        {metrics.stats.map((stat) => (
          <li key={stat.field}>
            {stat.field}: average <span className="mono">{stat.average ?? "–"}</span>
            {stat.min !== undefined && stat.max !== undefined && (
              <span className="muted">
                {" "}
                ({stat.min}–{stat.max})
              </span>
            )}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className={styles.folderMetricsList}>
      {metrics.agents.map((agent) => (
        <li key={agent.agent}>
          <span className="mono">{agent.agent}</span>:{" "}
          {Object.entries(agent.numbers)
            .map(([key, value]) => `${key} ${value}`)
            .join(" · ")}
        </li>
      ))}
    </ul>
  );
}

function RunLine({ run }: { run: FolderRunView }) {
  return (
    <li data-run={run.rollouts}>
      <span className="mono">{run.rollouts}</span>:{" "}
      {run.configs.length > 0 ? (
        <>
          {/* Every config beside the file, not only those its lines' agents use: each line's own is in its detail. */}
          read with the Gym {run.configs.length === 1 ? "config" : "configs"}{" "}
          <span className="mono">{run.configs.join(", ")}</span>
          {run.servers.length > 0
            ? ` (${run.configs.length === 1 ? "it routes" : "they route"} agents to ${run.servers.join(", ")})`
            : " (no agent routed to a server)"}
        </>
      ) : (
        "no Gym config beside it"
      )}
      {"; "}
      {run.inputs.length > 0 ? (
        <>
          task rows offered for pairing: <span className="mono">{run.inputs.join(", ")}</span> (the file chip
          counts the rollouts paired)
        </>
      ) : (
        "no task rows to pair with"
      )}
      .
    </li>
  );
}

/** A file Gym's runs are made of (rollouts, task rows, configs, metrics), by its name. */
const DATA_FILE = /\.(jsonl|json|ya?ml)(\.gz)?$/i;

/** Files the table shows unfolded at most; a longer one starts folded whatever it holds. */
const FOLDER_TABLE_OPEN_MAX = 12;
/**
 * Rollouts files whose lines (what each is read with) are shown unfolded at most: Gym's environments/ tree
 * has 12, whose lines stood ~600 px above the whole folder's answer at 1440 px.
 */
export const FOLDER_RUNS_OPEN_MAX = 3;

/**
 * The files whose role needs a look: data files no role was recognised for (a server folder's README.md or
 * app.py are not data, so they never count).
 */
function unrecognised(folder: FolderSummary): number {
  return folder.files.filter((file) => file.role === "ignore" && DATA_FILE.test(file.path)).length;
}

/**
 * Whether the folder's file table needs a look: an unrecognised data file, no rollouts file, or a rollouts
 * file without a config or task rows beside it. Otherwise it starts folded, so the rollouts are on the first
 * screen (a Gym example folder's table and the why-zero breakdown filled ~700 px above them).
 */
export function folderNeedsALook(folder: FolderSummary): boolean {
  return (
    unrecognised(folder) > 0 ||
    folder.runs.length === 0 ||
    folder.runs.some((run) => run.configs.length === 0 || run.inputs.length === 0)
  );
}

/**
 * The opened folder: every file with the role lib/folder gave it and why (a select changes it, and the
 * folder is planned again), and what each rollouts file is read with (always shown).
 */
export function FolderPanel({
  folder,
  onRole,
  busy,
}: {
  folder: FolderSummary;
  onRole(path: string, role: FileRole): void;
  busy: boolean;
}) {
  // Decided when the folder opens, then the user's: a role changed in the table never folds it away.
  const [open, setOpen] = useState(
    () => folderNeedsALook(folder) && folder.files.length <= FOLDER_TABLE_OPEN_MAX,
  );
  const odd = unrecognised(folder);
  const hidden = hiddenText(folder.hidden);
  return (
    <div className={styles.folderPanel}>
      <details data-testid="folder-panel" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          {folder.picked ? (
            "Files picked together, read as a folder"
          ) : (
            <>
              Folder <span className="mono">{folder.name}</span>
            </>
          )}
          : {folder.files.length} file
          {folder.files.length === 1 ? "" : "s"}, {folder.runs.length} rollouts file
          {folder.runs.length === 1 ? "" : "s"}
          {odd > 0
            ? ` (${odd} JSON or YAML ${odd === 1 ? "file" : "files"} not recognised as rollouts, task rows, a Gym config or Gym metrics)`
            : ""}
          {hidden === null ? "" : `; ${hidden}`}
          {open ? "" : ": each file's role and why"}
        </summary>
        <table className={styles.folderFiles}>
          <thead>
            <tr>
              <th>file</th>
              <th>role</th>
              <th>why</th>
            </tr>
          </thead>
          <tbody>
            {folder.files.map((file) => (
              <tr key={file.path} data-folder-file={file.path} data-role={file.role}>
                <td className="mono">
                  <PathText path={file.path} />
                </td>
                <td>
                  <select
                    value={file.role}
                    disabled={busy}
                    aria-label={`Role of ${file.path}`}
                    data-testid="role-select"
                    onChange={(event) => {
                      const role = readFileRole(event.target.value);
                      if (role !== null) onRole(file.path, role);
                    }}
                  >
                    {FILE_ROLES.map((role) => (
                      <option key={role} value={role}>
                        {FILE_ROLE_LABEL[role]}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {file.chosen && <span className={cx(badges.badge, badges.tone_none)}>chosen</span>}{" "}
                  {file.reason}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {folder.runs.length > 0 && folder.runs.length <= FOLDER_RUNS_OPEN_MAX && (
        <ul className={styles.folderRuns} data-testid="folder-runs">
          {folder.runs.map((run) => (
            <RunLine key={run.rollouts} run={run} />
          ))}
        </ul>
      )}
      {/* Gym's whole tree (86 rollouts files): one line each stood 6,000 px above the inspector. */}
      {folder.runs.length > FOLDER_RUNS_OPEN_MAX && (
        <details className={styles.folderRuns} data-testid="folder-runs-folded">
          <summary>What each of the {folder.runs.length} rollouts files is read with</summary>
          <ul data-testid="folder-runs">
            {folder.runs.map((run) => (
              <RunLine key={run.rollouts} run={run} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** One metrics file's figures: Gym's, ours and the difference named, one row each (lib/folder compareMetrics). */
function Comparisons({ view }: { view: GymMetricsView }) {
  const { report } = view;
  return (
    <>
      <table className={cx(styles.folderFiles, styles.metricsTable)} data-testid="metrics-comparisons">
        <thead>
          <tr>
            <th>figure</th>
            <th>of</th>
            <th>Gym</th>
            <th>ours</th>
            <th>difference</th>
          </tr>
        </thead>
        <tbody>
          {report.comparisons.map((c) => (
            <tr
              key={`${c.scope}\u0000${c.metric}`}
              data-metric={c.metric}
              data-same={c.same ? "true" : "false"}
              title={c.sentence}
            >
              <td>{c.metric}</td>
              <td className="mono">{c.scope}</td>
              <td className="mono">{formatFigure(c.gym)}</td>
              <td className="mono">{c.ours === null ? "–" : formatFigure(c.ours)}</td>
              <td>
                {c.ours !== null && !c.same ? (
                  <span className={cx(badges.badge, badges.tone_mismatched)}>{c.verdict}</span>
                ) : (
                  c.verdict
                )}{" "}
                <span className="muted">({c.source})</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p data-testid="metrics-summary">{report.summary}</p>
      {report.not_recomputed.length > 0 && (
        <p className="muted">Not recomputed here: {report.not_recomputed.join(", ")}.</p>
      )}
    </>
  );
}

/**
 * Gym's own numbers for the run on screen (its metrics files) beside the recomputed figures, each difference
 * named. `views` (the worker's comparison) is undefined until every reward is in: Gym's figures show alone.
 */
export function GymMetricsPanel({
  run,
  views,
}: {
  run: FolderRunView;
  views: readonly GymMetricsView[] | undefined;
}) {
  if (run.metrics.length === 0) return null;
  const compared = (views ?? []).flatMap((v) => v.report.comparisons).filter((c) => c.ours !== null);
  const differ = compared.filter((c) => !c.same);
  return (
    <details className={styles.gymMetrics} data-testid="gym-metrics" open={differ.length > 0}>
      <summary>
        Gym&apos;s own numbers beside ours ({run.metrics.map((m) => m.path).join(", ")})
        {views === undefined
          ? ": recomputing…"
          : differ.length > 0
            ? `: ${differ.length} difference${differ.length === 1 ? "" : "s"}`
            : // Nothing open to recompute from (task rows set aside): no agreement to claim.
              compared.length === 0
              ? ": none recomputed here"
              : `: ${compared.length} recomputed ${compared.length === 1 ? "figure agrees" : "figures agree"}`}
      </summary>
      {run.metrics.map((m) => {
        const view = views?.find((v) => v.path === m.path);
        return (
          <div key={m.path} data-metrics-file={m.path}>
            <p className="muted">{m.metrics.description}</p>
            {view === undefined ? <GymNumbers metrics={m.metrics} /> : <Comparisons view={view} />}
          </div>
        );
      })}
    </details>
  );
}
