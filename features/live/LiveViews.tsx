"use client";
/** Live mode's presentational views: props in, nothing fetched. Server text is rendered as text only. */
import type { ReactNode } from "react";
import type { Policy } from "@/lib/identity/types";
import {
  CALL_VERDICTS,
  type CallVerdict,
  type ConnectReport,
  ERROR_KIND_LABEL,
  type LiveErrorKind,
  type ParityReport,
  type PolicyTally,
  type ReplayedCall,
  type RolloutCheck,
} from "@/lib/live";
import styles from "./live.module.css";

export { styles };

export function ErrorLine({ kind, message }: { kind: LiveErrorKind; message: string }) {
  return (
    <p className={styles.error} role="alert" data-error-kind={kind}>
      <strong>{ERROR_KIND_LABEL[kind]}</strong>: {message}
    </p>
  );
}

/** A problem with the file to replay (not a server's answer: no error kind of the live check). */
export function FileProblem({ message }: { message: string }) {
  return (
    <p className={styles.error} role="alert" data-error-kind="file">
      {message}
    </p>
  );
}

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </>
  );
}

export function ConnectView({ report }: { report: ConnectReport }) {
  if (!report.seed.ok)
    return <ErrorLine kind={report.seed.kind} message={`/seed_session: ${report.seed.message}`} />;
  const mcp = report.seed.value.mcp;
  if (mcp === null)
    return <p className={styles.error}>/seed_session answered without an mcp block: MCP exposure is off.</p>;
  const token = report.token;
  const session = report.session;
  const replies = Object.entries(report.wire?.replies ?? {})
    .map(([type, n]) => `${type} ×${n}`)
    .join(", ");
  return (
    <div className={styles.grid} data-testid="live-connect">
      <section>
        <h3>/seed_session · mcp block</h3>
        <dl className={styles.fields}>
          <Field label="server_name" value={mcp.server_name} testId="live-server-name" />
          <Field label="url_path" value={mcp.url_path} />
          <Field label="transport" value={mcp.transport} />
          <Field label="headers" value={Object.keys(mcp.headers).join(", ") || "none"} />
        </dl>
      </section>
      <section>
        <h3>Session token claims</h3>
        {token === null && <p className="muted">No session token in the mcp headers.</p>}
        {token !== null && !token.ok && <ErrorLine kind={token.kind} message={token.message} />}
        {token?.ok && (
          <dl className={styles.fields}>
            <Field label="sid" value={token.value.sid ?? "(none)"} />
            <Field
              label="allowed tools"
              value={
                token.value.tools === null
                  ? "all tools (no allow-list)"
                  : token.value.tools === undefined
                    ? "no tools claim"
                    : token.value.tools.join(", ")
              }
              testId="live-allowed-tools"
            />
            <Field
              label="signature"
              value="not checked: the signing secret stays on the server, so these claims are shown, not trusted"
              testId="live-signature"
            />
          </dl>
        )}
      </section>
      <section>
        <h3>MCP session (official SDK client)</h3>
        {session !== null && !session.ok && <ErrorLine kind={session.kind} message={session.message} />}
        {session?.ok && (
          <dl className={styles.fields}>
            <Field
              label="protocol version"
              value={session.value.protocolVersion ?? "?"}
              testId="live-protocol"
            />
            <Field
              label="session id"
              value={session.value.sessionId ?? "none (stateless server)"}
              testId="live-session-id"
            />
            <Field
              label="server"
              value={
                session.value.server ? `${session.value.server.name} ${session.value.server.version}` : "?"
              }
            />
            <Field label="replies" value={replies || "none"} testId="live-replies" />
            <Field label="DELETE on close" value={report.wire?.deleteOnClose ?? "?"} testId="live-delete" />
          </dl>
        )}
        {report.tools !== null && !report.tools.ok && (
          <ErrorLine kind={report.tools.kind} message={`tools/list: ${report.tools.message}`} />
        )}
        {report.openapi !== null && !report.openapi.ok && (
          <ErrorLine kind={report.openapi.kind} message={`openapi.json: ${report.openapi.message}`} />
        )}
      </section>
    </div>
  );
}

