/**
 * Which server verifies a rollout, and why: the one rule every front end (CLI, worker, compare, what-if,
 * repair) calls, so the inspector and `cli verify` can never pick differently for the same line.
 *
 * Evidence, strongest first; the first source that decides wins:
 *   override          the user named S (--server, the server picker)
 *   config            the opened folder's Gym configs route the line, as `gym eval reverify` does: its
 *                     agent_ref.name -> that agent's resources_server.name -> that instance's
 *                     `resources_servers:` key (lib/folder/config.ts). It comes before environment_name
 *                     because reverify routes by the config alone and never reads environment_name.
 *   environment_name  the line's own `environment_name`
 *   input             the paired materialized-inputs row's `environment_name`
 *   provenance        the only server named by the valid entries of `mcp_tool_call_provenance`
 *   declared_tools    the tools declared in `responses_create_params.tools` are all tools of exactly one
 *                     registered verifier
 *   sample            the bundled sample's declared server
 *   none              nothing decides; the rollout is unverified (reason `no_server`)
 * Ties are never broken by guessing: two provenance servers, or declared tools that fit two verifiers,
 * fall through to the next source and are reported as candidates.
 */
import { z } from "zod";
import { readProvenance } from "../identity/provenance-map";
import type { Rollout } from "../schemas";
import { defaultRegistry, type VerifierRegistry } from "./registry";

export type ServerSource =
  | "override"
  | "config"
  | "environment_name"
  | "input"
  | "provenance"
  | "declared_tools"
  | "sample"
  | "none";

export const SERVER_SOURCES: readonly ServerSource[] = [
  "override",
  "config",
  "environment_name",
  "input",
  "provenance",
  "declared_tools",
  "sample",
  "none",
];

/** How the UI and the CLI name each source, completing "verifying server S, ...". */
export const SERVER_SOURCE_LABEL: Readonly<Record<ServerSource, string>> = {
  override: "chosen by you",
  config: "routed by the folder's Gym config",
  environment_name: "from the line's environment_name",
  input: "from the paired input row's environment_name",
  provenance: "the only server in the provenance map",
  declared_tools: "inferred from the declared tools",
  sample: "the bundled sample's server",
  none: "no server decided",
};

export interface ServerChoice {
  /** The verifying server S; null when no source decides. */
  readonly server: string | null;
  readonly source: ServerSource;
  /**
   * Servers a source pointed to without deciding (two provenance servers, declared tools that fit several
   * verifiers), so the UI can offer them; empty otherwise.
   */
  readonly candidates: readonly string[];
  /** One sentence: why this server (or why none). */
  readonly reason: string;
  /** For source `config`: the config files that routed the line (relative to the folder). */
  readonly config_files?: readonly string[];
}

export interface ServerChoiceOptions {
  /** The user's choice; wins over everything. Empty or null means none. */
  readonly override?: string | null;
  /** The paired materialized-inputs row, if any. */
  readonly input?: unknown;
  /** The opened folder's config routes (lib/folder configRoutes), if the line came from a folder. */
  readonly config?: ConfigRouter | null;
  /** The bundled sample's declared server, if the rollout came from one. */
  readonly sample?: string | null;
  readonly registry?: VerifierRegistry;
}

/**
 * How a run's rollouts choose their verifying server, the same on every page and in every command: the
 * user's server, a bundled sample's, an opened folder's configs (the rest chooseServer reads per line).
 */
export type RunServerChoice = Pick<ServerChoiceOptions, "override" | "sample" | "config">;

/** What chooseServer needs of a folder's configs: a route per agent_ref.name (null: the line has none). */
export interface ConfigRouter {
  route(agentName: string | null): {
    readonly server: string | null;
    readonly reason: string;
    /** The config files that declared the route (relative to the folder). */
    readonly files?: readonly string[];
    /** No route because the agent named is none of the configs' agents. */
    readonly undeclared?: true;
    /** No route because there is no config. */
    readonly no_configs?: true;
  };
}

