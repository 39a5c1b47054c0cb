import { aliasFor, buildAliasMap, HARNESSES, identityKey } from "../harness";
import type { HarnessId, ToolIdentity } from "../harness/types";
import type { CallStatus, Flag, ProvenanceIdentity } from "./types";

/** What the alias flags of one rollout depend on. */
export interface AliasFlagContext {
  readonly server: string;
  /** S's tool list, when known. */
  readonly tools: readonly string[] | null;
  /** The harness that produced the rollout, when known. */
  readonly harness: HarnessId | null;
  /** Identities named by this rollout's valid provenance entries (empty under policy legacy). */
  readonly provenanceIdentities: readonly ProvenanceIdentity[];
}

type Candidate = { readonly harness: HarnessId; readonly tool: string };

/**
 * alias -> every (harness, tool) of S whose alias it is. Rollouts of one file share S and its tool list,
 * so the index is kept for the last few (server, tools) pairs instead of being rebuilt per rollout.
 */
const GUESS_INDEX_CACHE_SIZE = 8;
const guessIndexCache = new Map<string, ReadonlyMap<string, readonly Candidate[]>>();

function guessIndex(server: string, tools: readonly string[]): ReadonlyMap<string, readonly Candidate[]> {
  const key = JSON.stringify([server, tools]);
  const cached = guessIndexCache.get(key);
  if (cached !== undefined) return cached;
  const identities: ToolIdentity[] = tools.map((tool) => ({ server, tool }));
  const index = new Map<string, Candidate[]>();
  for (const harness of HARNESSES) {
    // The whole tool set at once: some harnesses (OpenClaw, Codex) derive an alias from its neighbours.
    for (const [alias, owners] of buildAliasMap(harness, identities).inverse) {
      const list = index.get(alias) ?? [];
      for (const owner of owners) list.push({ harness, tool: owner.tool });
      index.set(alias, list);
    }
  }
  if (guessIndexCache.size >= GUESS_INDEX_CACHE_SIZE) {
    const oldest = guessIndexCache.keys().next();
    if (!oldest.done) guessIndexCache.delete(oldest.value);
  }
  guessIndexCache.set(key, index);
  return index;
}

const quote = (s: string) => JSON.stringify(s);

/** Builds the per-call alias flag computation for one rollout; the collision map is built at most once. */
export function aliasFlagger(
  context: AliasFlagContext,
): (emitted: string, status: CallStatus, provenance: ProvenanceIdentity | null) => Flag[] {
  let collisions: ReadonlyMap<string, readonly ToolIdentity[]> | undefined;
  const collisionIndex = (harness: HarnessId): ReadonlyMap<string, readonly ToolIdentity[]> => {
    if (collisions !== undefined) return collisions;
    const known = new Map<string, ToolIdentity>();
    const add = (identity: ToolIdentity) => known.set(identityKey(identity), identity);
    for (const tool of context.tools ?? []) add({ server: context.server, tool });
    for (const p of context.provenanceIdentities) add({ server: p.server_name, tool: p.tool_name });
    const built = buildAliasMap(harness, [...known.values()]).inverse;
    collisions = built;
    return built;
  };

  return (emitted, status, provenance) => {
    const flags: Flag[] = [];
    const harness = context.harness;

    if (provenance !== null && harness !== null) {
      const expected = aliasFor(harness, provenance.server_name, provenance.tool_name);
      if (expected !== emitted) {
        flags.push({
          name: "alias_disagrees",
          expected_alias: expected,
          message: `Under harness ${harness}, (${quote(provenance.server_name)}, ${quote(provenance.tool_name)}) would be emitted as ${quote(expected)}, not ${quote(emitted)}.`,
        });
      }
    }

    if ((status === "bare" || status === "non_mcp") && context.tools !== null) {
      const candidates = guessIndex(context.server, context.tools).get(emitted) ?? [];
      if (candidates.length > 0) {
        const listed = candidates.map((c) => `${c.harness} -> ${quote(c.tool)}`).join(", ");
        flags.push({
          name: "alias_guess",
          candidates,
          message: `${quote(emitted)} is the alias of a tool of ${quote(context.server)} (${listed}), but nothing records its provenance, so it is not canonicalized.`,
        });
      }
    }

    if (harness !== null) {
      const owners = collisionIndex(harness).get(emitted) ?? [];
      if (owners.length >= 2) {
        const listed = owners.map((o) => `(${quote(o.server)}, ${quote(o.tool)})`).join(", ");
        flags.push({
          name: "alias_collision",
          identities: owners.map((o) => ({ server: o.server, tool: o.tool })),
          message: `Under harness ${harness}, ${owners.length} known identities produce ${quote(emitted)}: ${listed}; the name alone cannot tell them apart.`,
        });
      }
    }
    return flags;
  };
}
