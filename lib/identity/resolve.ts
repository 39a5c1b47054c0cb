import { quoteName } from "../names";
import { functionCalls, type IndexedFunctionCall, type Rollout } from "../schemas";
import { aliasFlagger } from "./alias-flags";
import { type EntryReading, type ProvenanceReading, readProvenance } from "./provenance-map";
import { isServerNearMiss, legacyPrefix } from "./server-name";
import type {
  CallResolution,
  CallStatus,
  Flag,
  FlagDraft,
  FlagName,
  Highlight,
  Policy,
  ProvenanceIdentity,
  ResolveOptions,
  RolloutFinding,
  RolloutResolution,
} from "./types";

export const DEFAULT_POLICY: Policy = "contract";

/** Which highlight each flag raises (contract, "Diagnostic flags"). */
export const FLAG_HIGHLIGHT: Readonly<Record<FlagName, Highlight>> = {
  server_near_miss: "mismatched",
  unknown_tool: "mismatched",
  alias_disagrees: "mismatched",
  alias_guess: "ambiguous",
  alias_collision: "ambiguous",
};

/** Which highlight a status raises by itself (contract: duplicate/uncorrelated, malformed, external). */
export const STATUS_HIGHLIGHT: Readonly<Record<CallStatus, Highlight>> = {
  legacy: "none",
  bare: "none",
  uncorrelated: "ambiguous",
  duplicate: "ambiguous",
  non_mcp: "none",
  malformed: "mismatched",
  external: "external",
  canonical: "none",
};

/**
 * When several highlights apply, the most severe wins: a name that is provably wrong (mismatched)
 * matters more than one that cannot be attributed (ambiguous), which matters more than a call that is
 * correctly left to another server (external).
 */
export const HIGHLIGHT_SEVERITY: readonly Highlight[] = ["mismatched", "ambiguous", "external", "none"];

export function strongestHighlight(highlights: Iterable<Highlight>): Highlight {
  let best = HIGHLIGHT_SEVERITY.length - 1;
  for (const h of highlights) best = Math.min(best, HIGHLIGHT_SEVERITY.indexOf(h));
  return HIGHLIGHT_SEVERITY[best] ?? "none";
}

/** Names in sentences are quoted with their hidden characters made visible (lib/names). */
const quote = quoteName;

interface Decision {
  readonly status: CallStatus;
  readonly verifier_name: string;
  readonly provenance: ProvenanceIdentity | null;
  readonly explanation: string;
}

/** The first two rows of the status table: Gym's narrow legacy fallback, `mcp__<S>__<rest>` only. */
function decideWithoutMap(emitted: string, server: string, why: string): Decision {
  if (server === "") {
    // No verifying server is chosen: no `mcp__<S>__` prefix exists to strip, and no sentence names an empty S.
    return {
      status: "bare",
      verifier_name: emitted,
      provenance: null,
      explanation: `${why}, and no verifying server is chosen, so no legacy prefix applies and the verifier would see the emitted name unchanged.`,
    };
  }
  const prefix = legacyPrefix(server);
  if (emitted.startsWith(prefix) && emitted.length > prefix.length) {
    const rest = emitted.slice(prefix.length);
    return {
      status: "legacy",
      verifier_name: rest,
      provenance: null,
      explanation: `${why}, and the name starts with ${quote(prefix)}, so the legacy fallback strips that prefix and the verifier sees ${quote(rest)}.`,
    };
  }
  return {
    status: "bare",
    verifier_name: emitted,
    provenance: null,
    explanation: `${why}, and the name does not start with ${quote(prefix)} followed by a tool name, so the verifier sees the emitted name unchanged.`,
  };
}

