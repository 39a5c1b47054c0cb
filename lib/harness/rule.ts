/**
 * The shape every alias rule implements, plus the collision policies several harnesses share.
 * A rule sees the distinct identities of one configuration, in configuration order.
 */
import type { AliasMapOptions, AliasRuleId, AliasWarning, ToolIdentity } from "./types";

/** Provider-side bound most back-ends enforce (OpenAI Chat, Anthropic tool_reference, Bedrock). */
export const PROVIDER_NAME_LIMIT = 64;
/** Characters OpenAI and Anthropic accept in a function name. */
export const PROVIDER_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

export interface RuleAssignment {
  /**
   * The alias the naming rule gives each identity before the harness resolves collisions (index-aligned
   * with the input), or null when the harness never produces one (e.g. Codex rejects the server name).
   */
  readonly produced: readonly (string | null)[];
  /** What the model is offered for each identity after collision handling; null when dropped. */
  readonly final: readonly (string | null)[];
  readonly warnings: readonly AliasWarning[];
}

export interface AliasRule {
  readonly id: AliasRuleId;
  readonly label: string;
  /** One line: the alias pattern, for tooltips. */
  readonly pattern: string;
  /** How this harness treats two identities with the same alias; prefixes each collision's resolution. */
  readonly collisionPolicy: string;
  /** Key under which the harness considers two aliases the same (OpenClaw compares case-insensitively). */
  readonly collisionKey: (alias: string) => string;
  /** The naming rule alone, for a lone identity, even one the harness would refuse to offer. */
  name(server: string, tool: string): string;
  assign(identities: readonly ToolIdentity[], options: AliasMapOptions): RuleAssignment;
}

export function formatIdentity(id: ToolIdentity): string {
  return `(${JSON.stringify(id.server)}, ${JSON.stringify(id.tool)})`;
}

/** Group indices by key, keeping first-seen order of keys and of members. */
export function groupIndices<T>(
  items: readonly T[],
  key: (item: T, index: number) => string | null,
): number[][] {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    const k = key(item, i);
    if (k === null) return;
    const g = groups.get(k);
    if (g) g.push(i);
    else groups.set(k, [i]);
  });
  return [...groups.values()];
}

/** Equal names: the first registered keeps the name, later ones are dropped. */
export function firstWins(names: readonly (string | null)[]): (string | null)[] {
  const taken = new Set<string>();
  return names.map((n) => {
    if (n === null || taken.has(n)) return null;
    taken.add(n);
    return n;
  });
}

/** Equal names: each registration overwrites the previous one, so the last keeps the name. */
export function lastWins(names: readonly (string | null)[]): (string | null)[] {
  const lastIndex = new Map<string, number>();
  names.forEach((n, i) => {
    if (n !== null) lastIndex.set(n, i);
  });
  return names.map((n, i) => (n !== null && lastIndex.get(n) === i ? n : null));
}

/** Warn about aliases a provider would refuse (too long, or characters outside `[a-zA-Z0-9_-]`). */
export function providerWarnings(
  identities: readonly ToolIdentity[],
  names: readonly (string | null)[],
  harnessLabel: string,
): AliasWarning[] {
  const warnings: AliasWarning[] = [];
  names.forEach((name, i) => {
    const id = identities[i];
    if (name === null || id === undefined) return;
    if (name.length > PROVIDER_NAME_LIMIT) {
      warnings.push({
        identities: [id],
        message: `${harnessLabel} sends ${JSON.stringify(name)} (${name.length} chars) unshortened; providers reject names over ${PROVIDER_NAME_LIMIT}.`,
      });
    }
    if (!PROVIDER_NAME_PATTERN.test(name)) {
      warnings.push({
        identities: [id],
        message: `${JSON.stringify(name)} has characters outside [a-zA-Z0-9_-]; OpenAI and Anthropic reject it.`,
      });
    }
  });
  return warnings;
}
