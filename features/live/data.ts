"use client";
/**
 * Live mode's data: the connect report, the rollouts file picked on the Live page, and a cancellable run
 * that checks rollouts one by one (lib/live). Every request leaves the browser through the app's
 * forwarding route (same origin, so the CSP's connect-src 'self' holds).
 */
import { useMutation } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import type { Policy } from "@/lib/identity/types";
import { readJsonl } from "@/lib/jsonl";
import {
  addToTally,
  type ConnectReport,
  checkRollout,
  connectAndCheck,
  emptyTally,
  forwardingFetch,
  type LineOptions,
  type LiveErrorKind,
  type LiveTarget,
  normalizeServerUrl,
  type PolicyTally,
  type RolloutCheck,
  serverStoppedAnswering,
} from "@/lib/live";
import { functionCalls, type Rollout, readRollout } from "@/lib/schemas";

/** Rollouts kept from one file: the page replays them one request at a time, so more would not be run. */
export const MAX_LIVE_ROLLOUTS = 5000;

export interface LiveRollout {
  readonly line: number;
  readonly value: Rollout;
  readonly environment: string | null;
  readonly calls: number;
}

export interface LiveRollouts {
  readonly name: string;
  readonly rollouts: readonly LiveRollout[];
  /** Lines that could not be read, with the reason. */
  readonly errors: readonly { line: number; error: string }[];
  readonly truncated: boolean;
}

export function liveTarget(
  url: string,
  timeoutMs: number,
): { ok: true; target: LiveTarget } | { ok: false; error: string } {
  const normalized = normalizeServerUrl(url);
  if (!normalized.ok) return normalized;
  return { ok: true, target: { baseUrl: normalized.url, timeoutMs, fetch: forwardingFetch(normalized.url) } };
}

export function useLiveConnect() {
  return useMutation<ConnectReport, Error, LiveTarget>({ mutationFn: (target) => connectAndCheck(target) });
}

function summarize(rollout: Rollout): { environment: string | null; calls: number } {
  const env = typeof rollout.environment_name === "string" ? rollout.environment_name : null;
  return { environment: env, calls: functionCalls(rollout).length };
}

export function useLiveRollouts() {
  return useMutation<LiveRollouts, Error, File>({
    mutationFn: async (file) => {
      // readJsonl recognises gzip by its magic bytes and decodes it with lib/jsonl's one decoder
      // (multi-member files, every line before damage).
      const stream = file.stream();
      const rollouts: LiveRollout[] = [];
      const errors: { line: number; error: string }[] = [];
      let truncated = false;
      for await (const item of readJsonl(stream)) {
        if (!item.ok) {
          errors.push({ line: item.line, error: item.error });
          continue;
        }
        // Parse once at the edge (lib/schemas): a line that is not a rollout is an unreadable line.
        const read = readRollout(item.value);
        if (!read.ok) {
          errors.push({ line: item.line, error: read.message });
          continue;
        }
        if (rollouts.length >= MAX_LIVE_ROLLOUTS) {
          truncated = true;
          break;
        }
        rollouts.push({ line: item.line, value: read.rollout, ...summarize(read.rollout) });
      }
      return { name: file.name, rollouts, errors, truncated };
    },
  });
}

export interface LiveRunState {
  readonly running: boolean;
  readonly done: number;
  readonly total: number;
  readonly checks: readonly RolloutCheck[];
  readonly tallies: ReadonlyMap<Policy, PolicyTally>;
  readonly error: { kind: LiveErrorKind; message: string } | null;
}

const IDLE: LiveRunState = { running: false, done: 0, total: 0, checks: [], tallies: new Map(), error: null };

/**
 * Checks rollouts one after another (each in fresh sessions); cancel stops before the next one, and so
 * does a server that stopped answering (lib/live's serverStoppedAnswering), with one error for the run.
 */
export function useLiveRun() {
  const [state, setState] = useState<LiveRunState>(IDLE);
  const runId = useRef(0);

  const start = useCallback(
    async (
      target: LiveTarget,
      rollouts: readonly LiveRollout[],
      policies: readonly Policy[],
      /** How the inspector verifies each (its server, its paired task row); {}: from the rollout alone. */
      optionsOf: (rollout: LiveRollout) => Promise<LineOptions> = () => Promise.resolve({}),
    ) => {
      const id = ++runId.current;
      const tallies = new Map<Policy, PolicyTally>(policies.map((p) => [p, emptyTally()]));
      const checks: RolloutCheck[] = [];
      const total = rollouts.length * policies.length;
      setState({ running: true, done: 0, total, checks: [], tallies: new Map(tallies), error: null });
      try {
        for (const rollout of rollouts) {
          const options = await optionsOf(rollout);
          for (const policy of policies) {
            if (runId.current !== id) return;
            const check = await checkRollout(rollout.value, rollout.line, target, policy, options);
            if (runId.current !== id) return;
            checks.push(check);
            addToTally(tallies.get(policy)!, check);
            const stopped = serverStoppedAnswering(check);
            const left = total - checks.length;
            setState({
              running: stopped === null,
              done: checks.length,
              total,
              checks: [...checks],
              tallies: new Map(tallies),
              error:
                stopped === null
                  ? null
                  : {
                      kind: stopped.kind,
                      message: `${stopped.message}${left > 0 ? ` ${left} later check${left === 1 ? " was" : "s were"} not run.` : ""}`,
                    },
            });
            if (stopped !== null) return;
          }
        }
        setState((s) => ({ ...s, running: false }));
      } catch (error) {
        // lib/live sorts failures into results; anything thrown here is unexpected, and is shown, not lost.
        setState((s) => ({
          ...s,
          running: false,
          error: { kind: "transport_error", message: error instanceof Error ? error.message : String(error) },
        }));
      }
    },
    [],
  );

  const cancel = useCallback(() => {
    runId.current++;
    setState((s) => ({ ...s, running: false }));
  }, []);

  return { state, start, cancel };
}