function decideWithMap(
  emitted: string,
  callId: string | null,
  reading: ProvenanceReading,
  callIdCounts: ReadonlyMap<string, number>,
  server: string,
): Decision {
  const keep = (status: CallStatus, explanation: string, provenance: ProvenanceIdentity | null = null) => ({
    status,
    verifier_name: emitted,
    provenance,
    explanation,
  });
  if (reading.state === "invalid") {
    return keep(
      "malformed",
      `mcp_tool_call_provenance is ${reading.invalid_kind}, not an object, so it is not authoritative: no call is canonicalized and no fallback runs.`,
    );
  }
  if (callId === null || callId === "") {
    return keep(
      "uncorrelated",
      `The provenance map is authoritative but this call has ${callId === null ? "no string call_id" : "an empty call_id"}, so no entry can be attributed to it and it keeps its emitted name.`,
    );
  }
  const entry: EntryReading | undefined = reading.entries.get(callId);
  const occurrences = callIdCounts.get(callId) ?? 0;
  if (occurrences > 1) {
    return keep(
      "duplicate",
      `call_id ${quote(callId)} occurs on ${occurrences} function_calls, so its provenance cannot be attributed and the call keeps its emitted name (fail closed).`,
      entry?.valid ? entry.identity : null,
    );
  }
  if (entry === undefined) {
    return keep(
      "non_mcp",
      `The provenance map is authoritative and has no entry for call_id ${quote(callId)}, so this is a non-MCP call and keeps its emitted name.`,
    );
  }
  if (!entry.valid) {
    return keep(
      "malformed",
      `The provenance entry for call_id ${quote(callId)} is malformed (${entry.reasons.join("; ")}), so the call keeps its emitted name.`,
    );
  }
  const identity = entry.identity;
  if (server === "") {
    return keep(
      "external",
      `Provenance attributes this call to server ${quote(identity.server_name)}, but no verifying server is chosen, so it keeps its emitted name.`,
      identity,
    );
  }
  if (identity.server_name !== server) {
    return keep(
      "external",
      `Provenance attributes this call to server ${quote(identity.server_name)}, not the verifying server ${quote(server)}, so it keeps its emitted name.`,
      identity,
    );
  }
  return {
    status: "canonical",
    verifier_name: identity.tool_name,
    provenance: identity,
    explanation: `Provenance attributes this call to tool ${quote(identity.tool_name)} of the verifying server ${quote(server)}, so the verifier sees ${quote(identity.tool_name)}.`,
  };
}

function callIdOf(call: IndexedFunctionCall): string | null {
  return typeof call.call.call_id === "string" ? call.call.call_id : null;
}

function statusFlags(decision: Decision, server: string, tools: ReadonlySet<string> | null): FlagDraft[] {
  const flags: FlagDraft[] = [];
  const identity = decision.provenance;
  if (decision.status === "external" && identity !== null && isServerNearMiss(identity.server_name, server)) {
    flags.push({
      name: "server_near_miss",
      message: `Provenance server ${quote(identity.server_name)} differs from the verifying server ${quote(server)} only in case or separators, so the call is treated as external; check the server's configured name.`,
    });
  }
  if (
    tools !== null &&
    (decision.status === "canonical" || decision.status === "legacy") &&
    !tools.has(decision.verifier_name)
  ) {
    flags.push({
      name: "unknown_tool",
      message: `The verifier name ${quote(decision.verifier_name)} is not a tool of server ${quote(server)}.`,
    });
  }
  return flags;
}

function gymRejectReasons(
  calls: readonly IndexedFunctionCall[],
  reading: ProvenanceReading,
  policy: Policy,
): string[] {
  const reasons: string[] = [];
  // Gym before provenance never reads the map, so only the call_id rule applies under policy legacy.
  if (policy === "contract") {
    if (reading.state === "invalid")
      reasons.push(`mcp_tool_call_provenance is ${reading.invalid_kind}, not an object`);
    for (const [callId, entry] of reading.entries) {
      if (!entry.valid) {
        reasons.push(
          `provenance entry for call_id ${quote(callId)} is malformed: ${entry.reasons.join("; ")}`,
        );
      }
    }
  }
  for (const call of calls) {
    if (callIdOf(call) === null) {
      reasons.push(
        `function_call #${call.index} (response.output[${call.output_index}]) has no string call_id`,
      );
    }
  }
  return reasons;
}

/**
 * One rollout's resolution, a call at a time: the rollout-wide part (map reading, call_id counts, findings,
 * the alias flag context) is prepared once, and each call is resolved when asked. A 100k-call rollout's
 * detail pane asks for the hundred calls on screen, not for every call's explanation and flags.
 */
export interface RolloutResolver {
  readonly server: string;
  readonly policy: Policy;
  readonly map_state: RolloutResolution["map_state"];
  readonly findings: readonly RolloutFinding[];
  /** How many function_calls the rollout has. */
  readonly count: number;
  /** The resolution of call `index` (0-based, in output order); computed on each call. */
  call(index: number): CallResolution;
}

