"use client";
import { Fragment } from "react";
import { HARNESS_LABELS, type HarnessId } from "@/lib/harness";
import { Reward, styles } from "./common";
import type { RepairRolloutView, RepairView } from "./types";

export interface ServerDraft {
  readonly name: string;
  /** Comma-separated, as typed. */
  readonly tools: string;
}

interface ServerEditorProps {
  servers: readonly ServerDraft[];
  onChange(servers: ServerDraft[]): void;
}

/** The MCP servers the run had, in configuration order: a name and a comma-separated tool list each. */
export function ServerEditor({ servers, onChange }: ServerEditorProps) {
  const set = (i: number, patch: Partial<ServerDraft>) =>
    onChange(servers.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  return (
    <div className={styles.serverRows}>
      <span className={styles.pickerLabel}>MCP servers the run had (configuration order)</span>
      {servers.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the configuration order.
        <div key={i} className={styles.serverRow} data-server-row={i}>
          <input
            value={s.name}
            placeholder="server name"
            aria-label={`server ${i + 1} name`}
            data-testid={`repair-server-${i}`}
            onChange={(e) => set(i, { name: e.target.value })}
          />
          <textarea
            value={s.tools}
            placeholder="tool_a, tool_b, …"
            aria-label={`server ${i + 1} tools`}
            data-testid={`repair-tools-${i}`}
            rows={2}
            onChange={(e) => set(i, { tools: e.target.value })}
          />
          <button
            type="button"
            className="button-small"
            onClick={() => onChange(servers.filter((_, j) => j !== i))}
            disabled={servers.length === 1}
          >
            remove
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          className="button-small"
          onClick={() => onChange([...servers, { name: "", tools: "" }])}
        >
          + add server
        </button>
      </div>
    </div>
  );
}

const REASON_HELP: Record<string, string> = {
  no_call_id: "the call has no usable call_id, so no map entry can name it",
  duplicate_call_id: "its call_id is shared with another call: an entry would be ambiguous",
  collision: "two or more (server, tool) identities produce this alias under the harness",
  no_match: "no configured (server, tool) produces this name under the harness",
};

function RolloutRow({ r }: { r: RepairRolloutView }) {
  return (
    <tr
      data-repair-line={r.line}
      data-repair-status={r.status}
      data-before={String(r.before)}
      data-after={String(r.after)}
    >
      <td className={`${styles.num} ${styles.lineLink}`}>{r.line}</td>
      <td>
        <span
          className={`${styles.statusTag} ${r.status === "repaired" ? styles.provYes : "muted"}`}
          title={r.message}
        >
          {r.status}
        </span>
      </td>
      <td>
        {r.derived.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <div className={styles.mapping}>
            {r.derived.map((d) => (
              <div key={d.call_id} className={styles.mappingRow}>
                <code className="muted">{d.call_id}</code>
                <span className={styles.arrow}>→</span>
                <code>
                  {d.server_name} / {d.tool_name}
                </code>
              </div>
            ))}
          </div>
        )}
      </td>
      <td>
        {r.unresolved.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <div className={styles.leftOut}>
            {r.unresolved.map((u, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: unresolved calls are listed in call order.
              <div key={i} title={u.message}>
                <span className={styles.reason} title={REASON_HELP[u.reason]}>
                  {u.reason}
                </span>
                <code>{u.emitted}</code>
                {u.call_id !== null && <span className="muted"> ({u.call_id})</span>}
              </div>
            ))}
          </div>
        )}
        {r.status !== "repaired" && r.status !== "unchanged" && (
          <div className={styles.fileMeta}>{r.message}</div>
        )}
      </td>
      <td className={styles.num}>
        <Reward value={r.recorded} muted />
      </td>
      <td className={styles.num}>
        <Reward value={r.before} />
      </td>
      <td className={styles.num}>
        <Reward value={r.after} />
        {r.after_error && (
          // Folded: a run's lines often share one long reason (task data missing), said once per opened row.
          <details className={styles.cellReason}>
            <summary className={styles.error}>not scored</summary>
            <div className={styles.error}>{r.after_error}</div>
          </details>
        )}
      </td>
    </tr>
  );
}

interface RepairResultProps {
  view: RepairView;
  stale: boolean;
  downloading: boolean;
  saved: string | null;
  downloadError: string | null;
  onDownload(): void;
  /** Repair under another harness (a suggested one). */
  onHarness(harness: HarnessId): void;
}