const AgentRef = z.looseObject({ agent_ref: z.looseObject({ name: z.string().min(1) }) });

/** A line's `agent_ref.name`, null when it has none. */
export function agentRefName(line: unknown): string | null {
  const parsed = AgentRef.safeParse(line);
  return parsed.success ? parsed.data.agent_ref.name : null;
}

/**
 * The agent a line is read under (its config route, its harness, its list row): its own `agent_ref.name`,
 * else its paired task row's, which is what Gym's reverify routes by (`row.agent_ref.name`; collection copies
 * it onto the line, so the two differ only where the line lost it, as in Gym's terminal_multi_harness example).
 */
export function lineAgent(line: unknown, input?: unknown): string | null {
  return agentRefName(line) ?? (input === undefined ? null : agentRefName(input));
}

/**
 * A line's route through a folder's configs: by lineAgent; a paired task row naming an agent the configs do
 * not declare (Gym's gymnasium example) is routed as a line without an agent is. `from` says where the agent
 * came from when the line itself names none (a clause ending in a space, or ""). chooseServer and
 * lineConfigs (the configs `ng_run` names) both read it.
 */
export function routeLine(
  config: ConfigRouter,
  rollout: unknown,
  input?: unknown,
): { routed: ReturnType<ConfigRouter["route"]>; from: string } {
  const agent = lineAgent(rollout, input);
  const routed = config.route(agent);
  if (agentRefName(rollout) !== null || agent === null) return { routed, from: "" };
  if (routed.server === null && routed.undeclared === true) {
    const plain = config.route(null);
    if (plain.server !== null)
      return {
        routed: plain,
        from: `its paired task row's agent_ref, ${agent}, is no agent of the configs; `,
      };
  }
  return { routed, from: "the line has no agent_ref, its paired task row's is used: " };
}

const EnvSchema = z.looseObject({ environment_name: z.string().min(1) });
// responses_create_params stays unknown in RolloutSchema (old fixtures carry anything there): read it here.
const DeclaredToolsSchema = z.looseObject({ tools: z.array(z.unknown()) });
const NamedTool = z.looseObject({ name: z.string().min(1) });

export function environmentName(value: unknown): string | null {
  const parsed = EnvSchema.safeParse(value);
  return parsed.success ? parsed.data.environment_name : null;
}

function nonEmpty(value: string | null | undefined): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** Distinct server names of the valid entries of an authoritative provenance map, in first-seen order. */
export function provenanceServers(rollout: Rollout): string[] {
  const reading = readProvenance(rollout);
  const names = new Set<string>();
  for (const entry of reading.entries.values()) if (entry.valid) names.add(entry.identity.server_name);
  return [...names];
}

/** Names of the function tools declared in `responses_create_params.tools`, in order (empty when none). */
export function declaredToolNames(rollout: Rollout): string[] {
  const parsed = DeclaredToolsSchema.safeParse(rollout.responses_create_params);
  if (!parsed.success) return [];
  const names: string[] = [];
  for (const tool of parsed.data.tools) {
    const named = NamedTool.safeParse(tool);
    if (named.success) names.push(named.data.name);
  }
  return names;
}

/** Registered verifiers whose tool list holds every declared tool (none when nothing is declared). */
export function verifiersForTools(
  declared: readonly string[],
  registry: VerifierRegistry = defaultRegistry,
): string[] {
  if (declared.length === 0) return [];
  const matches: string[] = [];
  for (const [server, verifier] of registry) {
    const tools = verifier.tools;
    if (tools === undefined || tools.length === 0) continue;
    const known = new Set(tools);
    if (declared.every((name) => known.has(name))) matches.push(server);
  }
  return matches.sort();
}

const list = (names: readonly string[]) => names.join(", ");
const sentence = (text: string) => {
  const upper = text.charAt(0).toUpperCase() + text.slice(1);
  return upper.endsWith(".") ? upper : `${upper}.`;
};
const lowerFirst = (text: string) =>
  /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;