function* validIdentities(reading: ProvenanceReading): Iterable<ProvenanceIdentity> {
  for (const entry of reading.entries.values()) if (entry.valid) yield entry.identity;
}

export function rolloutResolver(rollout: Rollout, options: ResolveOptions): RolloutResolver {
  const server = options.server;
  const policy = options.policy ?? DEFAULT_POLICY;
  const reading = readProvenance(rollout);
  const calls = functionCalls(rollout);
  const tools = options.tools === undefined ? null : new Set(options.tools);

  // Only a call read against the map needs its call_id's count (and only the contract reads the map): a
  // 100k-call rollout's legacy resolver built a 100k-key map it never read (bench/hostile-browser.md).
  const readsMap = policy === "contract" && reading.state !== "unknown";
  const callIdCounts = new Map<string, number>();
  if (readsMap) {
    for (const call of calls) {
      const id = callIdOf(call);
      if (id !== null && id !== "") callIdCounts.set(id, (callIdCounts.get(id) ?? 0) + 1);
    }
  }

  const aliasFlags = aliasFlagger({
    server,
    tools: options.tools ?? null,
    harness: options.harness ?? null,
    // Under policy legacy the map is ignored entirely, so its identities do not count as known.
    // Read only if a call needs the collision index (an array of 100k identities per open was not).
    provenanceIdentities: policy === "contract" ? validIdentities(reading) : [],
  });

  const resolve = (call: IndexedFunctionCall): CallResolution => {
    const callId = callIdOf(call);
    const emitted = call.call.name;
    const decision =
      policy === "legacy"
        ? decideWithoutMap(emitted, server, "Policy legacy ignores provenance")
        : reading.state === "unknown"
          ? decideWithoutMap(emitted, server, "The rollout has no provenance map")
          : decideWithMap(emitted, callId, reading, callIdCounts, server);
    // Each flag carries its highlight, so no front end needs a copy of FLAG_HIGHLIGHT.
    const flags: Flag[] = [
      ...statusFlags(decision, server, tools),
      ...aliasFlags(emitted, decision.status, decision.provenance),
    ].map((flag) => ({ ...flag, highlight: FLAG_HIGHLIGHT[flag.name] }));
    const highlight = strongestHighlight([
      STATUS_HIGHLIGHT[decision.status],
      ...flags.map((flag) => flag.highlight),
    ]);
    return {
      index: call.index,
      output_index: call.output_index,
      call_id: callId,
      emitted,
      provenance: decision.provenance,
      status: decision.status,
      verifier_name: decision.verifier_name,
      flags,
      highlight,
      explanation: decision.explanation,
    };
  };

  const findings: RolloutFinding[] = [];
  if (policy === "contract" && reading.state === "authoritative") {
    // Every string call_id is counted but "" (a call with it still claims the entry keyed "").
    const emptyId = calls.some((call) => call.call.call_id === "");
    const orphans = [...reading.entries.keys()].filter((key) =>
      key === "" ? !emptyId : !callIdCounts.has(key),
    );
    if (orphans.length > 0) {
      findings.push({
        kind: "orphan_provenance",
        call_ids: orphans,
        message: `${orphans.length} provenance ${orphans.length === 1 ? "entry matches" : "entries match"} no function_call: ${orphans.map(quote).join(", ")}.`,
      });
    }
  }
  const reasons = gymRejectReasons(calls, reading, policy);
  if (reasons.length > 0) {
    findings.push({
      kind: "gym_would_reject",
      reasons,
      message: `Gym's request validation would reject this verify request: ${reasons.join("; ")}.`,
    });
  }

  return {
    server,
    policy,
    map_state: reading.state,
    findings,
    count: calls.length,
    call: (index) => {
      const call = calls[index];
      if (call === undefined)
        throw new RangeError(`no function_call #${index} (the rollout has ${calls.length})`);
      return resolve(call);
    },
  };
}

/**
 * Resolves every function_call of a readable rollout (contract, "Per-call status" and "Diagnostic
 * flags"). Pure: the rollout is only read.
 */
export function resolveRollout(rollout: Rollout, options: ResolveOptions): RolloutResolution {
  const resolver = rolloutResolver(rollout, options);
  const calls = Array.from({ length: resolver.count }, (_, index) => resolver.call(index));
  return {
    server: resolver.server,
    policy: resolver.policy,
    map_state: resolver.map_state,
    calls,
    findings: resolver.findings,
  };
}