export function RepairResult({
  view,
  stale,
  downloading,
  saved,
  downloadError,
  onDownload,
  onHarness,
}: RepairResultProps) {
  const before = view.rollouts.filter((r) => r.before === 1).length;
  const after = view.rollouts.filter((r) => r.after === 1).length;
  const reasons = Object.entries(view.unresolved).filter(([, n]) => n > 0);
  return (
    <>
      <div className={styles.derivedBanner} data-testid="repair-banner">
        <span className={styles.derivedTag}>DERIVED PROVENANCE</span>
        {view.repaired === 0 ? (
          // Writing the file back unchanged is no repair: say why nothing matched instead of offering it.
          view.skipped === view.rollouts.length ? (
            <p data-testid="repair-nothing">
              Nothing to repair: every rollout of <code>{view.file}</code> already carries a{" "}
              <code>mcp_tool_call_provenance</code> map, which the repair never replaces.
            </p>
          ) : (
            <p data-testid="repair-nothing">
              Nothing to repair: no call of <code>{view.file}</code> is emitted under a <b>{view.harness}</b>{" "}
              alias of a known tool, so no <code>mcp_tool_call_provenance</code> map can be derived (calls
              with bare tool names, as over HTTP, need none)
              {view.skipped > 0 ? `; ${view.skipped} rollouts already carry a map` : ""}. Why each call was
              left out is listed below
              {view.suggested.length === 0 ? (
                "; try another harness if the run was not made with this one."
              ) : (
                <>
                  . Its names look like{" "}
                  {view.suggested.length === 1
                    ? `${HARNESS_LABELS[view.suggested[0] ?? view.harness]}'s aliases of these tools`
                    : "the aliases of these tools these harnesses share"}{" "}
                  (inferred from the names): repair under{" "}
                  {view.suggested.map((harness, at) => (
                    <Fragment key={harness}>
                      {at === 0 ? "" : at === view.suggested.length - 1 ? " or " : ", "}
                      <button
                        type="button"
                        className="button-small"
                        onClick={() => onHarness(harness)}
                        data-testid="repair-suggested"
                        data-harness={harness}
                      >
                        {HARNESS_LABELS[harness]}
                      </button>
                    </Fragment>
                  ))}
                  .
                </>
              )}
            </p>
          )
        ) : (
          <p>
            {view.repaired} of {view.rollouts.length} rollouts of <code>{view.file}</code> get a{" "}
            <code>mcp_tool_call_provenance</code> map derived from the exact <b>{view.harness}</b> alias map (
            {view.derived_calls} calls), labelled by <code>mcp_tool_call_provenance_derived</code>. Nothing
            was recorded by the harness; every other byte of the file is kept.
          </p>
        )}
        {view.repaired > 0 && (
          <button
            type="button"
            className="button-primary"
            onClick={onDownload}
            disabled={downloading || stale}
            data-testid="repair-download"
            title={stale ? "the form changed: run the repair again first" : `${view.output_bytes} bytes`}
          >
            {downloading ? "Preparing…" : "Download repaired JSONL"}
          </button>
        )}
      </div>
      {stale && (
        <div className="banner">The form changed since this repair ran: run it again to download.</div>
      )}
      {saved && (
        <div className="muted" data-testid="repair-saved">
          Saved {saved}.
        </div>
      )}
      {downloadError && (
        <div className="banner banner-error" role="alert">
          {downloadError}
        </div>
      )}
      <div className={styles.summary} data-testid="repair-summary" data-repaired={view.repaired}>
        <div className={`${styles.stat} ${styles.toneGood}`}>
          <span className={styles.statValue}>{view.repaired}</span>
          <span className={styles.statLabel}>rollouts repaired · {view.changed_lines} lines changed</span>
        </div>
        <div className={`${styles.stat} ${styles.toneNeutral}`}>
          <span className={styles.statValue}>{view.unchanged + view.skipped}</span>
          <span className={styles.statLabel}>left as they were · {view.skipped} already had a map</span>
        </div>
        <div className={`${styles.stat} ${reasons.length > 0 ? styles.toneChanged : styles.toneNeutral}`}>
          <span className={styles.statValue}>{reasons.reduce((n, [, c]) => n + c, 0)}</span>
          <span className={styles.statLabel}>
            calls left out{reasons.length > 0 ? `: ${reasons.map(([r, n]) => `${r} ${n}`).join(", ")}` : ""}
          </span>
        </div>
        <div className={`${styles.stat} ${after >= before ? styles.toneGood : styles.toneBad}`}>
          <span className={styles.statValue}>
            {before} → {after}
          </span>
          <span className={styles.statLabel}>rollouts scoring 1 under the contract, before → after</span>
        </div>
      </div>
      {view.collisions.length > 0 && (
        <div className="banner">
          <div>
            <b>Alias collisions in this configuration</b> (calls with these names stay out):
            {view.collisions.map((c) => (
              <div key={c.alias} className="mono">
                {c.alias} ← {c.identities.join(", ")}
              </div>
            ))}
          </div>
        </div>
      )}
      <table className={styles.table} data-testid="repair-table">
        <thead>
          <tr>
            <th className={styles.num}>line</th>
            <th>status</th>
            <th>derived: call_id → server / tool</th>
            <th>left out (reason)</th>
            <th className={styles.num}>recorded</th>
            <th className={styles.num}>before</th>
            <th className={styles.num}>after repair</th>
          </tr>
        </thead>
        <tbody>
          {view.rollouts.map((r) => (
            <RolloutRow key={r.line} r={r} />
          ))}
        </tbody>
      </table>
      <pre className={styles.summaryText}>{view.summary_text}</pre>
    </>
  );
}
