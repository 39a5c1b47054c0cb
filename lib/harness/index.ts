/**
 * Harness aliases: forward rules (server, tool) -> model-facing name per harness and era, alias maps
 * for a whole configuration with every collision recorded, and the inverse lookup. Aliases cannot be
 * parsed back reliably (`__` inside components, hashes, truncation), so inversion goes through a map.
 */
import { claudeCode } from "./claude-code";
import { codex, codexE2, codexE3, codexE4, codexE6 } from "./codex";
import { geminiCli } from "./gemini-cli";
import { hermes, hermesEraA, hermesEraC, hermesLegacy } from "./hermes";
import { openclaw } from "./openclaw";
import { type AliasRule, formatIdentity, groupIndices } from "./rule";
import type {
  AliasCollision,
  AliasMap,
  AliasMapOptions,
  AliasRuleId,
  HarnessEraId,
  HarnessId,
  ToolIdentity,
} from "./types";

export { claudeCodeAlias, normalizeClaudeCodeName } from "./claude-code";
export { codexSanitize, codexServerRejection } from "./codex";
export { geminiCliAlias, geminiValidName } from "./gemini-cli";
export { hermesAlias, hermesComponent, hermesEraAAlias, hermesEraCAlias, hermesLegacyAlias } from "./hermes";
export { openclawAlias } from "./openclaw";
export type {
  AliasCollision,
  AliasMap,
  AliasMapOptions,
  AliasRuleId,
  AliasWarning,
  HarnessEraId,
  HarnessId,
  ToolIdentity,
} from "./types";

/** The harnesses the UI offers, in display order. */
export const HARNESSES: readonly HarnessId[] = [
  "claude-code",
  "hermes-legacy",
  "hermes",
  "openclaw",
  "codex",
  "gemini-cli",
];

/** Other eras, for tests and what-if comparisons only. */
export const HARNESS_ERAS: readonly HarnessEraId[] = [
  "hermes-a",
  "hermes-c",
  "codex-e2",
  "codex-e3",
  "codex-e4",
  "codex-e6",
];

const RULES: Record<AliasRuleId, AliasRule> = {
  "claude-code": claudeCode,
  "hermes-legacy": hermesLegacy,
  hermes,
  openclaw,
  codex,
  "gemini-cli": geminiCli,
  "hermes-a": hermesEraA,
  "hermes-c": hermesEraC,
  "codex-e2": codexE2,
  "codex-e3": codexE3,
  "codex-e4": codexE4,
  "codex-e6": codexE6,
};

function labels<K extends AliasRuleId>(ids: readonly K[]): Record<K, string> {
  return Object.fromEntries(ids.map((id) => [id, RULES[id].label])) as Record<K, string>;
}

export const HARNESS_LABELS: Record<HarnessId, string> = labels(HARNESSES);

/** The harness each rule is an era of (a harness's current rule is its own). */
export const HARNESS_OF_RULE: Readonly<Record<AliasRuleId, HarnessId>> = {
  "claude-code": "claude-code",
  "hermes-legacy": "hermes",
  hermes: "hermes",
  openclaw: "openclaw",
  codex: "codex",
  "gemini-cli": "gemini-cli",
  "hermes-a": "hermes",
  "hermes-c": "hermes",
  "codex-e2": "codex",
  "codex-e3": "codex",
  "codex-e4": "codex",
  "codex-e6": "codex",
};
export const HARNESS_ERA_LABELS: Record<HarnessEraId, string> = labels(HARNESS_ERAS);

/** One line per rule: the alias pattern, sanitizer and length handling (for tooltips and docs). */
export const ALIAS_PATTERNS: Record<AliasRuleId, string> = Object.fromEntries(
  Object.values(RULES).map((r) => [r.id, r.pattern]),
) as Record<AliasRuleId, string>;

export function isHarnessId(x: string): x is HarnessId {
  return (HARNESSES as readonly string[]).includes(x);
}

export function isAliasRuleId(x: string): x is AliasRuleId {
  return Object.hasOwn(RULES, x);
}

/** Unambiguous key of one identity (used by AliasMap.forward). */
export function identityKey(id: ToolIdentity): string {
  return JSON.stringify([id.server, id.tool]);
}

/**
 * Alias of one identity when it is the only tool configured (no collision context). When the harness
 * would not offer it at all (Codex rejects the server name, OpenClaw skips a blank tool name) this is
 * still what the naming rule gives; buildAliasMap reports the refusal.
 */
export function aliasFor(harness: AliasRuleId, server: string, tool: string): string {
  return RULES[harness].name(server, tool);
}

function distinct(identities: readonly ToolIdentity[]): ToolIdentity[] {
  const seen = new Set<string>();
  const out: ToolIdentity[] = [];
  for (const id of identities) {
    const key = identityKey(id);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ server: id.server, tool: id.tool });
  }
  return out;
}

function outcome(members: readonly { id: ToolIdentity; produced: string; final: string | null }[]): string {
  const parts: string[] = [];
  for (const m of members) {
    if (m.final === null) parts.push(`${formatIdentity(m.id)} dropped`);
    else if (m.final === m.produced) parts.push(`${formatIdentity(m.id)} keeps ${JSON.stringify(m.final)}`);
    else parts.push(`${formatIdentity(m.id)} becomes ${JSON.stringify(m.final)}`);
  }
  return `${parts.join("; ")}.`;
}

/** identities in configuration order (servers in config order, tools in listed order). */
export function buildAliasMap<H extends AliasRuleId>(
  harness: H,
  identities: readonly ToolIdentity[],
  options: AliasMapOptions = {},
): AliasMap<H> {
  const rule = RULES[harness];
  const ids = distinct(identities);
  const { produced, final, warnings } = rule.assign(ids, options);

  const forward = new Map<string, string>();
  const inverse = new Map<string, ToolIdentity[]>();
  const addInverse = (alias: string, id: ToolIdentity) => {
    const list = inverse.get(alias);
    if (!list) inverse.set(alias, [id]);
    else if (!list.some((x) => identityKey(x) === identityKey(id))) list.push(id);
  };
  ids.forEach((id, i) => {
    const p = produced[i] ?? null;
    const f = final[i] ?? null;
    if (f !== null) forward.set(identityKey(id), f);
    if (p !== null) addInverse(p, id);
    if (f !== null && f !== p) addInverse(f, id);
  });

  const collisions: AliasCollision[] = [];
  for (const group of groupIndices(produced, (p) => (p === null ? null : rule.collisionKey(p)))) {
    if (group.length < 2) continue;
    const members = group.map((i) => ({ id: ids[i]!, produced: produced[i]!, final: final[i] ?? null }));
    collisions.push({
      alias: members[0]!.produced,
      identities: members.map((m) => m.id),
      resolution: `${rule.collisionPolicy} ${outcome(members)}`,
    });
  }
  return { harness, forward, inverse, collisions, warnings };
}

/** Inverse lookup: identities whose alias under this map equals `alias` (empty when none). */
export function lookupAlias(
  map: Pick<AliasMap<AliasRuleId>, "inverse">,
  alias: string,
): readonly ToolIdentity[] {
  return map.inverse.get(alias) ?? [];
}
export {
  type AgentInference,
  agentOf,
  chooseFor,
  type EmittedNames,
  formatHarnessChoice,
  type HarnessChoice,
  harnessFor,
  inferByAgent,
  NO_HARNESS,
  type ParsedHarnessChoice,
  parseHarnessChoice,
  sameChoice,
} from "./choice";
export { type HarnessInference, inferHarness } from "./infer";
