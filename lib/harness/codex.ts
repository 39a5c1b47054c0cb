/**
 * OpenAI Codex CLI (docs/harness-aliases.md section 4). Rust, so replacements are per Unicode scalar.
 * "codex" is era E5: namespace `mcp__<SAN(server)>` + function `<SAN(tool)>`, collisions hashed with
 * `_` + 12 hex of sha1, 64-char budget including the `__` delimiter; the alias here is the flattened
 * `namespace__function`, which is what hooks, proxies and non-namespace back-ends see.
 * Eras E2-E4 and E6 are kept for what-if comparisons.
 */
import {
  type AliasRule,
  firstWins,
  formatIdentity,
  groupIndices,
  PROVIDER_NAME_LIMIT,
  providerWarnings,
} from "./rule";
import { compareCodePoints, isWordAscii, replacePerCodePoint, sha1Hex, utf8Length } from "./text";
import type { AliasWarning, ToolIdentity } from "./types";

/** Codex refuses to start a server whose config key does not match this. */
export const CODEX_SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;
export const CODEX_PREFIX = "mcp__";
export const CODEX_DELIMITER = "__";
/** Hex digits of the E5/E6 collision and length suffix. */
export const CODEX_HASH_HEX_LENGTH = 12;
/** E5 budget (v0.148 and earlier). */
export const CODEX_E5_MAX_LENGTH = 64;
/** E6 budget (PR #39594, to match the Responses API). */
export const CODEX_E6_MAX_LENGTH = 128;
/** E1-E4: names over 64 keep this many leading characters, then the full 40-hex sha1. */
export const CODEX_LEGACY_KEEP = 24;

/** Why Codex would not start this server, or null when the name is accepted. */
export function codexServerRejection(server: string): string | null {
  return CODEX_SERVER_NAME_PATTERN.test(server)
    ? null
    : `Codex refuses to start MCP server ${JSON.stringify(server)}: server names must match ^[a-zA-Z0-9_-]+$.`;
}

/** sanitize_responses_api_tool_name since E4: only [A-Za-z0-9_] survive; empty becomes "_". */
export function codexSanitize(value: string): string {
  return replacePerCodePoint(value, isWordAscii, "_") || "_";
}

function hashSuffix(input: string): string {
  return `_${sha1Hex(input).slice(0, CODEX_HASH_HEX_LENGTH)}`;
}

interface Candidate {
  readonly index: number;
  readonly rawNamespace: string;
  readonly rawTool: string;
  namespace: string;
  name: string;
}

function prefixedNamespace(server: string): string {
  const ns = codexSanitize(server);
  return ns.startsWith(CODEX_PREFIX) ? ns : CODEX_PREFIX + ns;
}

function fitWithHash(ns: string, nm: string, hashInput: string, max: number): [string, string] {
  const suffix = hashSuffix(hashInput);
  const maxTool = Math.max(0, max - (ns.length + CODEX_DELIMITER.length));
  if (maxTool >= suffix.length) return [ns, nm.slice(0, maxTool - suffix.length) + suffix];
  return [ns.slice(0, Math.max(0, max - (suffix.length + CODEX_DELIMITER.length))), suffix];
}

/**
 * normalize_tools_for_model_with_prefix (E5/E6) for the accepted identities. Returns the flattened alias
 * of each. After sanitizing everything is ASCII, so `.length` equals Rust's byte length.
 */
function namespacedAliases(
  identities: readonly ToolIdentity[],
  max: number,
): { final: string[]; notes: string[] } {
  const candidates: Candidate[] = identities.map((id, index) => {
    const rawNamespace = `${id.server}\0${id.server}\0`; // server, callable namespace, empty connector id
    return {
      index,
      rawNamespace,
      rawTool: `${rawNamespace}\0${id.tool}\0${id.tool}`, // + callable name, MCP tool name
      namespace: prefixedNamespace(id.server),
      name: codexSanitize(id.tool),
    };
  });
  const notes = identities.map(() => "");

  // 1) Distinct raw namespaces sharing a sanitized namespace: every member gets a hash.
  for (const group of groupIndices(candidates, (c) => c.namespace)) {
    const members = group.flatMap((i) => candidates[i] ?? []);
    if (new Set(members.map((c) => c.rawNamespace)).size < 2) continue;
    for (const c of members) {
      const suffix = hashSuffix(c.rawNamespace);
      c.namespace = c.namespace.endsWith(CODEX_DELIMITER)
        ? c.namespace.slice(0, -CODEX_DELIMITER.length) + suffix + CODEX_DELIMITER
        : c.namespace + suffix;
      notes[c.index] = "its sanitized namespace collides with another server's";
    }
  }
  // 2) Distinct raw tools sharing (namespace, name): every member gets a hash.
  for (const group of groupIndices(candidates, (c) => JSON.stringify([c.namespace, c.name]))) {
    const members = group.flatMap((i) => candidates[i] ?? []);
    if (new Set(members.map((c) => c.rawTool)).size < 2) continue;
    for (const c of members) {
      c.name += hashSuffix(c.rawTool);
      notes[c.index] = "its sanitized name collides with another tool's";
    }
  }
  // 3) In raw-identity order, keep names that fit and are unused; otherwise truncate and hash.
  const sorted = [...candidates].sort((a, b) => compareCodePoints(a.rawTool, b.rawTool));
  const used = new Set<string>();
  const final = identities.map(() => "");
  for (const c of sorted) {
    let ns = c.namespace;
    let nm = c.name;
    // The uniqueness key is namespace + name without the delimiter, as in unique_callable_parts.
    if (!(ns.length + nm.length + CODEX_DELIMITER.length <= max && !used.has(ns + nm))) {
      notes[c.index] ||= `it does not fit in ${max} characters`;
      for (let attempt = 0; ; attempt++) {
        const input = attempt === 0 ? c.rawTool : `${c.rawTool}\0${attempt}`;
        [ns, nm] = fitWithHash(c.namespace, c.name, input, max);
        if (!used.has(ns + nm)) break;
      }
    }
    used.add(ns + nm);
    final[c.index] = ns + CODEX_DELIMITER + nm;
  }
  return { final, notes };
}

