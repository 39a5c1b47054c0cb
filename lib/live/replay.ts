/**
 * Replay a rollout through both doors, and ask the server itself to verify it. Identity is never
 * re-decided here: the verify pipeline (lib/verify) resolves every call under the chosen policy, and its
 * verifier names are the names replayed and the canonical copy POSTed to /verify.
 */

import { canonicalizeForVerification } from "../canonicalize";
import type { Policy } from "../identity/types";
import { parsePythonJson } from "../jsonl";
import { functionCalls, isJsonObject, type Rollout } from "../schemas";
import { buildVerifyRequest, type VerifyOptions, verifyRollout } from "../verify";
import { describeError, type LiveErrorKind, type LiveFailure, noAnswer } from "./errors";
import { safeJson } from "./fetch";
import { type DoorOptions, type HttpAnswer, HttpDoor } from "./http";
import { type McpAnswer, McpDoor } from "./mcp";

/**
 * same: both doors answered successfully with identical bytes; differs: both succeeded, the bytes differ;
 * error_by_transport: at least one door answered with an error (HTTP status >= 400 or MCP isError), which
 * Gym documents as differing by design (HTTP status and JSON body vs an isError text); failed: a door gave
 * no answer (transport error, timeout, protocol error); skipped: the call's arguments are not a JSON object.
 */
export type CallVerdict = "same" | "differs" | "error_by_transport" | "failed" | "skipped";

export type DoorOutcome<T> = { ok: true; answer: T } | ({ ok: false } & LiveFailure);

export interface ReplayedCall {
  readonly index: number;
  readonly call_id: string | null;
  readonly emitted: string;
  /** The verifier name under the policy: the name called through both doors. */
  readonly name: string;
  readonly arguments: string;
  readonly http: DoorOutcome<HttpAnswer> | null;
  readonly mcp: DoorOutcome<McpAnswer> | null;
  readonly verdict: CallVerdict;
  readonly note: string | null;
}

export interface RolloutReplay {
  readonly policy: Policy;
  readonly server: string;
  readonly calls: readonly ReplayedCall[];
  readonly counts: Readonly<Record<CallVerdict, number>>;
  /**
   * What stopped the replay, sorted and plain: a failure before any call (seeding or connecting), or a call
   * a door gave no answer to (errors.ts noAnswer: the server is gone or stuck, and whether the call took
   * effect is unknown, so the two sessions can no longer be compared), after which the rest were not
   * replayed instead of each waiting out a deadline. An answered error (HTTP status, isError) does not stop it.
   */
  readonly error: LiveFailure | null;
  /** Calls left unreplayed because the replay stopped part way (0 when it ran to the end). */
  readonly notReplayed: number;
}

/**
 * What decides a rollout's verification besides the policy, as the inspector decides it for the line: its
 * verifying server (default: chosen from the rollout), the task row it paired with (lib/verify pairedInput)
 * and where it came from (the next steps of an unverified line).
 */
export type LineOptions = Pick<VerifyOptions, "server" | "input" | "pairing" | "source">;

export interface LiveTarget extends DoorOptions {
  readonly baseUrl: string;
}

async function outcome<T>(run: () => Promise<T>): Promise<DoorOutcome<T>> {
  try {
    return { ok: true, answer: await run() };
  } catch (error) {
    return { ok: false, ...describeError(error) };
  }
}

export function verdictOf(http: DoorOutcome<HttpAnswer>, mcp: DoorOutcome<McpAnswer>): CallVerdict {
  if (!http.ok || !mcp.ok) return "failed";
  const httpError = http.answer.status >= 400;
  if (httpError || mcp.answer.isError) return "error_by_transport";
  return http.answer.body === mcp.answer.text ? "same" : "differs";
}

/** Opens an MCP door in a fresh session: /seed_session for the token, then initialize. */
export async function openMcpSession(target: LiveTarget): Promise<McpDoor> {
  const seed = await new HttpDoor(target.baseUrl, target).seedSession();
  if (seed.mcp === null) throw new Error("the server's /seed_session has no mcp block: MCP exposure is off");
  return McpDoor.connect(`${target.baseUrl}${seed.mcp.url_path}`, seed.mcp.headers, target);
}

function emptyCounts(): Record<CallVerdict, number> {
  return { same: 0, differs: 0, error_by_transport: 0, failed: 0, skipped: 0 };
}

/**
 * Replays the rollout's function_calls, in order, each door in its own fresh session, under the names the
 * verify pipeline gives them for `policy` and the line's options.
 */
