/**
 * Hermes agent (docs/harness-aliases.md section 2). Python, so replacements are per code point.
 * Era A  `mcp_{s}_{t}`, only `-` and `.` replaced.
 * Era B  `mcp_{S}_{T}`, S = re.sub(r"[^A-Za-z0-9_]", "_", v)  (the fork NeMo Gym pins: "hermes-legacy").
 * Era C  `mcp__{S}__{T}`.
 * Era D  as C, clamped to 64 with `_` + sha256[:8] of the full name ("hermes").
 * Not modelled: the generated per-server utilities (list_resources, read_resource, ...) unless they are
 * passed in as identities, and the built-in name check (built-ins never start with `mcp_`).
 */
import { type AliasRule, groupIndices, lastWins, PROVIDER_NAME_LIMIT, providerWarnings } from "./rule";
import { isWordAscii, replacePerCodePoint, sha256Hex } from "./text";
import type { ToolIdentity } from "./types";

/** Era D clamp: names longer than this are cut and get a hash suffix. */
export const HERMES_MAX_NAME_LENGTH = 64;
/** Hex digits of the sha256 suffix in the era D clamp. */
export const HERMES_HASH_HEX_LENGTH = 8;

/** Era A component: only `-` and `.` become `_`; spaces, emoji etc. pass through. */
export function hermesEraAComponent(value: string): string {
  return value.replaceAll("-", "_").replaceAll(".", "_");
}

/** sanitize_mcp_name_component (eras B-D): per code point, so one emoji is one `_`. */
export function hermesComponent(value: string): string {
  return replacePerCodePoint(value, isWordAscii, "_");
}

export function hermesEraAAlias(server: string, tool: string): string {
  return `mcp_${hermesEraAComponent(server)}_${hermesEraAComponent(tool)}`;
}

export function hermesLegacyAlias(server: string, tool: string): string {
  return `mcp_${hermesComponent(server)}_${hermesComponent(tool)}`;
}

export function hermesEraCAlias(server: string, tool: string): string {
  return `mcp__${hermesComponent(server)}__${hermesComponent(tool)}`;
}

/** mcp_prefixed_tool_name, era D. After sanitizing, the name is ASCII, so length is the same in any unit. */
export function hermesAlias(server: string, tool: string): string {
  const full = hermesEraCAlias(server, tool);
  if (full.length <= HERMES_MAX_NAME_LENGTH) return full;
  const suffix = `_${sha256Hex(full).slice(0, HERMES_HASH_HEX_LENGTH)}`;
  return full.slice(0, HERMES_MAX_NAME_LENGTH - suffix.length) + suffix;
}

const LAST_WINS_POLICY =
  "Hermes lets a later MCP registration overwrite an earlier one (last wins). Within a server that is the last tool listed; across servers, servers connect in parallel, so the survivor is not deterministic (shown here in configuration order).";

/**
 * Fail-closed registration (PR #73668, era D): within one server every member of an ambiguous group is
 * skipped; across servers the existing owner (first registered, taken here as configuration order) keeps it.
 */
function failClosed(identities: readonly ToolIdentity[], names: readonly string[]): (string | null)[] {
  const final: (string | null)[] = names.map(() => null);
  const owned = new Set<string>();
  for (const serverGroup of groupIndices(identities, (id) => id.server)) {
    const count = new Map<string, number>();
    for (const i of serverGroup) {
      const name = names[i] ?? "";
      count.set(name, (count.get(name) ?? 0) + 1);
    }
    const registered: string[] = [];
    for (const i of serverGroup) {
      const name = names[i] ?? "";
      if ((count.get(name) ?? 0) > 1 || owned.has(name)) continue;
      final[i] = name;
      registered.push(name);
    }
    for (const name of registered) owned.add(name);
  }
  return final;
}

function lastWinsRule(
  id: "hermes-a" | "hermes-legacy" | "hermes-c",
  label: string,
  pattern: string,
  alias: (server: string, tool: string) => string,
): AliasRule {
  return {
    id,
    label,
    pattern,
    collisionPolicy: LAST_WINS_POLICY,
    collisionKey: (a) => a,
    name: alias,
    assign(identities) {
      const produced = identities.map((x) => alias(x.server, x.tool));
      const final = lastWins(produced);
      return { produced, final, warnings: providerWarnings(identities, final, "Hermes") };
    },
  };
}

export const hermesEraA = lastWinsRule(
  "hermes-a",
  "Hermes (era A, 2026-03)",
  "mcp_{server}_{tool}, only - and . -> _",
  hermesEraAAlias,
);

export const hermesLegacy = lastWinsRule(
  "hermes-legacy",
  "Hermes (Gym pin, era B)",
  "mcp_{server}_{tool}, [^A-Za-z0-9_] -> _ per code point, no length limit",
  hermesLegacyAlias,
);

/** Era C is modelled with the registry of its start (last wins); builds after 2026-07-28 fail closed. */
export const hermesEraC = lastWinsRule(
  "hermes-c",
  "Hermes (era C, 2026-07)",
  "mcp__{server}__{tool}, [^A-Za-z0-9_] -> _ per code point, no length limit",
  hermesEraCAlias,
);

export const hermes: AliasRule = {
  id: "hermes",
  label: "Hermes (current, era D)",
  pattern: `mcp__{server}__{tool}, [^A-Za-z0-9_] -> _ per code point, over ${HERMES_MAX_NAME_LENGTH}: [:55] + _ + sha256[:8]`,
  collisionPolicy:
    "Hermes fails closed: within one server every tool of an ambiguous name is skipped; across servers the existing owner (first registered; servers connect in parallel, shown here in configuration order) keeps it and later ones are skipped.",
  collisionKey: (a) => a,
  name: hermesAlias,
  assign(identities) {
    const produced = identities.map((x) => hermesAlias(x.server, x.tool));
    const final = failClosed(identities, produced);
    const warnings = providerWarnings(identities, final, "Hermes");
    identities.forEach((x, i) => {
      const full = hermesEraCAlias(x.server, x.tool);
      if (full.length > PROVIDER_NAME_LIMIT) {
        warnings.push({
          identities: [x],
          message: `Hermes clamps ${JSON.stringify(full)} (${full.length} chars) to ${JSON.stringify(produced[i])}.`,
        });
      }
    });
    return { produced, final, warnings };
  },
};
