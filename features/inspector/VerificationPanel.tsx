"use client";
import Link from "next/link";
import { memo, useState } from "react";
import { formatReward } from "@/components/badges";
import { CodeBlock } from "@/components/CodeBlock";
import { cx } from "@/components/cx";
import {
  type HarnessId,
  PAIRED_BY_LABEL,
  type Policy,
  SERVER_SOURCE_LABEL,
  type ServerSource,
  type VerificationView,
  type VerifierDetailsView,
  type VerifyResultView,
} from "@/hooks/types";
import { formatCount } from "@/lib/run";
import { TableDiffs } from "./TableDiffs";
import styles from "./VerificationPanel.module.css";

/** Explanation sentences shown before "show all". */
export const EXPLANATION_PREVIEW = 2;

const POLICY_HELP: Record<Policy, string> = {
  contract: "follows provenance: calls of the verifying server are canonicalized, nothing is guessed",
  legacy: "Gym before provenance: the map is ignored, only the mcp__<server>__ prefix is stripped",
};

function Details({ details }: { details: VerifierDetailsView }) {
  if (details.kind === "workplace_assistant") {
    const unequal = details.tables.filter((table) => !table.equal).length;
    return (
      <details className={styles.verifyDetails}>
        <summary>
          table differences{" "}
          <span className="muted">
            ({unequal === 0 ? "none" : `${unequal} table${unequal === 1 ? "" : "s"}`})
          </span>
        </summary>
        <TableDiffs details={details} />
      </details>
    );
  }
  return (
    <details className={styles.verifyDetails}>
      <summary>verifier details</summary>
      <CodeBlock text={JSON.stringify(details) ?? ""} label="verifier details" />
    </details>
  );
}

function Explanation({ result }: { result: VerifyResultView }) {
  const [open, setOpen] = useState(false);
  const sentences = open ? result.explanation : result.explanation.slice(0, EXPLANATION_PREVIEW);
  return (
    <div className="explanation-block">
      {result.explanation.length > 0 && (
        <ul className={styles.explanation}>
          {sentences.map((sentence, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: sentences are ordered and may repeat.
            <li key={index}>{sentence}</li>
          ))}
        </ul>
      )}
      {open && result.explanation_total > result.explanation.length && (
        <p className="muted" data-testid="explanation-more">
          and {formatCount(result.explanation_total - result.explanation.length)} more sentences (cli verify
          and export list them all)
        </p>
      )}
      {result.explanation_total > EXPLANATION_PREVIEW && (
        <button type="button" className="link-button" onClick={() => setOpen(!open)}>
          {open ? "show fewer" : `show all ${formatCount(result.explanation_total)} sentences`}
        </button>
      )}
      {result.details !== undefined && <Details details={result.details} />}
    </div>
  );
}

/** What a policy card or the why block says of a reason shown once above them. */
export const SEE_ABOVE = "not verified: see above";

