/**
 * A hint for a call name that is not a workplace tool but stands for one, such as the harness aliases
 * `mcp__workplace_assistant__email_reply_email` (Claude Code), `mcp_workplace_assistant_email_reply_email`
 * (Hermes as Gym pins it) or `workplace_assistant__email_reply_email` (OpenClaw). It only explains a score;
 * it never changes which tool a call runs.
 *
 * An exact match against every harness rule's alias of (server, tool) comes first: it also recognizes
 * truncated and hashed aliases (`..._b5009b99`). Otherwise a name that embeds a tool after a `_` (another
 * server's prefix, an unknown harness) still gets a hint.
 */
import {
  type AliasRuleId,
  aliasFor,
  HARNESS_ERA_LABELS,
  HARNESS_ERAS,
  HARNESS_LABELS,
  HARNESS_OF_RULE,
  HARNESSES,
} from "../../harness";

export interface AliasHint {
  /** The tool the name most likely meant. */
  readonly tool: string;
  /** Every tool the name could stand for, when more than one (a truncated or colliding alias). */
  readonly candidates?: readonly string[];
  /** What precedes the tool name in the emitted name (e.g. "mcp__workplace_assistant__"), when it embeds it. */
  readonly prefix?: string;
  /** A server named by an `mcp__<server>__`, `mcp_<server>_` or `<server>__` prefix, when there is one. */
  readonly server?: string;
  /** Harness rules whose alias of (verifying server, tool) is exactly this name. */
  readonly harnesses?: readonly AliasRuleId[];
  readonly message: string;
}

const RULE_LABELS: Readonly<Record<AliasRuleId, string>> = { ...HARNESS_LABELS, ...HARNESS_ERA_LABELS };

/** alias -> tool -> rules producing it, per (server, tool list); built once. */
const exactMaps = new Map<string, Map<string, Map<string, AliasRuleId[]>>>();
/**
 * The key of a tool list already seen, by its array: a 100k-call replay asks once per unknown name, and
 * serializing the 27 workplace tools each time cost a second.
 */
const listKeys = new WeakMap<readonly string[], Map<string, string>>();

function exactMap(server: string, tools: readonly string[]): Map<string, Map<string, AliasRuleId[]>> {
  let byServer = listKeys.get(tools);
  if (byServer === undefined) {
    byServer = new Map();
    listKeys.set(tools, byServer);
  }
  let key = byServer.get(server);
  if (key === undefined) {
    key = JSON.stringify([server, tools]);
    byServer.set(server, key);
  }
  let map = exactMaps.get(key);
  if (!map) {
    map = new Map();
    for (const rule of [...HARNESSES, ...HARNESS_ERAS]) {
      for (const tool of tools) {
        const alias = aliasFor(rule, server, tool);
        if (alias === tool) continue;
        let byTool = map.get(alias);
        if (!byTool) {
          byTool = new Map();
          map.set(alias, byTool);
        }
        const rules = byTool.get(tool);
        if (rules) rules.push(rule);
        else byTool.set(tool, [rule]);
      }
    }
    exactMaps.set(key, map);
  }
  return map;
}

/**
 * What would let the verifier run the call. `recorded`: the rollout's provenance map has the call (it was
 * read without it, as the legacy policy reads), so recording one is not the advice: following it is.
 */
function fix(tool: string, recorded: boolean): string {
  return recorded
    ? `its provenance is recorded (mcp_tool_call_provenance) but was not followed here; following it (the contract policy) runs it as "${tool}"`
    : `recording mcp_tool_call_provenance for the call (or canonicalizing its name to "${tool}") ` +
        `would let the verifier run it`;
}

export function aliasHint(
  name: string,
  tools: readonly string[],
  verifyingServer: string,
  recorded = false,
): AliasHint | undefined {
  if (tools.includes(name)) return undefined;
  const exact = exactMap(verifyingServer, tools).get(name);
  if (exact) {
    const candidates = [...exact.keys()];
    const tool = candidates[0]!;
    const harnesses = byFamily([...new Set([...exact.values()].flat())]);
    const who = harnesses.map((h) => RULE_LABELS[h]).join(", ");
    const which =
      candidates.length === 1
        ? `It is the ${who} alias of the ${verifyingServer} tool "${tool}"`
        : `It is the ${who} alias of one of the ${verifyingServer} tools ${candidates.map((t) => `"${t}"`).join(", ")}`;
    return {
      tool,
      ...(candidates.length > 1 ? { candidates } : {}),
      harnesses,
      message: `${which}: an uncanonicalized harness alias, and ${fix(tool, recorded)}.`,
    };
  }
  return embeddedHint(name, tools, verifyingServer, recorded);
}

/** A harness's eras side by side ("Hermes (Gym pin, era B), Hermes (era A, 2026-03), Gemini CLI"), in first-seen order. */
function byFamily(rules: readonly AliasRuleId[]): AliasRuleId[] {
  const family = (rule: AliasRuleId) => HARNESS_OF_RULE[rule];
  return [...new Set(rules.map(family))].flatMap((f) => rules.filter((rule) => family(rule) === f));
}

/** The longest known tool name the emitted name ends with (after a `_` boundary), else one it contains. */
function embeddedHint(
  name: string,
  tools: readonly string[],
  verifyingServer: string,
  recorded: boolean,
): AliasHint | undefined {
  let best: string | undefined;
  let bestAt = -1;
  for (const tool of tools) {
    const at = name.endsWith(tool) ? name.length - tool.length : name.indexOf(tool);
    if (at <= 0 || name[at - 1] !== "_") continue;
    const endsWith = at + tool.length === name.length;
    const bestEndsWith = best !== undefined && bestAt + best.length === name.length;
    if (
      best === undefined ||
      (endsWith && !bestEndsWith) ||
      (endsWith === bestEndsWith && tool.length > best.length)
    ) {
      best = tool;
      bestAt = at;
    }
  }
  if (best === undefined) return undefined;
  const prefix = name.slice(0, bestAt);
  const server = serverOf(prefix);
  const otherServer = server !== undefined && server !== verifyingServer;
  const trailing =
    bestAt + best.length < name.length ? ` followed by "${name.slice(bestAt + best.length)}"` : "";
  const message = otherServer
    ? `It embeds the ${verifyingServer} tool "${best}"${trailing} but its prefix names the server "${server}": ` +
      `if the call was meant for ${verifyingServer}, ${fix(best, recorded)}; otherwise skipping it is right.`
    : `It likely meant "${best}"${trailing}: the name looks like an uncanonicalized harness alias, and ${fix(best, recorded)}.`;
  return { tool: best, prefix, ...(server === undefined ? {} : { server }), message };
}

function serverOf(prefix: string): string | undefined {
  const claude = /^mcp__(.+?)__$/.exec(prefix);
  if (claude) return claude[1];
  const openclaw = /^(.+?)__$/.exec(prefix);
  if (openclaw && !prefix.startsWith("mcp_")) return openclaw[1];
  const hermes = /^mcp_(.+)_$/.exec(prefix);
  if (hermes) return hermes[1];
  return undefined;
}