/** A scrolling table with a sticky header row: the skeleton of every live table. */
function ScrollTable({
  head,
  testId,
  children,
}: {
  head: readonly string[];
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.scroll}>
      <table className={styles.table} data-testid={testId}>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

function schemaParams(schema: unknown): string {
  if (schema === null || typeof schema !== "object" || !("properties" in schema)) return "(any object)";
  const props = schema.properties;
  if (props === null || typeof props !== "object") return "(any object)";
  const names = Object.keys(props);
  return names.length === 0 ? "(any object)" : names.join(", ");
}

export function ParityView({ report, pages }: { report: ParityReport; pages: number }) {
  return (
    <section data-testid="live-parity" data-differences={report.differences} data-tools={report.mcpTools}>
      <p className={report.differences === 0 ? styles.ok : styles.bad} data-testid="live-parity-summary">
        {report.mcpTools} MCP tools ({pages} page{pages === 1 ? "" : "s"}) · {report.httpRoutes} HTTP tool
        routes
        {report.catchAll !== null && ` + catch-all POST ${report.catchAll}`} · {report.differences} difference
        {report.differences === 1 ? "" : "s"}
      </p>
      <ScrollTable head={["tool", "MCP input schema", "HTTP route", "difference"]}>
        {report.rows.map((row) => (
          <tr
            key={row.name}
            className={row.differences.length > 0 ? styles.rowBad : undefined}
            data-parity-tool={row.name}
            data-difference={row.differences.map((d) => d.kind).join(" ")}
          >
            <td className={styles.mono}>{row.name}</td>
            <td className={styles.mono}>
              {row.mcp === null ? "not listed" : schemaParams(row.mcp.inputSchema)}
            </td>
            <td className={styles.mono}>
              {row.http === null
                ? "none"
                : `POST ${row.http.path}${row.http.via === "catch-all" ? " (catch-all)" : ""} · ${schemaParams(row.http.inputSchema)}`}
            </td>
            <td>
              {row.differences.map((d) => (
                <div key={d.kind}>
                  <strong>{d.kind.replace(/_/g, " ")}</strong>: {d.message}
                </div>
              ))}
              {row.differences.length === 0 && <span className="muted">{row.note ?? "same"}</span>}
            </td>
          </tr>
        ))}
      </ScrollTable>
    </section>
  );
}

const VERDICT_TEXT: Record<CallVerdict, string> = {
  same: "same bytes",
  differs: "outputs differ",
  error_by_transport: "error, by transport",
  failed: "no answer",
  skipped: "skipped",
};

function DoorCell({ call, door }: { call: ReplayedCall; door: "http" | "mcp" }) {
  const outcome = call[door];
  if (outcome === null) return <span className="muted">not called</span>;
  if (!outcome.ok) return <ErrorLine kind={outcome.kind} message={outcome.message} />;
  const head =
    "status" in outcome.answer
      ? `HTTP ${outcome.answer.status}`
      : outcome.answer.isError
        ? "isError: true"
        : "isError: false";
  const text = "status" in outcome.answer ? outcome.answer.body : outcome.answer.text;
  return (
    <div>
      <div className={styles.doorHead}>{head}</div>
      <pre className={styles.pre}>{text}</pre>
    </div>
  );
}

export function ReplayView({ check }: { check: RolloutCheck }) {
  const { replay } = check;
  return (
    <section data-testid="live-replay" data-line={check.line} data-policy={check.policy}>
      {replay.error !== null && <ErrorLine kind={replay.error.kind} message={replay.error.message} />}
      <ScrollTable head={["#", "emitted → called as", "arguments", "HTTP door", "MCP door", "verdict"]}>
        {replay.calls.map((call) => (
          <tr
            key={call.index}
            data-call-verdict={call.verdict}
            className={call.verdict === "differs" || call.verdict === "failed" ? styles.rowBad : undefined}
          >
            <td>{call.index}</td>
            <td className={styles.mono}>
              {call.emitted}
              {call.emitted !== call.name && <div>→ {call.name}</div>}
            </td>
            <td>
              <pre className={styles.pre}>{call.arguments}</pre>
            </td>
            <td>
              <DoorCell call={call} door="http" />
            </td>
            <td>
              <DoorCell call={call} door="mcp" />
            </td>
            <td>
              {VERDICT_TEXT[call.verdict]}
              {call.note !== null && <div className="muted">{call.note}</div>}
            </td>
          </tr>
        ))}
      </ScrollTable>
      {replay.notReplayed > 0 && (
        <p className="muted" data-testid="live-not-replayed" data-not-replayed={replay.notReplayed}>
          {replay.notReplayed} call{replay.notReplayed === 1 ? "" : "s"} not replayed: the replay stopped
          where the server gave no answer.
        </p>
      )}
    </section>
  );
}

function reward(value: number | null): string {
  return value === null ? "—" : String(value);
}

/** A reward, and beneath it why there is none (or what went wrong), shortened. */
function RewardCell({ value, error }: { value: number | null; error: string | null }) {
  return (
    <td>
      {reward(value)}
      {error !== null && <div className="muted">{error.slice(0, 160)}</div>}
    </td>
  );
}

export function VerifyTable({
  checks,
  selected,
  onSelect,
}: {
  checks: readonly RolloutCheck[];
  selected: { line: number; policy: Policy } | null;
  onSelect: (line: number, policy: Policy) => void;
}) {
  return (
    <ScrollTable
      head={["line", "policy", "replay (calls)", "browser reward", "server /verify reward", "verdict"]}
      testId="live-results"
    >
      {checks.map((check) => {
        const { verify, replay } = check;
        const on = selected?.line === check.line && selected.policy === check.policy;
        return (
          <tr
            key={`${check.line}-${check.policy}`}
            data-result-line={check.line}
            data-result-policy={check.policy}
            data-verify-verdict={verify.verdict}
            data-browser-reward={reward(verify.browserReward)}
            data-server-reward={reward(verify.serverReward)}
            className={`${verify.disagree ? styles.rowBad : ""} ${on ? styles.rowOn : ""}`}
          >
            <td>
              <button
                type="button"
                className="button-small"
                onClick={() => onSelect(check.line, check.policy)}
              >
                {check.line}
              </button>
            </td>
            <td>{check.policy}</td>
            <td>
              {replay.error !== null
                ? ERROR_KIND_LABEL[replay.error.kind]
                : CALL_VERDICTS.filter((v) => replay.counts[v] > 0)
                    .map((v) => `${replay.counts[v]} ${VERDICT_TEXT[v]}`)
                    .join(", ") || "no calls"}
            </td>
            <RewardCell value={verify.browserReward} error={verify.browserError} />
            <RewardCell value={verify.serverReward} error={verify.serverError} />
            <td>
              {verify.verdict === "agree" && "agree"}
              {verify.verdict === "no_answer" && "no answer from the server"}
              {verify.verdict === "refused_as_predicted" && (
                <span title={verify.gymWouldReject.join("; ")}>server refused, as predicted</span>
              )}
              {verify.verdict === "refused" && (
                <strong title={verify.serverError ?? undefined}>
                  server refused{verify.status === null ? "" : ` (HTTP ${verify.status})`}
                </strong>
              )}
              {verify.verdict === "disagree" && (
                <strong>
                  disagree
                  {verify.renormalizedByServer.length > 0 && (
                    <div className={styles.note}>
                      the server strips mcp__ itself from {verify.renormalizedByServer.join(", ")}
                    </div>
                  )}
                </strong>
              )}
            </td>
          </tr>
        );
      })}
    </ScrollTable>
  );
}

export function TallyView({ tallies }: { tallies: ReadonlyMap<Policy, PolicyTally> }) {
  return (
    <table className={styles.table} data-testid="live-tally">
      <thead>
        <tr>
          <th>policy</th>
          <th>rollouts</th>
          {CALL_VERDICTS.map((v) => (
            <th key={v}>{VERDICT_TEXT[v]}</th>
          ))}
          <th>/verify agree</th>
          <th>refused as predicted</th>
          <th>refused</th>
          <th>no answer</th>
          <th>disagree</th>
        </tr>
      </thead>
      <tbody>
        {[...tallies].map(([policy, t]) => (
          <tr
            key={policy}
            data-tally-policy={policy}
            data-rollouts={t.rollouts}
            data-differs={t.calls.differs}
            data-failed={t.calls.failed}
            data-disagree={t.verifyDisagree}
            data-refused={t.verifyRefused}
            data-no-answer={t.verifyNoAnswer}
          >
            <td>{policy}</td>
            <td>{t.rollouts}</td>
            {CALL_VERDICTS.map((v) => (
              <td key={v}>{t.calls[v]}</td>
            ))}
            <td>{t.verifyAgree}</td>
            <td>{t.verifyRefusedAsPredicted}</td>
            <td className={t.verifyRefused > 0 ? styles.bad : undefined}>{t.verifyRefused}</td>
            <td className={t.verifyNoAnswer > 0 ? styles.bad : undefined}>{t.verifyNoAnswer}</td>
            <td className={t.verifyDisagree > 0 ? styles.bad : undefined}>{t.verifyDisagree}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
