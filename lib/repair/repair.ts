/**
 * Explicit repair of legacy artifacts: derive `mcp_tool_call_provenance` from an exact alias map.
 *
 * A historical rollout (no provenance map) only tells us the emitted name. If the user states which
 * harness produced it and which MCP servers (with their tool lists) the run had, the harness's alias
 * map for that configuration can be inverted: an emitted name produced by exactly one (server, tool)
 * identity is attributed to it. Anything else (a collision, a name no identity produces, a call
 * without a usable or unique call_id) stays out of the map and is listed, never guessed.
 *
 * The result is always labelled: a sibling key `mcp_tool_call_provenance_derived` records the
 * harness, the servers, which call_ids were derived and what stayed unresolved (docs/repair.md).
 */
import { type AliasMap, buildAliasMap, type HarnessId, lookupAlias, type ToolIdentity } from "../harness";
import { functionCalls, PROVENANCE_KEY, provenanceMapOf, type Rollout } from "../schemas";

/** The sibling key that labels a derived provenance map. */
export const DERIVED_KEY = "mcp_tool_call_provenance_derived";
/** Who derived it: written into the label so a reader of the file knows it was not recorded by the harness. */
export const DERIVED_BY = "rollout-inspector repair (exact alias map)";

export interface RepairServer {
  readonly name: string;
  readonly tools: readonly string[];
}

export interface RepairOptions {
  readonly harness: HarnessId;
  /** The MCP servers the run had, in configuration order (order matters to some harnesses' renames). */
  readonly servers: readonly RepairServer[];
}

export type UnresolvedReason = "no_call_id" | "duplicate_call_id" | "collision" | "no_match";

export interface UnresolvedCall {
  /** 0-based position among the rollout's function_calls. */
  readonly index: number;
  readonly call_id: string | null;
  readonly emitted: string;
  readonly reason: UnresolvedReason;
  /** collision: every identity whose alias is the emitted name. */
  readonly identities?: readonly ToolIdentity[];
  readonly message: string;
}

export interface DerivedCall {
  readonly index: number;
  readonly call_id: string;
  readonly emitted: string;
  readonly server_name: string;
  readonly tool_name: string;
}

/** The label written next to a derived map (the value of DERIVED_KEY). */
export interface DerivedLabel {
  readonly derived_by: string;
  readonly harness: HarnessId;
  readonly servers: readonly { readonly name: string; readonly tools: readonly string[] }[];
  readonly derived_call_ids: readonly string[];
  readonly unresolved: readonly {
    readonly call_id: string | null;
    readonly emitted: string;
    readonly reason: UnresolvedReason;
  }[];
}

export type RepairStatus =
  /** At least one call got derived provenance; `rollout` is a repaired copy. */
  | "repaired"
  /** Nothing could be derived; the rollout is returned as given. */
  | "unchanged"
  /** The rollout already has a provenance map (or a derived label); left as given. */
  | "skipped"
  /** Not a readable rollout (counted by the caller, which narrows each line: lib/schemas readRollout). */
  | "invalid";

export interface RepairResult {
  readonly status: RepairStatus;
  /** One sentence for the user. */
  readonly message: string;
  readonly harness: HarnessId;
  readonly derived: readonly DerivedCall[];
  readonly unresolved: readonly UnresolvedCall[];
  /** Collisions of the alias map itself (whether or not a call used the colliding alias). */
  readonly collisions: readonly { readonly alias: string; readonly identities: readonly ToolIdentity[] }[];
  /**
   * The top-level keys to set, in order: the derived map and its label. Empty unless repaired.
   * The lossless export splices exactly these into the original line.
   */
  readonly set: readonly { readonly key: string; readonly value: unknown }[];
  /** The repaired rollout (a copy with `set` applied) or the input itself when not repaired. */
  readonly rollout: Rollout;
}

const quote = (s: string) => JSON.stringify(s);

function identitiesOf(servers: readonly RepairServer[]): ToolIdentity[] {
  return servers.flatMap((s) => s.tools.map((tool) => ({ server: s.name, tool })));
}

export function repairRollout(rollout: Rollout, options: RepairOptions): RepairResult {
  return createRepairer(options)(rollout);
}

