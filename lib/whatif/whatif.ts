/**
 * Harness what-if for one rollout: the same calls, re-emitted under each harness's alias, once with a
 * provenance map from that harness's exact alias map and once without, each verified under the
 * contract, beside the bare-HTTP reward (canonical names, no map).
 *
 * Under the contract every variant with provenance scores like HTTP; the rows without provenance
 * show which harnesses break when a run records no map (only `mcp__<S>__` names survive, through
 * the legacy fallback).
 */
import { actionsOf, aliasIndex } from "../compare/actions";
import { aliasFor, buildAliasMap, HARNESSES, type HarnessId, identityKey } from "../harness";
import type { CallStatus } from "../identity/types";
import {
  functionCallCount,
  PROVENANCE_KEY,
  type ProvenanceEntry,
  provenanceMapOf,
  type Rollout,
} from "../schemas";
import {
  chooseServer,
  getVerifier,
  type InputIndex,
  knownTools,
  type Pairing,
  pairedInput,
  type RunServerChoice,
  verifyRollout,
} from "../verify";

export interface WhatIfOptions extends RunServerChoice {
  /** The verifying server, over the run's choice; default the one lib/verify chooses for the rollout. */
  readonly server?: string;
  /** S's tools; default the registered verifier's. */
  readonly tools?: readonly string[];
  /** The rollout's materialized-inputs row, when it carries no task fields. */
  readonly input?: unknown;
  /** Or all inputs, indexed (lib/verify InputIndex): the rollout is paired as every command pairs it. */
  readonly inputs?: InputIndex<unknown>;
  /** Or the rollout's pairing, when the caller paired it (it says how, or why no row was found). */
  readonly pairing?: Pairing<unknown>;
}

export type WhatIfErrorKind = "no_calls" | "no_server" | "no_port";

export interface VariantResult {
  readonly reward: number | null;
  readonly error?: string;
  /** What the model would have emitted, per call. */
  readonly emittedNames: readonly string[];
  /** What the verifier saw, per call. */
  readonly verifierNames: readonly string[];
  readonly statuses: readonly CallStatus[];
}

export interface WhatIfRow extends VariantResult {
  readonly harness: HarnessId;
  readonly withProvenance: boolean;
  /** The reward equals the bare-HTTP reward (never when HTTP has none: two missing rewards agree on nothing). */
  readonly equalsHttp: boolean;
}

export interface WhatIfReport {
  readonly server: string;
  /** Why that server verifies the rollout (lib/verify chooseServer's reason). */
  readonly server_reason: string;
  readonly tools: readonly string[];
  readonly http: VariantResult;
  readonly rows: readonly WhatIfRow[];
  /** Calls re-emitted per harness: those attributed to S. Other calls keep their emitted name. */
  readonly reemitted_calls: readonly number[];
  /** Why the what-if could not run (then `rows` is empty). */
  readonly error?: string;
  /**
   * Its kind: `no_calls` and `no_port` are nothing to try (no call to re-emit, no verifier here to score a
   * variant), not a failure; `no_server`: nothing decides which server's aliases to build.
   */
  readonly error_kind?: WhatIfErrorKind;
}

type JsonObject = Record<string, unknown>;

/** A deep copy of `rollout` with function_call names replaced (by call index) and the map set or removed. */
function variant(
  rollout: Rollout,
  names: ReadonlyMap<number, string>,
  provenance: JsonObject | null,
): Rollout {
  const copy = structuredClone(rollout);
  let index = 0;
  for (const item of copy.response.output) {
    if (item.type !== "function_call") continue;
    const name = names.get(index);
    if (name !== undefined) item.name = name;
    index++;
  }
  if (provenance === null) delete copy[PROVENANCE_KEY];
  else copy[PROVENANCE_KEY] = provenance;
  return copy;
}

export function harnessWhatIf(rollout: Rollout, options: WhatIfOptions = {}): WhatIfReport {
  const paired =
    options.input !== undefined
      ? { input: options.input }
      : pairedInput(options.pairing ?? options.inputs?.pair(rollout));
  const input = paired.input;
  const choice = chooseServer(rollout, {
    override: options.server ?? options.override ?? null,
    input,
    config: options.config ?? null,
    sample: options.sample ?? null,
  });
  const server = choice.server;
  const tools = options.tools ?? (server === null ? undefined : knownTools(server)) ?? [];
  const empty: VariantResult = { reward: null, emittedNames: [], verifierNames: [], statuses: [] };
  const fail = (error_kind: WhatIfErrorKind, error: string): WhatIfReport => ({
    server: server ?? "",
    server_reason: choice.reason,
    tools,
    http: empty,
    rows: [],
    reemitted_calls: [],
    error,
    error_kind,
  });
  // Nothing to re-emit: no harness's aliases can change the reward of a rollout without a call.
  if (functionCallCount(rollout) === 0)
    return fail("no_calls", "it makes no tool call, so no harness's aliases can change its reward.");
  if (server === null) return fail("no_server", `no verifying server: ${choice.reason}`);
  // Without a port here there is no verifier to score a variant (nor a tool list to build each harness's
  // aliases from): every row would show the bare names and no reward. A port without a tool list
  // (indirect_prompt_injection) still scores the variants of the rollout's own calls.
  if (options.tools === undefined && getVerifier(server) === undefined)
    return fail(
      "no_port",
      `${server} has no verifier port here, so no harness's aliases of its tools can be built and no variant scored. Its own /verify (Live) scores the rollout as it is.`,
    );
  const actions = actionsOf(rollout, { server, tools, aliases: aliasIndex(server, tools) });

  const run = (candidate: Rollout): VariantResult => {
    const result = verifyRollout(candidate, {
      server,
      policy: "contract",
      ...paired,
    });
    return {
      reward: result.reward,
      ...(result.error === undefined ? {} : { error: result.error }),
      emittedNames: result.resolution.calls.map((c) => c.emitted),
      verifierNames: result.resolution.calls.map((c) => c.verifier_name),
      statuses: result.resolution.calls.map((c) => c.status),
    };
  };

  const ours = actions.filter((a) => a.server === server);
  const http = run(variant(rollout, new Map(ours.map((a) => [a.index, a.tool])), null));

  const rows: WhatIfRow[] = [];
  for (const harness of HARNESSES) {
    const map = buildAliasMap(
      harness,
      tools.map((tool) => ({ server, tool })),
    );
    const names = new Map<number, string>();
    const entries: [string, ProvenanceEntry][] = [];
    for (const a of ours) {
      // A tool outside the list, or one the harness drops on a collision, still gets the rule's alias.
      const alias =
        map.forward.get(identityKey({ server, tool: a.tool })) ?? aliasFor(harness, server, a.tool);
      names.set(a.index, alias);
      if (a.call_id !== null && a.call_id !== "")
        entries.push([a.call_id, { server_name: server, tool_name: a.tool }]);
    }
    const provenance = provenanceMapOf(entries);
    for (const withProvenance of [true, false]) {
      const result = run(variant(rollout, names, withProvenance ? provenance : null));
      // Two missing rewards are no agreement: without a bare HTTP reward no variant equals it.
      const equalsHttp = http.reward !== null && result.reward === http.reward;
      rows.push({ harness, withProvenance, ...result, equalsHttp });
    }
  }
  return {
    server,
    server_reason: choice.reason,
    tools,
    http,
    rows,
    reemitted_calls: ours.map((a) => a.index),
  };
}
