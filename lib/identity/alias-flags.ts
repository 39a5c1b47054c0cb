import { aliasFor, buildAliasMap, HARNESSES, identityKey } from "../harness";
import type { HarnessId, ToolIdentity } from "../harness/types";
import { quoteName } from "../names";
import type { CallStatus, FlagDraft, ProvenanceIdentity } from "./types";

/** What the alias flags of one rollout depend on. */
export interface AliasFlagContext {
  readonly server: string;
  /** S's tool list, when known. */
  readonly tools: readonly string[] | null;
  /** The harness that produced the rollout, when known. */
  readonly harness: HarnessId | null;
  /** Identities named by this rollout's valid provenance entries (empty under policy legacy). */
  readonly provenanceIdentities: Iterable<ProvenanceIdentity>;
}

type Candidate = { readonly harness: HarnessId; readonly tool: string };

/**
 * Alias maps are costly to build (up to milliseconds for Codex's hashing), while the rollouts of one file
 * share S, its tool list and mostly the same provenance identities. So the few most recent maps are kept.
 */
const ALIAS_CACHE_SIZE = 8;

function cached<V>(cache: Map<string, V>, key: string, build: () => V): V {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = build();
  if (cache.size >= ALIAS_CACHE_SIZE) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(key, value);
  return value;
}

/** alias -> every (harness, tool) of S whose alias it is. */
const guessIndexCache = new Map<string, ReadonlyMap<string, readonly Candidate[]>>();

function guessIndex(server: string, tools: readonly string[]): ReadonlyMap<string, readonly Candidate[]> {
  return cached(guessIndexCache, JSON.stringify([server, tools]), () => {
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
    return index;
  });
}

/** alias -> the known identities producing it under one harness; keyed by the identities in order. */
const collisionCache = new Map<string, ReadonlyMap<string, readonly ToolIdentity[]>>();

function collisionIndex(
  harness: HarnessId,
  known: readonly ToolIdentity[],
): ReadonlyMap<string, readonly ToolIdentity[]> {
  const key = JSON.stringify([harness, known.map(identityKey)]);
  return cached(collisionCache, key, () => buildAliasMap(harness, known).inverse);
}

/** Names in sentences are quoted with their hidden characters made visible (lib/names). */
const quote = quoteName;

/** Builds the per-call alias flag computation for one rollout; the collision map is built at most once. */
export function aliasFlagger(
  context: AliasFlagContext,
): (emitted: string, status: CallStatus, provenance: ProvenanceIdentity | null) => FlagDraft[] {
  let collisions: ReadonlyMap<string, readonly ToolIdentity[]> | undefined;
  const collisionsOf = (harness: HarnessId): ReadonlyMap<string, readonly ToolIdentity[]> => {
    if (collisions !== undefined) return collisions;
    const known = new Map<string, ToolIdentity>();
    const add = (identity: ToolIdentity) => known.set(identityKey(identity), identity);
    for (const tool of context.tools ?? []) add({ server: context.server, tool });
    for (const p of context.provenanceIdentities) add({ server: p.server_name, tool: p.tool_name });
    const built = collisionIndex(harness, [...known.values()]);
    collisions = built;
    return built;
  };
  // Looked up once per rollout, not per call: its cache key serializes the whole tool list.
  let guesses: ReadonlyMap<string, readonly Candidate[]> | undefined;
  const guessesOf = (tools: readonly string[]): ReadonlyMap<string, readonly Candidate[]> => {
    guesses ??= guessIndex(context.server, tools);
    return guesses;
  };

  return (emitted, status, provenance) => {
    const flags: FlagDraft[] = [];
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
      const candidates = guessesOf(context.tools).get(emitted) ?? [];
      if (candidates.length > 0) {
        const listed = candidates.map((c) => `${c.harness} -> ${quote(c.tool)}`).join(", ");
        flags.push({
          name: "alias_guess",
          candidates: [...candidates],
          message: `${quote(emitted)} is the alias of a tool of ${quote(context.server)} (${listed}), but nothing records its provenance, so it is not canonicalized.`,
        });
      }
    }

    if (harness !== null) {
      const owners = collisionsOf(harness).get(emitted) ?? [];
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