/** E2-E4: one flat name; over 64 bytes it keeps 24 bytes and appends the full sha1 of the raw name. */
function legacyAlias(era: "codex-e2" | "codex-e3" | "codex-e4", server: string, tool: string): string {
  const raw = `${CODEX_PREFIX}${server}${CODEX_DELIMITER}${tool}`;
  let q = raw;
  if (era === "codex-e3") q = replacePerCodePoint(raw, (ch) => /^[A-Za-z0-9_-]$/.test(ch), "_");
  if (era === "codex-e4") q = replacePerCodePoint(raw, isWordAscii, "_");
  if (utf8Length(q) <= PROVIDER_NAME_LIMIT) return q;
  // E2 does not sanitize, so cut at a character boundary within the first 24 bytes.
  let head = "";
  for (const ch of q) {
    if (utf8Length(head + ch) > CODEX_LEGACY_KEEP) break;
    head += ch;
  }
  return head + sha1Hex(raw);
}

function flatCollisionWarnings(identities: readonly ToolIdentity[], final: readonly (string | null)[]) {
  const warnings: AliasWarning[] = [];
  for (const group of groupIndices(final, (f) => f)) {
    if (group.length < 2) continue;
    warnings.push({
      identities: group.flatMap((i) => identities[i] ?? []),
      message: `Codex keeps these as distinct (namespace, function) pairs, but they flatten to the same ${JSON.stringify(final[group[0] ?? 0])}: ambiguous on any flat-name back-end.`,
    });
  }
  return warnings;
}

function namespacedRule(id: "codex" | "codex-e6", label: string, max: number): AliasRule {
  const loneAlias = (server: string, tool: string) =>
    namespacedAliases([{ server, tool }], max).final[0] ?? "";
  return {
    id,
    label,
    pattern: `namespace mcp__{server} + function {tool}, [^A-Za-z0-9_] -> _ per code point, collisions and over-${max} names get _ + sha1[:12]`,
    collisionPolicy:
      "Codex keeps every tool: all members of a sanitized namespace or (namespace, name) collision get _ + 12 hex of sha1 of their raw identity, independent of order; a collision that exists only in the flattened name (a__b/c vs a/b__c) is not detected.",
    collisionKey: (a) => a,
    name: (server, tool) => loneAlias(server, tool),
    assign(identities) {
      // Before collision handling an identity gets what it would get alone (length fitting included).
      const produced = identities.map((x) =>
        codexServerRejection(x.server) ? null : loneAlias(x.server, x.tool),
      );
      const accepted = identities.flatMap((x, i) => (produced[i] === null ? [] : [{ x, i }]));
      const { final: acceptedFinal, notes } = namespacedAliases(
        accepted.map((a) => a.x),
        max,
      );
      const final: (string | null)[] = identities.map(() => null);
      const warnings: AliasWarning[] = [];
      accepted.forEach(({ x, i }, k) => {
        const f = acceptedFinal[k] ?? null;
        final[i] = f;
        const note = notes[k];
        if (note && f !== prefixedNamespace(x.server) + CODEX_DELIMITER + codexSanitize(x.tool)) {
          warnings.push({
            identities: [x],
            message: `Codex renames ${formatIdentity(x)} to ${JSON.stringify(f)}: ${note}.`,
          });
        }
      });
      identities.forEach((x) => {
        const reason = codexServerRejection(x.server);
        if (reason) warnings.push({ identities: [x], message: reason });
      });
      warnings.push(...flatCollisionWarnings(identities, final));
      return { produced, final, warnings };
    },
  };
}

export const codex = namespacedRule("codex", "Codex (E5, flattened, 64)", CODEX_E5_MAX_LENGTH);
export const codexE6 = namespacedRule("codex-e6", "Codex (E6, flattened, 128)", CODEX_E6_MAX_LENGTH);

function legacyRule(id: "codex-e2" | "codex-e3" | "codex-e4", label: string, pattern: string): AliasRule {
  return {
    id,
    label,
    pattern,
    collisionPolicy:
      "Codex keeps the first tool with a given name and skips later ones with a warning (servers iterate in HashMap order, shown here in configuration order).",
    collisionKey: (a) => a,
    name: (server, tool) => legacyAlias(id, server, tool),
    assign(identities) {
      const produced = identities.map((x) =>
        codexServerRejection(x.server) ? null : legacyAlias(id, x.server, x.tool),
      );
      const final = firstWins(produced);
      const warnings = providerWarnings(identities, final, "Codex");
      identities.forEach((x) => {
        const reason = codexServerRejection(x.server);
        if (reason) warnings.push({ identities: [x], message: reason });
      });
      return { produced, final, warnings };
    },
  };
}

export const codexE2 = legacyRule(
  "codex-e2",
  "Codex (E2, 2025-10)",
  "mcp__{server}__{tool} raw; over 64: [:24] + sha1",
);
export const codexE3 = legacyRule(
  "codex-e3",
  "Codex (E3, 2026-01)",
  "mcp__{server}__{tool}, [^A-Za-z0-9_-] -> _; over 64: [:24] + sha1(raw)",
);
export const codexE4 = legacyRule(
  "codex-e4",
  "Codex (E4, 2026-03)",
  "mcp__{server}__{tool}, [^A-Za-z0-9_] -> _; over 64: [:24] + sha1(raw)",
);