/** Builds the alias map once, for repairing many rollouts of one run. */
export function createRepairer(options: RepairOptions): (rollout: Rollout) => RepairResult {
  const map = buildAliasMap(options.harness, identitiesOf(options.servers));
  const collisions = map.collisions.map((c) => ({ alias: c.alias, identities: c.identities }));
  return (rollout) => repairWith(rollout, options, map, collisions);
}

function repairWith(
  rollout: Rollout,
  options: RepairOptions,
  map: AliasMap,
  collisions: RepairResult["collisions"],
): RepairResult {
  const { harness, servers } = options;
  const base = { harness, collisions, derived: [], unresolved: [], set: [], rollout };

  const existing = rollout[PROVENANCE_KEY];
  if (existing !== undefined && existing !== null) {
    return { ...base, status: "skipped", message: `already has ${PROVENANCE_KEY}; left unchanged.` };
  }
  if (Object.hasOwn(rollout, DERIVED_KEY)) {
    return { ...base, status: "skipped", message: `already has ${DERIVED_KEY}; left unchanged.` };
  }

  const calls = functionCalls(rollout);
  const idCounts = new Map<string, number>();
  for (const { call } of calls) {
    if (typeof call.call_id === "string" && call.call_id !== "") {
      idCounts.set(call.call_id, (idCounts.get(call.call_id) ?? 0) + 1);
    }
  }

  const derived: DerivedCall[] = [];
  const unresolved: UnresolvedCall[] = [];
  for (const { index, call } of calls) {
    const emitted = call.name;
    const callId = typeof call.call_id === "string" ? call.call_id : null;
    const miss = (reason: UnresolvedReason, message: string, identities?: readonly ToolIdentity[]) =>
      unresolved.push({
        index,
        call_id: callId,
        emitted,
        reason,
        message,
        ...(identities ? { identities } : {}),
      });
    if (callId === null || callId === "") {
      miss(
        "no_call_id",
        `call ${index} (${quote(emitted)}) has no usable call_id, so no map entry can name it.`,
      );
      continue;
    }
    if ((idCounts.get(callId) ?? 0) > 1) {
      miss(
        "duplicate_call_id",
        `call_id ${quote(callId)} occurs on more than one function_call; an entry would be ambiguous.`,
      );
      continue;
    }
    const matches = lookupAlias(map, emitted);
    if (matches.length === 0) {
      miss("no_match", `${quote(emitted)} is not the ${harness} alias of any tool of the given servers.`);
      continue;
    }
    if (matches.length > 1) {
      const who = matches.map((m) => `(${m.server}, ${m.tool})`).join(", ");
      miss(
        "collision",
        `${quote(emitted)} is the ${harness} alias of ${matches.length} tools: ${who}.`,
        matches,
      );
      continue;
    }
    const [only] = matches;
    if (only === undefined) continue;
    derived.push({ index, call_id: callId, emitted, server_name: only.server, tool_name: only.tool });
  }

  if (derived.length === 0) {
    const why =
      calls.length === 0
        ? "it has no function_calls"
        : `none of its ${calls.length} calls is an unambiguous alias`;
    return { ...base, unresolved, status: "unchanged", message: `nothing derived: ${why}.` };
  }

  const provenance = provenanceMapOf(
    derived.map((d) => [d.call_id, { server_name: d.server_name, tool_name: d.tool_name }]),
  );
  const label: DerivedLabel = {
    derived_by: DERIVED_BY,
    harness,
    servers: servers.map((s) => ({ name: s.name, tools: [...s.tools] })),
    derived_call_ids: derived.map((d) => d.call_id),
    unresolved: unresolved.map((u) => ({ call_id: u.call_id, emitted: u.emitted, reason: u.reason })),
  };
  const set = [
    { key: PROVENANCE_KEY, value: provenance },
    { key: DERIVED_KEY, value: label },
  ];
  const repaired: Rollout = { ...rollout };
  for (const { key, value } of set) repaired[key] = structuredClone(value);
  const left = unresolved.length === 0 ? "" : `; ${unresolved.length} left unresolved`;
  return {
    ...base,
    derived,
    unresolved,
    set,
    rollout: repaired,
    status: "repaired",
    message: `derived provenance for ${derived.length} of ${calls.length} calls${left}.`,
  };
}
