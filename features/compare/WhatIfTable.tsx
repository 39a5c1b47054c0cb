"use client";
import { Fragment } from "react";
import { formatReward } from "@/components/badges";
import { Reward, styles } from "./common";
import type { RolloutListEntry, WhatIfView } from "./types";

function entryLabel(e: RolloutListEntry): string {
  const task = e.task_index === null ? "" : ` · task ${e.task_index}:${e.rollout_index ?? "?"}`;
  return `line ${e.line}${task} · reward ${formatReward(e.recorded)} · ${e.calls} calls`;
}

export function RolloutSelect({
  entries,
  line,
  onLine,
}: {
  entries: readonly RolloutListEntry[];
  line: number | null;
  onLine(line: number): void;
}) {
  return (
    <div className={styles.picker}>
      <span className={styles.pickerLabel}>Rollout</span>
      <div className={styles.pickerRow}>
        <select
          value={line ?? ""}
          onChange={(e) => onLine(Number(e.target.value))}
          data-testid="whatif-line"
          aria-label="Rollout"
        >
          {line === null && <option value="">choose a rollout…</option>}
          {entries.map((e) => (
            <option key={e.line} value={e.line}>
              {entryLabel(e)}
            </option>
          ))}
        </select>
      </div>
      <span className={styles.fileMeta}>{entries.length} rollouts in the file</span>
    </div>
  );
}

function uniqueNames(names: readonly string[]): string[] {
  return [...new Set(names)];
}

