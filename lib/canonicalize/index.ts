/**
 * Canonicalization for verification (contract, "Verification" steps 3 and 5): a deep copy of the verify
 * request with every function_call name set to its verifier name, and the way back, restoring the
 * emitted names in what the verifier returns. Inputs are never mutated, so callers may pass frozen objects.
 */
import type { CallResolution, RolloutResolution } from "../identity/types";
import type { Rollout } from "../schemas";
import { copyJson } from "./copy";

/** What canonicalization walks: a verify request (or a verifier's echo of one) with a typed response. */
export interface WithResponse {
  readonly response: Rollout["response"];
}

type OutputItem = Rollout["response"]["output"][number];

/** The function_call items of `container.response.output`, in order (the objects themselves). */
function functionCallItems(container: WithResponse): OutputItem[] {
  return container.response.output.filter((item) => item.type === "function_call");
}

/**
 * Deep-copies the verify request (task fields + `response` + `mcp_tool_call_provenance`) and sets each
 * `function_call.name` in `response.output`, in order, to its verifier name. Nothing else changes.
 * Throws when `resolution` does not describe this request's calls (a caller bug, not bad data).
 */
export function canonicalizeForVerification<T extends WithResponse>(
  request: T,
  resolution: RolloutResolution,
): T {
  const copy = copyJson(request);
  const items = functionCallItems(copy);
  if (items.length !== resolution.calls.length) {
    throw new Error(
      `resolution has ${resolution.calls.length} calls but the request has ${items.length} function_call items`,
    );
  }
  items.forEach((item, i) => {
    const call = resolution.calls[i];
    if (call === undefined || item.name !== call.emitted) {
      throw new Error(
        `function_call #${i} is not the call the resolution describes (${JSON.stringify(call?.emitted)})`,
      );
    }
    item.name = call.verifier_name;
  });
  return copy;
}

/** Calls without a string call_id share one queue of their own, still in order. */
const NO_CALL_ID = Symbol("no call_id");

function queueKey(callId: unknown): string | typeof NO_CALL_ID {
  return typeof callId === "string" ? callId : NO_CALL_ID;
}

/**
 * Returns a copy of the verifier's result with the emitted names restored in `response.output`: for each
 * call_id, the k-th function_call carrying it gets the k-th emitted name recorded for that call_id (a list
 * per call_id, as Gym's provenance branch restores them). Items beyond the recorded ones keep their name.
 */
export function restoreEmittedNames<T extends WithResponse>(result: T, resolution: RolloutResolution): T {
  const queues = new Map<string | typeof NO_CALL_ID, CallResolution[]>();
  for (const call of resolution.calls) {
    const key = queueKey(call.call_id);
    const queue = queues.get(key) ?? [];
    queue.push(call);
    queues.set(key, queue);
  }
  const copy = copyJson(result);
  for (const item of functionCallItems(copy)) {
    const next = queues.get(queueKey(item.call_id))?.shift();
    if (next !== undefined) item.name = next.emitted;
  }
  return copy;
}
