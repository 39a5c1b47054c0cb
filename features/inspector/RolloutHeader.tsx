import { memo } from "react";
import { cx } from "@/components/cx";
import { Name } from "@/components/Name";
import type { DetailView } from "@/hooks/types";
import { DERIVED_KEY } from "@/lib/repair/repair";
import styles from "./RolloutHeader.module.css";

const MAP_STATE_HELP = {
  unknown: "no provenance map: historical trajectory, the legacy fallback may run",
  authoritative: "provenance map present: a call_id missing from it is a non-MCP call",
  invalid: "the provenance map is not an object: no canonicalization and no fallback",
} as const;

export const RolloutHeader = memo(function RolloutHeader({
  view,
  fileName,
}: {
  view: DetailView;
  fileName: string;
}) {
  const { entry } = view;
  // A map written by `repair` carries its label beside it: it was derived from aliases, not recorded.
  const derived = view.extra_fields.find((field) => field.key === DERIVED_KEY);
  return (
    <header className={styles.detailHead}>
      <div className="detail-title">
        <h2>
          <span className="muted">{fileName}</span> line {view.line}
        </h2>
        <div className={styles.facts}>
          {entry.task_index !== null && (
            <span className={styles.fact}>
              task <b className="mono">{entry.task_index}</b> / rollout{" "}
              <b className="mono">{entry.rollout_index}</b>
            </span>
          )}
          {entry.task_id !== null && (
            <span className={styles.fact}>
              id <b className="mono">{entry.task_id}</b>
            </span>
          )}
          <span className={styles.fact}>
            agent <b className="mono">{entry.agent ?? "—"}</b>
          </span>
          <span className={styles.fact}>
            environment{" "}
            <b className="mono">{entry.environment === null ? "—" : <Name value={entry.environment} />}</b>
          </span>
          <span
            className={cx(styles.fact, styles[`map_${entry.map_state}`])}
            title={MAP_STATE_HELP[entry.map_state]}
            data-map-state={entry.map_state}
          >
            provenance map <b>{entry.map_state}</b>
          </span>
          {derived && (
            <span
              className={cx(styles.fact, styles.map_derived)}
              title={`${DERIVED_KEY}: ${derived.preview}`}
              data-testid="derived-provenance"
            >
              <b>derived</b> by repair from aliases, not recorded by the harness
            </span>
          )}
          {entry.paired && <span className={styles.fact}>paired with its materialized input</span>}
        </div>
      </div>
      {view.findings.length > 0 && (
        <ul className={styles.findings}>
          {view.findings.map((finding) => (
            <li
              key={finding.kind}
              className={cx(styles.finding, styles[`finding_${finding.kind}`])}
              data-finding={finding.kind}
            >
              <b>{finding.kind.replace(/_/g, " ")}</b>: {finding.message}
            </li>
          ))}
        </ul>
      )}
    </header>
  );
});

export const TaskFields = memo(function TaskFields({ fields }: { fields: DetailView["extra_fields"] }) {
  if (fields.length === 0) return null;
  return (
    <details className={styles.fields}>
      <summary>task and Gym fields ({fields.length})</summary>
      <dl>
        {fields.map((field) => (
          <div key={field.key} className={styles.field}>
            <dt className="mono">{field.key}</dt>
            <dd className="mono">{field.preview}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
});