export async function replayRollout(
  rollout: Rollout,
  target: LiveTarget,
  options: LineOptions & { policy: Policy },
): Promise<RolloutReplay> {
  const resolution = verifyRollout(rollout, options).resolution;
  const counts = emptyCounts();
  const base = { policy: options.policy, server: resolution.server };
  const items = functionCalls(rollout);
  const http = new HttpDoor(target.baseUrl, target);
  let mcp: McpDoor;
  try {
    await http.seedSession();
    mcp = await openMcpSession(target);
  } catch (error) {
    return { ...base, calls: [], counts, error: describeError(error), notReplayed: resolution.calls.length };
  }
  const calls: ReplayedCall[] = [];
  let stopped: LiveFailure | null = null;
  try {
    for (const call of resolution.calls) {
      const item = items[call.index];
      const raw = item?.call.arguments;
      const rawArguments = typeof raw === "string" ? raw : JSON.stringify(raw ?? null);
      const parsed = typeof raw === "string" ? parsePythonJson(raw) : { ok: false as const };
      const common = {
        index: call.index,
        call_id: call.call_id,
        emitted: call.emitted,
        name: call.verifier_name,
        arguments: rawArguments,
      };
      if (!parsed.ok || !isJsonObject(parsed.value)) {
        counts.skipped++;
        calls.push({
          ...common,
          http: null,
          mcp: null,
          verdict: "skipped",
          note: "the arguments are not a JSON object: no door can take them",
        });
        continue;
      }
      const args = parsed.value;
      const httpOutcome = await outcome(() => http.callTool(call.verifier_name, args));
      const mcpOutcome = await outcome(() => mcp.callTool(call.verifier_name, args));
      const verdict = verdictOf(httpOutcome, mcpOutcome);
      counts[verdict]++;
      calls.push({ ...common, http: httpOutcome, mcp: mcpOutcome, verdict, note: null });
      const lost = [["HTTP", httpOutcome] as const, ["MCP", mcpOutcome] as const].find(
        ([, o]) => !o.ok && noAnswer(o),
      );
      if (lost !== undefined && !lost[1].ok) {
        const left = resolution.calls.length - calls.length;
        stopped = {
          kind: lost[1].kind,
          message: `the server gave no answer to call ${call.index} (${call.verifier_name}) through the ${lost[0]} door (${lost[1].message}); the replay stopped there${left > 0 ? `, ${left} later call${left === 1 ? "" : "s"} not replayed` : ""}`,
        };
        break;
      }
    }
  } finally {
    await mcp.close({ serverGone: stopped !== null });
  }
  return { ...base, calls, counts, error: stopped, notReplayed: resolution.calls.length - calls.length };
}

export interface ServerVerify {
  readonly policy: Policy;
  /** The browser's (this project's) reward under the policy; null with browserError when it has none. */
  readonly browserReward: number | null;
  readonly browserError: string | null;
  readonly serverReward: number | null;
  readonly serverError: string | null;
  /** How the request to /verify failed when the server gave no answer (null otherwise). */
  readonly serverErrorKind: LiveErrorKind | null;
  readonly status: number | null;
  /**
   * agree: equal rewards (or neither side has one); refused_as_predicted: the server refused the request
   * (HTTP 4xx) and lib/verify predicted Gym's validation would (gymWouldReject); refused: it answered an
   * HTTP error and no reward where nothing predicted one (its request model is not this project's, or the
   * line lacks what it needs: never "agree", even when the browser has no reward either); no_answer: the
   * server gave no answer (transport error, timeout) or was not asked because it had stopped answering;
   * disagree: anything else.
   */
  readonly verdict: "agree" | "disagree" | "refused_as_predicted" | "refused" | "no_answer";
  readonly disagree: boolean;
  /**
   * Names in the POSTed copy that start with `mcp__`: a server with MCP exposure strips those itself before
   * scoring (Gym's _wrap_verify + normalize_tool_name), even where the policy left them unresolved.
   */
  readonly renormalizedByServer: readonly string[];
  /** Reasons Gym's request validation would refuse this rollout (from lib/verify), shown beside a 422. */
  readonly gymWouldReject: readonly string[];
}

/**
 * POSTs the rollout to /verify, canonicalized under `policy` exactly as the browser's verify pipeline
 * canonicalizes it, and puts the server's reward beside the browser's. With a paired task row, the request
 * is that row with the rollout's response, as Gym's reverify builds it (lib/verify buildVerifyRequest).
 */
export async function verifyOnServer(
  rollout: Rollout,
  target: LiveTarget,
  options: LineOptions & { policy: Policy; notAsked?: string },
): Promise<ServerVerify> {
  const { notAsked, ...verifyOptions } = options;
  const result = verifyRollout(rollout, verifyOptions);
  const base = {
    policy: options.policy,
    browserReward: result.reward,
    browserError: result.error ?? null,
    gymWouldReject: result.gym_would_reject ?? [],
  };
  let renormalizedByServer: string[] = [];
  const finish = (
    serverReward: number | null,
    serverError: string | null,
    status: number | null,
    lost: LiveErrorKind | null = null,
  ): ServerVerify => {
    const refusedAsPredicted =
      serverReward === null &&
      status !== null &&
      status >= 400 &&
      status < 500 &&
      base.gymWouldReject.length > 0;
    const verdict =
      lost !== null
        ? "no_answer"
        : refusedAsPredicted
          ? "refused_as_predicted"
          : serverReward === null && status !== null && status >= 400
            ? "refused"
            : serverReward === result.reward
              ? "agree"
              : "disagree";
    return {
      ...base,
      serverReward,
      serverError,
      serverErrorKind: lost,
      status,
      verdict,
      disagree: verdict === "disagree",
      renormalizedByServer,
    };
  };
  if (notAsked !== undefined) return finish(null, notAsked, null, "transport_error");
  let request: unknown;
  try {
    const input = isJsonObject(options.input) ? options.input : undefined;
    request = canonicalizeForVerification(buildVerifyRequest(rollout, input), result.resolution);
    const names = new Set(
      result.resolution.calls.map((c) => c.verifier_name).filter((n) => n.startsWith("mcp__")),
    );
    renormalizedByServer = [...names];
  } catch (error) {
    return finish(null, `cannot canonicalize: ${describeError(error).message}`, null);
  }
  try {
    const answer = await new HttpDoor(target.baseUrl, target).verify(request);
    const body = safeJson(answer.body);
    const reward = isJsonObject(body) && typeof body.reward === "number" ? body.reward : null;
    if (answer.status !== 200 || reward === null)
      return finish(null, `HTTP ${answer.status}: ${answer.body.slice(0, 300)}`, answer.status);
    return finish(reward, null, answer.status);
  } catch (error) {
    const failure = describeError(error);
    return finish(null, `${failure.kind}: ${failure.message}`, null, noAnswer(failure) ? failure.kind : null);
  }
}