function PolicyCard({
  policy,
  result,
  reasonAbove,
}: {
  policy: Policy;
  result: VerifyResultView;
  /** The unverified reason is shown once above the cards: say so instead of repeating it. */
  reasonAbove: boolean;
}) {
  const changed =
    result.reward !== null && result.recorded_reward !== null && result.reward !== result.recorded_reward;
  return (
    <div className={styles.policy} data-policy-column={policy}>
      <div className={styles.policyHead}>
        <span className={styles.policyName}>{policy}</span>
        <span className={cx("muted", styles.policyHelp)}>{POLICY_HELP[policy]}</span>
      </div>
      <div className={styles.rewards}>
        <div className={styles.rewardBox}>
          <div className={styles.rewardLabel}>recorded</div>
          <div className={styles.rewardValue}>{formatReward(result.recorded_reward)}</div>
        </div>
        <div className={styles.rewardArrow}>→</div>
        <div className={cx(styles.rewardBox, changed && styles.rewardBoxChanged)}>
          <div className={styles.rewardLabel}>recomputed</div>
          <div
            className={styles.rewardValue}
            data-reward={result.reward === null ? "none" : String(result.reward)}
            data-unverified-reason={result.unverified?.code}
            data-policy={policy}
          >
            {formatReward(result.reward)}
          </div>
        </div>
        {result.components && Object.keys(result.components).length > 0 && (
          <table className={styles.components}>
            <tbody>
              {Object.entries(result.components).map(([name, value]) => (
                <tr key={name} data-component={name} data-value={String(value)}>
                  <td className="mono">{name}</td>
                  <td className={styles.num}>{formatReward(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {result.error && <p className={styles.verifyError}>{reasonAbove ? SEE_ABOVE : result.error}</p>}
      {result.gym_would_reject && result.gym_would_reject.length > 0 && (
        <div className={styles.reject}>
          <strong>Gym would reject this verify request:</strong>
          <ul>
            {result.gym_would_reject.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/**
 * The reason neither policy has a reward, when it is the same for both (no verifying server, no port of its
 * verifier here, missing task data): a fact about the line, not a policy, so the pane says it once.
 */
function sharedUnverified(view: VerificationView): NonNullable<VerifyResultView["unverified"]> | null {
  const a = view.contract.unverified;
  const b = view.legacy.unverified;
  return a !== undefined && b !== undefined && a.code === b.code && a.message === b.message ? a : null;
}

/** The explanation without the reason already shown above it; null when nothing else is left to say. */
function beyondReason(result: VerifyResultView, reason: string): VerifyResultView | null {
  const rest = result.explanation.filter((sentence) => sentence !== reason);
  const left = result.explanation_total - (result.explanation.length - rest.length);
  return left === 0 ? null : { ...result, explanation: rest, explanation_total: left };
}

/** The why block of an unverified line: what is left beyond the reason shown above, or a pointer to it. */
function SharedExplanation({ result, reason }: { result: VerifyResultView; reason: string }) {
  const rest = beyondReason(result, reason);
  return rest === null ? (
    <p className="muted" data-testid="why-see-above">
      {SEE_ABOVE}
    </p>
  ) : (
    <Explanation result={rest} />
  );
}

/** The two policies reached the same verdict for the same reasons: say it once. */
function sameOutcome(a: VerifyResultView, b: VerifyResultView): boolean {
  return (
    a.reward === b.reward &&
    a.explanation_total === b.explanation_total &&
    a.explanation.length === b.explanation.length &&
    a.explanation.every((sentence, index) => sentence === b.explanation[index])
  );
}

interface Props {
  view: VerificationView | null | undefined;
  loading: boolean;
  servers: readonly string[];
  server: string | null;
  defaultServer: string | null;
  /** How the row's own verifying server was chosen (lib/verify chooseServer). */
  defaultSource: ServerSource;
  onServer(server: string | null): void;
  harness: HarnessId | null;
  /** Whose choice the harness is: this rollout's agent's, or the one for every rollout. */
  harnessScope: string;
  /** /live with this file and line already chosen (offered when no verifier here runs the server). */
  liveHref: string;
}

export const VerificationPanel = memo(function VerificationPanel({
  view,
  loading,
  servers,
  server,
  defaultServer,
  defaultSource,
  onServer,
  harness,
  harnessScope,
  liveHref,
}: Props) {
  // Choosing a server applies it to every row of the file; the empty choice returns to each row's default.
  const options = [...new Set([...servers, ...(server ? [server] : [])])].sort();
  const shared = view ? sharedUnverified(view) : null;
  return (
    <section className={styles.verification} aria-label="Verification">
      <div className={styles.verificationHead}>
        <h3>Verification</h3>
        <label>
          server{" "}
          <select
            aria-label="Verifying server"
            value={server ?? ""}
            onChange={(event) => onServer(event.target.value || null)}
          >
            <option value="">
              {defaultServer
                ? `default: ${defaultServer} (${SERVER_SOURCE_LABEL[defaultSource]})`
                : "choose…"}
            </option>
            {options.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <span className="muted" title="chosen per agent above the list" data-testid="detail-harness">
          harness <b>{harness ?? "unknown"}</b> ({harnessScope})
        </span>
        {loading && <span className="muted">verifying…</span>}
      </div>
      {view ? (
        <>
          <p className="muted server-source" data-server-source={view.contract.server_source}>
            {view.contract.server === null
              ? ""
              : `Verifying server ${view.contract.server}, ${SERVER_SOURCE_LABEL[view.contract.server_source]}. `}
            {/* The reason below starts with it when no server was chosen: once. */}
            {shared?.message.includes(view.contract.server_reason) ? "" : `${view.contract.server_reason} `}
            Inputs: {PAIRED_BY_LABEL[view.contract.paired_by]}.
          </p>
          {view.contract.paired_by === "none" &&
            view.contract.pairing_reason !== undefined &&
            // The reason below already ends with it (a missing task field of an unpaired line): once.
            !(shared?.message.includes(view.contract.pairing_reason) ?? false) && (
              // Why the open task rows did not pair (lib/verify InputIndex), the sentence `cli verify` prints.
              <p className="muted" data-testid="pairing-reason">
                {view.contract.pairing_reason}
              </p>
            )}
          {shared !== null && (
            <p
              // No port here is no fault of the line (a rollout that scored 1 has it too): said, not alarmed.
              className={cx(
                shared.code === "no_verifier" ? "muted" : styles.verifyError,
                styles.unverifiedReason,
              )}
              data-testid="unverified-reason"
              data-unverified-code={shared.code}
            >
              {shared.message}
            </p>
          )}
          {view.contract.unverified?.code === "no_verifier" && view.contract.server !== null && (
            <p className="live-next" data-testid="live-verify-link-line">
              <Link href={liveHref} data-testid="live-verify-link">
                Verify through {view.contract.server}&apos;s own /verify on /live
              </Link>{" "}
              <span className="muted">(this file and line already chosen; start the server first)</span>
            </p>
          )}
          <div className={styles.policies} data-testid="policies" data-server={view.server ?? ""}>
            <PolicyCard policy="contract" result={view.contract} reasonAbove={shared !== null} />
            <PolicyCard policy="legacy" result={view.legacy} reasonAbove={shared !== null} />
          </div>
          {sameOutcome(view.contract, view.legacy) ? (
            <div className={styles.whyVerdict}>
              <div className={styles.whyTitle}>Why — both policies</div>
              {shared === null ? (
                <Explanation result={view.contract} />
              ) : (
                <SharedExplanation result={view.contract} reason={shared.message} />
              )}
            </div>
          ) : (
            <div className={styles.policies}>
              <div className={styles.whyVerdict}>
                <div className={styles.whyTitle}>Why — contract</div>
                <Explanation result={view.contract} />
              </div>
              <div className={styles.whyVerdict}>
                <div className={styles.whyTitle}>Why — legacy</div>
                <Explanation result={view.legacy} />
              </div>
            </div>
          )}
        </>
      ) : null}
    </section>
  );
});
