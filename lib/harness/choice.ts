/**
 * The harness chosen for a run, per agent: a run can mix agents driven by different harnesses (Claude Code
 * rows beside Hermes rows), so a harness is chosen for an `agent_ref.name`, and a choice for one agent never
 * re-labels another agent's rows. `all` applies to every rollout without an agent-specific choice (and to a
 * file whose rollouts name no agent).
 *
 * Text form (the page's `?harness=` and `cli triage --harness`), comma-separated:
 *   hermes-legacy                               every rollout
 *   hermes_agent=hermes-legacy,claude_agent=claude-code   per agent_ref.name
 *   claude-code,hermes_agent=hermes-legacy      every rollout, except hermes_agent's
 * An agent name holding "," or "=" is written as a JSON string: "a,b"=codex.
 */
import { z } from "zod";
import { bareOrJsonString } from "../jsonl";
import { HARNESSES, isHarnessId } from "./index";
import { type HarnessInference, inferHarness } from "./infer";
import type { HarnessId } from "./types";

export interface HarnessChoice {
  /** For every rollout that has no choice of its own; null: none (alias diagnostics off). */
  readonly all: HarnessId | null;
  /** Per agent_ref.name. */
  readonly agents: Readonly<Record<string, HarnessId>>;
}

export const NO_HARNESS: HarnessChoice = { all: null, agents: {} };

export type ParsedHarnessChoice =
  | { readonly ok: true; readonly choice: HarnessChoice }
  | { readonly ok: false; readonly error: string };

/** Splits on commas outside JSON strings. */
function parts(text: string): string[] {
  return (text.match(/(?:"(?:[^"\\]|\\.)*"|[^,"])+/g) ?? []).map((part) => part.trim()).filter(Boolean);
}

export function parseHarnessChoice(text: string): ParsedHarnessChoice {
  let all: HarnessId | null = null;
  // Null prototype: an agent named "__proto__" is an agent like any other, not the object's prototype.
  const agents: Record<string, HarnessId> = Object.create(null);
  const known = HARNESSES.join(", ");
  if (text.replace(/(?:"(?:[^"\\]|\\.)*"|[^,"])+|,/g, "").trim() !== "")
    return { ok: false, error: 'an unterminated " in the harness choice' };
  for (const part of parts(text)) {
    const eq = part.lastIndexOf("=");
    const harness = part.slice(eq + 1).trim();
    if (!isHarnessId(harness)) return { ok: false, error: `"${harness}" is not a harness (${known})` };
    if (eq < 0) {
      all = harness;
      continue;
    }
    const agent = bareOrJsonString(part.slice(0, eq).trim());
    if (agent === undefined || agent === "")
      return { ok: false, error: `"${part}": write AGENT=HARNESS (an agent_ref.name, then a harness)` };
    agents[agent] = harness;
  }
  return { ok: true, choice: { all, agents } };
}

function formatAgent(agent: string): string {
  return /[,="\s]/.test(agent) || agent === "" ? JSON.stringify(agent) : agent;
}

/** The text form; parseHarnessChoice(formatHarnessChoice(x)) is x. Agents in name order. */
export function formatHarnessChoice(choice: HarnessChoice): string {
  const out: string[] = choice.all === null ? [] : [choice.all];
  for (const agent of Object.keys(choice.agents).sort())
    out.push(`${formatAgent(agent)}=${choice.agents[agent]}`);
  return out.join(",");
}

export function sameChoice(a: HarnessChoice, b: HarnessChoice): boolean {
  return formatHarnessChoice(a) === formatHarnessChoice(b);
}

/** The harness a rollout of this agent is read under: its agent's choice, else the choice for all. */
export function harnessFor(choice: HarnessChoice, agent: string | null): HarnessId | null {
  if (agent !== null && Object.hasOwn(choice.agents, agent)) return choice.agents[agent] ?? null;
  return choice.all;
}

/** The choice with one agent's harness set (null: that agent follows the choice for all again). */
export function chooseFor(choice: HarnessChoice, agent: string, harness: HarnessId | null): HarnessChoice {
  const agents: Record<string, HarnessId> = Object.assign(Object.create(null), choice.agents);
  if (harness === null) delete agents[agent];
  else agents[agent] = harness;
  return { all: choice.all, agents };
}

const AgentSchema = z.looseObject({
  agent_ref: z
    .looseObject({ name: z.string().optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

/** A rollout's `agent_ref.name`, or null when it names none. */
export function agentOf(rollout: unknown): string | null {
  const parsed = AgentSchema.safeParse(rollout);
  return parsed.success ? (parsed.data.agent_ref?.name ?? null) : null;
}

/** What the inference reads of one rollout: its agent, verifying server and distinct emitted names. */
export interface EmittedNames {
  readonly agent: string | null;
  readonly server: string | null;
  readonly emitted: Iterable<string>;
}

export interface AgentInference {
  /** null: the rollouts that name no agent (a file without agent_ref). */
  readonly agent: string | null;
  readonly inference: HarnessInference;
}

/**
 * The harness inferred per agent (lib/harness inferHarness over that agent's emitted names, against the
 * server most of its names were verified against). Agents whose names are no alias are left out; in agent
 * name order, the unnamed last.
 */
export function inferByAgent(
  rows: Iterable<EmittedNames>,
  toolsOf: (server: string) => readonly string[] | undefined,
): AgentInference[] {
  const byAgent = new Map<string | null, Map<string, Set<string>>>();
  for (const row of rows) {
    if (row.server === null) continue;
    const servers = byAgent.get(row.agent) ?? new Map<string, Set<string>>();
    const names = servers.get(row.server) ?? new Set<string>();
    for (const name of row.emitted) names.add(name);
    servers.set(row.server, names);
    byAgent.set(row.agent, servers);
  }
  const out: AgentInference[] = [];
  for (const [agent, servers] of byAgent) {
    const [server, names] = [...servers.entries()].sort((a, b) => b[1].size - a[1].size)[0] ?? [
      "",
      new Set(),
    ];
    const tools = toolsOf(server);
    const inference = tools === undefined ? null : inferHarness(names, server, tools);
    if (inference !== null) out.push({ agent, inference });
  }
  return out.sort((a, b) =>
    a.agent === b.agent ? 0 : a.agent === null ? 1 : b.agent === null ? -1 : a.agent < b.agent ? -1 : 1,
  );
}