/** The verifying server of a rollout and the evidence that chose it (see the module comment). */
export function chooseServer(rollout: Rollout, options: ServerChoiceOptions = {}): ServerChoice {
  const registry = options.registry ?? defaultRegistry;
  const override = nonEmpty(options.override);
  if (override !== null) {
    // The folder's configs start the chosen server only if they route this line there: else `ng_run` with
    // them would start another server, and no config of the folder is named for it.
    const routed =
      options.config === undefined || options.config === null
        ? null
        : routeLine(options.config, rollout, options.input).routed;
    return {
      server: override,
      source: "override",
      candidates: [],
      reason: `You chose ${override}.`,
      ...(routed === null
        ? {}
        : { config_files: routed.server === override && routed.files !== undefined ? routed.files : [] }),
    };
  }
  const notes: string[] = [];
  // Why the folder's configs did not route the line, when there are any: said beside the evidence that chose
  // the server instead (Gym's reverify routes by the configs alone, so that line would not be routed there).
  let unrouted = "";
  if (options.config !== undefined && options.config !== null) {
    const { routed, from } = routeLine(options.config, rollout, options.input);
    if (routed.server !== null) {
      return {
        server: routed.server,
        source: "config",
        candidates: [],
        reason: sentence(`${from}${from === "" ? routed.reason : lowerFirst(routed.reason)}`),
        ...(routed.files === undefined ? {} : { config_files: routed.files }),
      };
    }
    notes.push(lowerFirst(routed.reason.replace(/\.$/, "")));
    if (routed.no_configs !== true)
      unrouted = ` The folder's configs do not route it (${notes[0]}): Gym's reverify, which routes by them alone, would not send it there.`;
  }
  const own = environmentName(rollout);
  if (own !== null) {
    return {
      server: own,
      source: "environment_name",
      candidates: [],
      reason: `The line's environment_name is ${own}.${unrouted}`,
    };
  }
  const fromInput = options.input === undefined ? null : environmentName(options.input);
  if (fromInput !== null) {
    return {
      server: fromInput,
      source: "input",
      candidates: [],
      reason: `The paired input row's environment_name is ${fromInput}.${unrouted}`,
    };
  }
  const candidates: string[] = [];
  const named = provenanceServers(rollout);
  if (named.length === 1 && named[0] !== undefined) {
    return {
      server: named[0],
      source: "provenance",
      candidates: [],
      reason: `Every provenance entry names server ${named[0]}.`,
    };
  }
  if (named.length > 1) {
    candidates.push(...named);
    notes.push(`the provenance map names ${named.length} servers (${list(named)})`);
  }
  const declared = declaredToolNames(rollout);
  const fitting = verifiersForTools(declared, registry);
  if (fitting.length === 1 && fitting[0] !== undefined) {
    return {
      server: fitting[0],
      source: "declared_tools",
      candidates: [],
      reason: `The ${declared.length} declared tools are all tools of ${fitting[0]}, and of no other verifier.`,
    };
  }
  if (fitting.length > 1) {
    for (const s of fitting) if (!candidates.includes(s)) candidates.push(s);
    notes.push(`the declared tools (${list(declared)}) fit ${fitting.length} verifiers (${list(fitting)})`);
  }
  const sample = nonEmpty(options.sample);
  if (sample !== null) {
    return {
      server: sample,
      source: "sample",
      candidates: [],
      reason: `The bundled sample declares server ${sample}.`,
    };
  }
  const generic =
    "no environment_name on the line or its input row, no provenance, and no declared tools that fit one verifier";
  const why =
    notes.length > 0
      ? `Nothing decides the verifying server: ${notes.join("; ")}${candidates.length === 0 ? `; ${generic}` : ""}.`
      : `Nothing names the verifying server: ${generic}.`;
  return { server: null, source: "none", candidates, reason: why };
}
