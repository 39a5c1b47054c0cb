"use client";
import Link from "next/link";
import { FileButton } from "@/components/FileButton";
import { SubPageBrand } from "@/components/SubPageBrand";
import shell from "@/components/subpage.module.css";
import topbar from "@/components/topbar.module.css";
import { servedReadErrorText } from "@/hooks/served";
import { startServerHint } from "@/lib/live";
import { lineCountsText } from "@/lib/run";
import { servedPathOf, servedRefMissingText } from "@/worker/protocol";
import {
  ConnectView,
  ErrorLine,
  FileProblem,
  ParityView,
  ReplayView,
  styles,
  TallyView,
  VerifyTable,
} from "./LiveViews";
import { pairingText, readPolicyChoice } from "./live-state";
import { useLivePage } from "./use-live-page";

export function LivePage() {
  const live = useLivePage();
  const { url, setUrl, timeoutMs, setTimeoutMs, policy, setPolicy, setLine, setSelected, pickFile } = live;
  const { connect, file, run, linkedDataset, linked, servedError, target, rollouts, current, shown, start } =
    live;
  const { serverOf } = live;
  const served = linkedDataset === null ? null : servedPathOf(linkedDataset);
  const linkMissing = served === null ? null : servedRefMissingText(served, live.servedOpen);
  const report = connect.data;

  return (
    <div className={shell.page}>
      <header className={topbar.topbar}>
        <SubPageBrand name="live: a running Gym server's two doors" />
        <div className={topbar.topbarActions}>
          <Link className="button-small" href="/">
            ← Inspector
          </Link>
        </div>
      </header>
      <main className={shell.body}>
        <section className={styles.card}>
          <h2>1 · Connect and check parity</h2>
          <form
            className={styles.controls}
            onSubmit={(event) => {
              event.preventDefault();
              if (target.ok) connect.mutate(target.target);
            }}
          >
            <label>
              Server URL{" "}
              <input
                type="url"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                data-testid="live-url"
                spellCheck={false}
              />
            </label>
            <label>
              Deadline per request (ms){" "}
              <input
                type="text"
                inputMode="numeric"
                value={timeoutMs}
                onChange={(e) => setTimeoutMs(e.target.value)}
                data-testid="live-timeout"
                size={7}
              />
            </label>
            <button
              type="submit"
              className="button"
              disabled={!target.ok || connect.isPending}
              data-testid="live-connect-button"
            >
              {connect.isPending ? "Connecting…" : "Connect"}
            </button>
            <span className="muted">
              Requests go through this app's forwarding route, which reaches loopback servers only
              (LIVE_FORWARD_ALLOW widens it).
            </span>
          </form>
          {!target.ok && <ErrorLine kind="transport_error" message={target.error} />}
          {connect.error && <ErrorLine kind="transport_error" message={connect.error.message} />}
          {(connect.error || (report && !report.seed.ok && report.seed.kind !== "protocol_error")) && (
            <p className="muted" data-testid="live-start-hint">
              {startServerHint(live.startConfigs)}
            </p>
          )}
          {report && (
            <div data-testid="live-connected" data-ready={!connect.isPending}>
              <ConnectView report={report} />
              {report.parity?.ok && (
                <ParityView
                  report={report.parity.value}
                  pages={report.tools?.ok ? report.tools.value.pages : 0}
                />
              )}
              {report.parity && !report.parity.ok && (
                <ErrorLine kind={report.parity.kind} message={`parity: ${report.parity.message}`} />
              )}
            </div>
          )}
        </section>

        <section className={styles.card}>
          <h2>2 · Replay a rollout through both doors and verify it on the server</h2>
          <div className={styles.controls}>
            <FileButton
              onFiles={([picked]) => {
                if (picked) pickFile(picked);
              }}
              label={file.data ? "Choose another rollouts file…" : "Choose a rollouts file…"}
              className="button-small"
              testId="live-file"
              multiple={false}
              accept=".jsonl,.json,.gz,application/json"
            />
            {file.data && (
              <span data-testid="live-file-summary">
                {linked.data && file.data.name === linked.data.file.name ? linked.data.path : file.data.name}:{" "}
                {lineCountsText({ rollouts: file.data.rollouts.length, unreadable: file.data.errors.length })}
                {file.data.truncated && " (only the first ones kept)"}
              </span>
            )}
          </div>
          {servedError !== null && <FileProblem message={servedReadErrorText(servedError)} />}
          {linkedDataset && linked.isSuccess && linked.data === null && (
            <FileProblem
              message={
                linkMissing ?? "The file the link names is no longer open in this tab: choose it here."
              }
            />
          )}
          {file.error && <FileProblem message={file.error.message} />}
          {file.data?.errors.slice(0, 5).map((e) => (
            <FileProblem key={e.line} message={`line ${e.line}: ${e.error}`} />
          ))}
          {rollouts.length > 0 && (
            <div className={styles.controls}>
              <label>
                Rollout{" "}
                <select
                  value={current?.line ?? ""}
                  onChange={(e) => setLine(Number(e.target.value))}
                  data-testid="live-rollout"
                >
                  {rollouts.map((r) => (
                    <option key={r.line} value={r.line}>
                      line {r.line} · {serverOf(r) ?? r.environment ?? "no environment_name"} · {r.calls}{" "}
                      calls
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Policy{" "}
                <select
                  value={policy}
                  onChange={(e) => setPolicy(readPolicyChoice(e.target.value))}
                  data-testid="live-policy"
                >
                  <option value="both">both</option>
                  <option value="contract">contract</option>
                  <option value="legacy">legacy</option>
                </select>
              </label>
              <button
                type="button"
                className="button"
                disabled={!target.ok || run.state.running || current === null}
                onClick={() => start("one")}
                data-testid="live-run-one"
              >
                Replay + verify this rollout
              </button>
              <button
                type="button"
                className="button"
                disabled={!target.ok || run.state.running}
                onClick={() => start("all")}
                data-testid="live-run-all"
              >
                Replay + verify all {rollouts.length}
              </button>
              {run.state.running && (
                <button type="button" className="button-small" onClick={run.cancel} data-testid="live-cancel">
                  Cancel
                </button>
              )}
              {run.state.total > 0 && (
                <span
                  data-testid="live-progress"
                  data-running={run.state.running}
                  data-done={run.state.done}
                  data-total={run.state.total}
                >
                  {run.state.done} / {run.state.total} checked{run.state.running ? "…" : ""}
                </span>
              )}
            </div>
          )}
          {live.currentOptions !== null && current !== null && (
            <p className="muted" data-testid="live-line-options">
              Line {current.line} is checked as the inspector verifies it:{" "}
              {live.currentOptions.server == null
                ? "nothing decides its verifying server"
                : `verifying server ${live.currentOptions.server}`}
              .{pairingText(live.currentOptions.pairing)}
            </p>
          )}
          {run.state.error && (
            <div data-testid="live-run-error">
              <ErrorLine kind={run.state.error.kind} message={run.state.error.message} />
            </div>
          )}
        </section>

        {run.state.checks.length > 0 && (
          <section className={styles.card}>
            <h2>3 · Results</h2>
            <TallyView tallies={run.state.tallies} />
            <VerifyTable
              checks={run.state.checks}
              selected={shown ? { line: shown.line, policy: shown.policy } : null}
              onSelect={(l, p) => setSelected({ line: l, policy: p })}
            />
            {shown && (
              <>
                <h3>
                  Line {shown.line} under {shown.policy}: each call through both doors
                </h3>
                <ReplayView check={shown} />
              </>
            )}
          </section>
        )}
      </main>
    </div>
  );
}
