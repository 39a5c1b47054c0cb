/**
 * One rollout checked live under one policy (replay through both doors, then the server's /verify), and
 * the tally every front end prints: the CLI, the Live page and the gym-live benchmark share it.
 */
import type { Policy } from "../identity/types";
import type { Rollout } from "../schemas";
import { type LiveErrorKind, noAnswer } from "./errors";
import {
  type CallVerdict,
  type LineOptions,
  type LiveTarget,
  type RolloutReplay,
  replayRollout,
  type ServerVerify,
  verifyOnServer,
} from "./replay";

export const CALL_VERDICTS: readonly CallVerdict[] = [
  "same",
  "differs",
  "error_by_transport",
  "failed",
  "skipped",
];

export interface RolloutCheck {
  /** 1-based line of the rollouts file. */
  readonly line: number;
  readonly policy: Policy;
  readonly replay: RolloutReplay;
  readonly verify: ServerVerify;
}

export async function checkRollout(
  rollout: Rollout,
  line: number,
  target: LiveTarget,
  policy: Policy,
  lineOptions: LineOptions = {},
): Promise<RolloutCheck> {
  const options = { ...lineOptions, policy };
  const replay = await replayRollout(rollout, target, options);
  // A server that stopped answering during the replay is not asked again: that would only cost a deadline.
  const gone = replay.error !== null && noAnswer(replay.error);
  const verify = await verifyOnServer(
    rollout,
    target,
    gone ? { ...options, notAsked: "not asked: the server stopped answering during the replay" } : options,
  );
  return { line, policy, replay, verify };
}

/**
 * Why a run of checks must stop after this one, or null: the server gave no answer (to a replayed call,
 * to seeding, or to /verify), so every later check would wait out its deadlines for nothing. Every front
 * end (the Live page, `cli live`) stops on it with this one message.
 */
export function serverStoppedAnswering(check: RolloutCheck): { kind: LiveErrorKind; message: string } | null {
  const { replay, verify } = check;
  if (replay.error !== null && noAnswer(replay.error))
    return {
      kind: replay.error.kind,
      message: `stopped at line ${check.line} (${check.policy}): ${replay.error.message}. Check that the server is running, then connect again.`,
    };
  if (verify.verdict === "no_answer")
    return {
      kind: verify.serverErrorKind ?? "transport_error",
      message: `stopped at line ${check.line} (${check.policy}): the server gave no answer to /verify (${verify.serverError ?? ""}). Check that the server is running, then connect again.`,
    };
  return null;
}

export interface PolicyTally {
  rollouts: number;
  /** Rollouts whose replay could not start (seeding or connecting failed) or stopped part way. */
  replayErrors: number;
  calls: Record<CallVerdict, number>;
  verifyAgree: number;
  verifyDisagree: number;
  /** The server refused the request (HTTP 4xx) as lib/verify predicted Gym's validation would. */
  verifyRefusedAsPredicted: number;
  /** The server answered an HTTP error and no reward where nothing predicted one. */
  verifyRefused: number;
  /** /verify got no answer (or was not asked: the server had stopped answering). */
  verifyNoAnswer: number;
  /** Disagreements where the POSTed copy had mcp__ names the server strips itself. */
  verifyDisagreeRenormalized: number;
  /** Rollouts the server scored (HTTP 200 with a reward). */
  serverScored: number;
}

export function emptyTally(): PolicyTally {
  return {
    rollouts: 0,
    replayErrors: 0,
    calls: { same: 0, differs: 0, error_by_transport: 0, failed: 0, skipped: 0 },
    verifyAgree: 0,
    verifyDisagree: 0,
    verifyRefusedAsPredicted: 0,
    verifyRefused: 0,
    verifyNoAnswer: 0,
    verifyDisagreeRenormalized: 0,
    serverScored: 0,
  };
}

export function addToTally(tally: PolicyTally, check: RolloutCheck): void {
  tally.rollouts++;
  if (check.replay.error !== null) tally.replayErrors++;
  for (const verdict of CALL_VERDICTS) tally.calls[verdict] += check.replay.counts[verdict];
  if (check.verify.verdict === "disagree") {
    tally.verifyDisagree++;
    if (check.verify.renormalizedByServer.length > 0) tally.verifyDisagreeRenormalized++;
  } else if (check.verify.verdict === "refused_as_predicted") tally.verifyRefusedAsPredicted++;
  else if (check.verify.verdict === "refused") tally.verifyRefused++;
  else if (check.verify.verdict === "no_answer") tally.verifyNoAnswer++;
  else tally.verifyAgree++;
  if (check.verify.serverReward !== null) tally.serverScored++;
}

/** Whether a tally shows nothing to look at: no differing or failed call, no disagreement. */
export function tallyClean(tally: PolicyTally): boolean {
  return (
    tally.replayErrors === 0 &&
    tally.calls.differs === 0 &&
    tally.calls.failed === 0 &&
    tally.verifyNoAnswer === 0 &&
    tally.verifyRefused === 0 &&
    tally.verifyDisagree === 0
  );
}