export function WhatIfTable({ view }: { view: WhatIfView }) {
  if (view.error !== null && (view.error_kind === "no_calls" || view.error_kind === "no_port")) {
    return (
      <div className="banner" data-testid="whatif-nothing">
        <span>
          Nothing to try for line {view.line}: {view.error}
        </span>
      </div>
    );
  }
  if (view.error !== null) {
    return (
      <div className="banner banner-error" role="alert">
        What-if could not run for line {view.line}: {view.error}
      </div>
    );
  }
  // Without a bare HTTP reward there is nothing to compare a variant with (lib says no row equals it):
  // only the names are shown.
  const scored = view.http.reward !== null;
  const breaking = scored ? view.rows.filter((r) => !r.equals_http) : [];
  // One error every variant has (a line that cannot be verified whatever its names): said once, above.
  const first = view.rows[0]?.error ?? null;
  // HTTP's error, or HTTP's followed by the pairing's reason (said on the task row's line above): said above.
  const httpError = view.http.error;
  const asHttp = (error: string) => httpError !== null && error.startsWith(httpError);
  const sharedError =
    view.rows.length > 1 && first !== null && view.rows.every((r) => r.error === first) ? first : null;
  const withProv = view.rows.filter((r) => r.with_provenance);
  const withoutProv = view.rows.filter((r) => !r.with_provenance);
  return (
    <>
      <div className={styles.httpLine} data-testid="whatif-http" data-reward={String(view.http.reward)}>
        <div>
          <div className={styles.pickerLabel}>bare HTTP reward</div>
          <div className={styles.httpReward}>
            <Reward value={view.http.reward} />
          </div>
        </div>
        <div>
          <div className={styles.pickerLabel} title={view.server_reason} data-testid="whatif-server">
            verifier sees ({view.server})
          </div>
          <div className={styles.names}>
            {uniqueNames(view.http.names).map((n) => (
              <span key={n}>{n}</span>
            ))}
          </div>
        </div>
        <div>
          <div className={styles.pickerLabel}>recorded in the file</div>
          <div className={styles.httpReward}>
            <Reward value={view.recorded} muted />
          </div>
        </div>
        <div className={styles.note} data-testid="whatif-verdict" data-scored={String(scored)}>
          {!scored && (
            <div>
              <b>No reward could be computed for this rollout</b>, so no variant can be compared with HTTP:
              the table shows only what each harness would emit and what the verifier would see.
            </div>
          )}
          {scored && (
            <div>
              <b className={withProv.every((r) => r.equals_http) ? styles.okMark : styles.breakMark}>
                With provenance: {withProv.filter((r) => r.equals_http).length} of {withProv.length} equal
                HTTP.
              </b>{" "}
              Without: {withoutProv.filter((r) => r.equals_http).length} of {withoutProv.length} survive
              {withoutProv.some((r) => r.equals_http)
                ? ` (${withoutProv
                    .filter((r) => r.equals_http)
                    .map((r) => r.harness)
                    .join(", ")})`
                : ""}
              .
            </div>
          )}
          {breaking.length > 0 && (
            <div>
              Break:{" "}
              {breaking
                .map((r) => `${r.harness} ${r.with_provenance ? "with" : "without"} provenance`)
                .join(", ")}
              .
            </div>
          )}
          {view.input && (
            <div
              // Not paired, or paired by index with a row of another task input: both put the reward in doubt.
              className={view.input.paired && !view.input.disagrees ? "muted" : styles.error}
              data-testid="whatif-input"
              data-paired={String(view.input.paired)}
              data-disagrees={String(view.input.disagrees)}
            >
              Task row in {view.input.file}: {view.input.reason}
            </div>
          )}
          {view.http.error && <div className={styles.error}>{view.http.error}</div>}
          {sharedError !== null && !asHttp(sharedError) && (
            <div className={styles.error} data-testid="whatif-shared-error">
              Every variant: {sharedError}
            </div>
          )}
        </div>
      </div>
      <table className={styles.table} data-testid="whatif-table">
        <thead>
          <tr>
            <th>harness</th>
            <th>provenance</th>
            <th>emitted names</th>
            <th>verifier sees</th>
            <th className={styles.num}>reward</th>
            <th className={styles.num}>HTTP</th>
            <th>result</th>
          </tr>
        </thead>
        <tbody>
          {view.rows.map((row, i) => (
            <Fragment key={`${row.harness}-${row.with_provenance}`}>
              <tr
                className={`${row.with_provenance && i > 0 ? styles.groupStart : ""} ${!scored || row.equals_http ? "" : styles.breaks}`}
                data-harness={row.harness}
                data-with-provenance={String(row.with_provenance)}
                data-reward={String(row.reward)}
                data-http-reward={String(view.http.reward)}
                data-equals-http={String(row.equals_http)}
              >
                <td>
                  {row.with_provenance ? (
                    <>
                      <div className={styles.harnessName}>{row.label}</div>
                      <div className={styles.harnessId}>{row.harness}</div>
                    </>
                  ) : (
                    <div className={styles.harnessId}>↳ {row.harness}</div>
                  )}
                </td>
                <td className={row.with_provenance ? styles.provYes : styles.provNo}>
                  {row.with_provenance ? "with map" : "without map"}
                </td>
                <td>
                  <div className={styles.names}>
                    {uniqueNames(row.emitted).map((n) => (
                      <span key={n}>{n}</span>
                    ))}
                  </div>
                </td>
                <td>
                  <div className={styles.names}>
                    {uniqueNames(row.verifier_names).map((n) => (
                      <span key={n}>{n}</span>
                    ))}
                  </div>
                  <div className={styles.fileMeta}>{uniqueNames(row.statuses).join(", ")}</div>
                </td>
                <td className={styles.num}>
                  <Reward value={row.reward} />
                </td>
                <td className={styles.num}>
                  <Reward value={view.http.reward} muted />
                </td>
                <td>
                  {!scored ? (
                    <span className="muted">no reward</span>
                  ) : row.equals_http ? (
                    <span className={styles.okMark}>= HTTP</span>
                  ) : (
                    <span className={styles.breakMark}>breaks</span>
                  )}
                  {/* The HTTP run's own error is said once, above the table, not again on every row. */}
                  {row.error &&
                    (asHttp(row.error) ? (
                      <div className="muted">unverified, as HTTP (above)</div>
                    ) : row.error === sharedError ? (
                      <div className="muted">unverified, as every variant (above)</div>
                    ) : (
                      <div className={styles.error}>{row.error}</div>
                    ))}
                </td>
              </tr>
            </Fragment>
          ))}
        </tbody>
      </table>
      <p className={styles.note}>
        {view.server_reason} Each harness re-emits this rollout's calls to <code>{view.server}</code> under
        its own alias, once with a provenance map built from its exact alias map and once without; each
        variant is verified under the contract. With provenance every variant must equal HTTP. Without it only{" "}
        <code>mcp__{view.server}__</code> names survive, through the legacy fallback.
      </p>
    </>
  );
}
