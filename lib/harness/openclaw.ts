/**
 * OpenClaw (docs/harness-aliases.md section 3; src/agents/agent-bundle-mcp-names.ts):
 * `<server>__<tool>` with no `mcp__` prefix, invalid characters -> `-` per UTF-16 unit, server fragment
 * <= 30, total <= 64 by truncation, uniqueness by case-insensitive `-2`, `-3`, ... suffixes.
 */
import { type AliasRule, formatIdentity, groupIndices } from "./rule";
import { truncateUtf16Safe } from "./text";
import type { AliasMapOptions, AliasWarning, ToolIdentity } from "./types";

export const OPENCLAW_SEPARATOR = "__";
/** Longest server fragment. */
export const OPENCLAW_MAX_PREFIX = 30;
/** Longest whole alias. */
export const OPENCLAW_MAX_TOTAL = 64;
const SERVER_FALLBACK = "mcp";
const TOOL_FALLBACK = "tool";

// OpenClaw sorts with String.prototype.localeCompare in the runtime's default locale; we assume English.
const collator = new Intl.Collator("en");

/** sanitizeToolFragment. No `u` flag on purpose: one astral character becomes two `-`. */
function fragment(raw: string, fallback: string, maxChars?: number): string {
  const cleaned = raw.trim().replace(/[^A-Za-z0-9_-]/g, "-");
  const normalized = cleaned || fallback;
  // Providers such as Moonshot want a letter first: "12306" -> "mcp-12306".
  const providerSafe = /^[A-Za-z]/.test(normalized) ? normalized : `${fallback}-${normalized}`;
  return maxChars ? truncateUtf16Safe(providerSafe, maxChars) : providerSafe;
}

/** Server fragment before de-duplication. */
export function openclawServerBase(raw: string): string {
  return fragment(raw, SERVER_FALLBACK, OPENCLAW_MAX_PREFIX);
}

/** sanitizeServerName: reserves the result (lowercased) in `used`. */
export function openclawServerName(raw: string, used: Set<string>): string {
  const base = openclawServerBase(raw);
  let candidate = base;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) {
    const suffix = `-${n}`;
    candidate = `${truncateUtf16Safe(base, Math.max(1, OPENCLAW_MAX_PREFIX - suffix.length))}${suffix}`;
  }
  used.add(candidate.toLowerCase());
  return candidate;
}

/** buildSafeToolName: the first name not in `reserved` (lowercased). The caller reserves the result. */
export function openclawToolName(safeServer: string, rawTool: string, reserved: ReadonlySet<string>): string {
  const cleaned = fragment(rawTool.trim(), TOOL_FALLBACK);
  const maxToolChars = Math.max(1, OPENCLAW_MAX_TOTAL - safeServer.length - OPENCLAW_SEPARATOR.length);
  const truncated = truncateUtf16Safe(cleaned, maxToolChars);
  let candidate = `${safeServer}${OPENCLAW_SEPARATOR}${truncated || TOOL_FALLBACK}`;
  for (let n = 2; reserved.has(candidate.toLowerCase()); n++) {
    const suffix = `-${n}`;
    const part = truncateUtf16Safe(truncated || TOOL_FALLBACK, Math.max(1, maxToolChars - suffix.length));
    candidate = `${safeServer}${OPENCLAW_SEPARATOR}${part}${suffix}`;
  }
  return candidate;
}

/** Alias of a lone tool: no other server or tool competes for the name. */
export function openclawAlias(server: string, tool: string): string {
  return openclawToolName(openclawServerBase(server), tool, new Set());
}

export const openclaw: AliasRule = {
  id: "openclaw",
  label: "OpenClaw",
  pattern:
    "{server}__{tool}, [^A-Za-z0-9_-] -> - per UTF-16 unit, server <= 30, total <= 64, -2 on collision",
  collisionPolicy:
    "OpenClaw keeps every tool: servers are named in configuration order and tools in sorted order (safe server, tool, server); the first keeps the name and later ones get -2, -3, ... (compared case-insensitively).",
  collisionKey: (alias) => alias.toLowerCase(),
  name: openclawAlias,
  assign(identities: readonly ToolIdentity[], options: AliasMapOptions) {
    const warnings: AliasWarning[] = [];
    const usedServers = new Set<string>();
    const safeServers = new Map<string, string>();
    for (const group of groupIndices(identities, (id) => id.server)) {
      const first = identities[group[0] ?? 0];
      if (!first) continue;
      const safe = openclawServerName(first.server, usedServers);
      safeServers.set(first.server, safe);
      if (safe !== openclawServerBase(first.server)) {
        warnings.push({
          identities: group.flatMap((i) => identities[i] ?? []),
          message: `OpenClaw renames server ${JSON.stringify(first.server)} to ${JSON.stringify(safe)}: ${JSON.stringify(openclawServerBase(first.server))} is taken by an earlier server.`,
        });
      }
    }

    // A tool whose name is blank is skipped, so it produces no alias at all.
    const produced = identities.map((id) => (id.tool.trim() ? openclawAlias(id.server, id.tool) : null));
    const final: (string | null)[] = identities.map(() => null);
    const reserved = new Set<string>();
    for (const name of options.reservedNames ?? []) {
      const n = name.trim().toLowerCase();
      if (n) reserved.add(n);
    }
    const order = identities
      .map((id, index) => ({ id, index, safeServer: safeServers.get(id.server) ?? "" }))
      .sort(
        (a, b) =>
          collator.compare(a.safeServer, b.safeServer) ||
          collator.compare(a.id.tool, b.id.tool) ||
          collator.compare(a.id.server, b.id.server),
      );
    for (const { id, index, safeServer } of order) {
      const original = id.tool.trim();
      if (!original) {
        warnings.push({
          identities: [id],
          message: `OpenClaw skips ${formatIdentity(id)}: empty tool name.`,
        });
        continue;
      }
      const name = openclawToolName(safeServer, original, reserved);
      reserved.add(name.toLowerCase());
      final[index] = name;
    }

    // Renames that no other identity's alias explains (a reserved built-in name) are worth a word too.
    const producedKeys = new Map<string, number>();
    for (const p of produced) {
      if (p !== null) producedKeys.set(p.toLowerCase(), (producedKeys.get(p.toLowerCase()) ?? 0) + 1);
    }
    identities.forEach((id, i) => {
      const f = final[i];
      const p = produced[i] ?? "";
      if (f === null || f === undefined || f === p || (producedKeys.get(p.toLowerCase()) ?? 0) > 1) return;
      if (safeServers.get(id.server) !== openclawServerBase(id.server)) return;
      warnings.push({
        identities: [id],
        message: `OpenClaw renames ${formatIdentity(id)} from ${JSON.stringify(p)} to ${JSON.stringify(f)}: the name is reserved or already issued.`,
      });
    });
    return { produced, final, warnings };
  },
};
