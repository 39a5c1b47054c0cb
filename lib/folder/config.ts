/**
 * Gym's YAML configs and the routes they give, exactly as `gym eval reverify` maps a rollout to the server
 * that verifies it (nemo_gym/rollout_reverification.py, `_build_agent_to_resources_server_mapping`):
 *
 *   1. every top-level block with `responses_api_agents` is an agent; its (first) implementation's
 *      `resources_server.name` is the resources server *instance* it calls;
 *   2. when at least one agent names an instance, a line's `agent_ref.name` picks the agent (two hops:
 *      agent -> instance -> the instance block's `resources_servers:` key, the server whose verifier runs,
 *      e.g. `example_multi_step_resources_server` is an instance of `example_multi_step`);
 *   3. when no agent names one, a config with exactly one resources server instance routes every line to it.
 *
 * Where Gym would stop (a line without `agent_ref`), one extension, always labelled: if every agent of the
 * configs routes to the same server, a line without `agent_ref` goes to that server. Nothing is read from
 * names (`..._simple_agent`): only the blocks' structure.
 */
import { parseDocument } from "yaml";
import { z } from "zod";

/** Why a config file could not be read (a YAML error, or no Gym server block). */
export interface ConfigProblem {
  readonly kind: "yaml_error" | "not_a_gym_config";
  readonly message: string;
}

/** What one YAML file declares. */
export interface GymConfig {
  readonly path: string;
  /** Agent block name -> the resources server instance its implementation names (null when it names none). */
  readonly agents: ReadonlyMap<string, string | null>;
  /** Resources server instance block name -> its server (the key under `resources_servers:`). */
  readonly instances: ReadonlyMap<string, string>;
}

export type ReadConfigResult =
  | { readonly ok: true; readonly config: GymConfig }
  | ({ readonly ok: false } & ConfigProblem);

const Block = z.record(z.string(), z.unknown());
const AgentBlock = z.looseObject({ responses_api_agents: z.record(z.string(), z.unknown()) });
const ServerBlock = z.looseObject({ resources_servers: z.record(z.string(), z.unknown()) });
const AgentImpl = z.looseObject({ resources_server: z.looseObject({ name: z.string().min(1) }) });
const ModelBlock = z.looseObject({ responses_api_models: z.unknown() });

/** Reads one YAML file as a Gym config. Never throws. */
export function readGymConfig(path: string, text: string): ReadConfigResult {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    return {
      ok: false,
      kind: "yaml_error",
      message: `not valid YAML (${first?.message.split("\n")[0] ?? "parse error"})`,
    };
  }
  const top = Block.safeParse(doc.toJS({ maxAliasCount: 100 }));
  if (!top.success) return { ok: false, kind: "not_a_gym_config", message: "the YAML is not a mapping" };
  const agents = new Map<string, string | null>();
  const instances = new Map<string, string>();
  let models = 0;
  for (const [name, block] of Object.entries(top.data)) {
    const agent = AgentBlock.safeParse(block);
    if (agent.success) {
      // Gym reads the first implementation of the block (next(iter(...values()))).
      const impl = AgentImpl.safeParse(Object.values(agent.data.responses_api_agents)[0]);
      agents.set(name, impl.success ? impl.data.resources_server.name : null);
    }
    const server = ServerBlock.safeParse(block);
    if (server.success) {
      const kind = Object.keys(server.data.resources_servers)[0];
      if (kind !== undefined) instances.set(name, kind);
    }
    if (ModelBlock.safeParse(block).success) models++;
  }
  if (agents.size === 0 && instances.size === 0 && models === 0) {
    return {
      ok: false,
      kind: "not_a_gym_config",
      message: "no top-level block declares responses_api_agents, resources_servers or responses_api_models",
    };
  }
  return { ok: true, config: { path, agents, instances } };
}

/** How a config route was found (each reads as a label in the UI and the CLI). */
export type ConfigRouteKind = "agent_ref" | "only_agent_server" | "only_resources_server";

export interface ConfigRoute {
  /** The verifying server (the `resources_servers:` key of the instance). */
  readonly server: string;
  readonly kind: ConfigRouteKind;
  /** One sentence: the hops that led here, with the config files that declared them. */
  readonly reason: string;
  /** The config files that declared the hops (what `ng_run` needs to start that server). */
  readonly files: readonly string[];
}

export interface ConfigMiss {
  readonly server: null;
  /** One sentence: why the configs do not route this line. */
  readonly reason: string;
  /** The agent named is none of the configs' agents (not: an agent they declare that routes nowhere). */
  readonly undeclared?: true;
  /** There is no config to route by at all. */
  readonly no_configs?: true;
}

/** The routes of a folder's configs, merged as Gym merges its config_paths (one global dictionary). */
export interface ConfigRoutes {
  /** Config files read, in the order given. */
  readonly files: readonly string[];
  route(agentName: string | null): ConfigRoute | ConfigMiss;
  /** Every server some agent (or the resources-only fallback) routes to, sorted: what /live offers. */
  readonly servers: readonly string[];
}

interface Declared<T> {
  readonly value: T;
  /** Every file that declared it alike, the first first (Gym's example folders repeat a block in each config). */
  readonly files: [string, ...string[]];
}

/**
 * Of the files that declare a block alike, the one `ng_run` should be given: Gym's own config of the server
 * (`configs/<server>.yaml`) when it is one of them, else the first. math_with_judge's nine configs all
 * declare its simple agent; the first, dapo17k.yaml, leaves its judge `???` and would stop Hydra.
 */
function preferredFile(declared: Declared<unknown>, server: string): string {
  return declared.files.find((file) => isServerConfig(file, server)) ?? declared.files[0];
}

/** Gym's own config of a server: `configs/<server>.yaml` (or `.yml`). */
function isServerConfig(file: string, server: string): boolean {
  const base = file.slice(file.lastIndexOf("/") + 1);
  return base === `${server}.yaml` || base === `${server}.yml`;
}

const list = (names: readonly string[]) => names.join(", ");

/**
 * Merges configs: a name declared by two files with different content is a conflict, never resolved by
 * order (Gym's merge would keep one silently; here the line says so).
 */
export function configRoutes(configs: readonly GymConfig[]): ConfigRoutes {
  const agents = new Map<string, Declared<string | null>>();
  const instances = new Map<string, Declared<string>>();
  const conflicts = new Set<string>();
  for (const config of configs) {
    for (const [name, instance] of config.agents) {
      const known = agents.get(name);
      if (known !== undefined && known.value !== instance) conflicts.add(name);
      else if (known === undefined) agents.set(name, { value: instance, files: [config.path] });
      else known.files.push(config.path);
    }
    for (const [name, kind] of config.instances) {
      const known = instances.get(name);
      if (known !== undefined && known.value !== kind) conflicts.add(name);
      else if (known === undefined) instances.set(name, { value: kind, files: [config.path] });
      else known.files.push(config.path);
    }
  }
  const routed = [...agents.entries()].filter(([, a]) => a.value !== null);

  const hop = (agent: string, instance: Declared<string | null>): ConfigRoute | ConfigMiss => {
    if (instance.value === null) {
      return { server: null, reason: `Agent ${agent} (${instance.files[0]}) names no resources_server.` };
    }
    if (conflicts.has(instance.value)) {
      return {
        server: null,
        reason: `Resources server instance ${instance.value} is declared differently by two config files.`,
      };
    }
    const server = instances.get(instance.value);
    if (server === undefined) {
      return {
        server: null,
        reason: `Agent ${agent} (${instance.files[0]}) calls resources server instance ${instance.value}, which no config in this folder declares.`,
      };
    }
    const agentFile = preferredFile(instance, server.value);
    const serverFile = preferredFile(server, server.value);
    return {
      server: server.value,
      kind: "agent_ref",
      files: [...new Set([agentFile, serverFile])],
      reason: `agent ${agent} calls ${instance.value} (${agentFile}), an instance of ${server.value} (${serverFile}).`,
    };
  };

  const servers = new Set<string>();
  if (routed.length > 0) {
    for (const [name, declared] of routed) {
      const r = hop(name, declared);
      if (r.server !== null) servers.add(r.server);
    }
  } else if (instances.size === 1) {
    for (const [, s] of instances) servers.add(s.value);
  }

  const route = (agentName: string | null): ConfigRoute | ConfigMiss => {
    if (configs.length === 0)
      return { server: null, reason: "No Gym config is open beside this file.", no_configs: true };
    if (routed.length === 0) {
      // Gym's resources-only fallback: one instance takes every line, whatever its agent_ref.
      if (instances.size === 1) {
        const [[name, s]] = [...instances.entries()] as [[string, Declared<string>]];
        const file = preferredFile(s, s.value);
        return {
          server: s.value,
          kind: "only_resources_server",
          files: [file],
          reason: `The configs route no agent, and declare one resources server, ${name} (${file}), an instance of ${s.value}: Gym's reverify sends every line there.`,
        };
      }
      return {
        server: null,
        reason:
          instances.size === 0
            ? "The configs declare no resources server."
            : `The configs route no agent and declare ${instances.size} resources servers (${list([...instances.keys()])}).`,
      };
    }
    if (agentName === null) {
      if (servers.size === 1) {
        const [only] = [...servers] as [string];
        const names = routed.map(([n]) => n);
        // Per instance the agents call, one agent's configs (the agent in the server's own config when there
        // is one, else the first): math_with_judge's nine configs declare one instance, and one config
        // starts it; openenv's three declare three instances (echo, coding, maze), and the line may be any.
        const byInstance = new Map<string, (readonly string[])[]>();
        for (const [n, a] of routed) {
          const r = hop(n, a);
          if (r.server === null || a.value === null) continue;
          byInstance.set(a.value, [...(byInstance.get(a.value) ?? []), r.files]);
        }
        const ownConfig = (files: readonly string[]) => files.some((file) => isServerConfig(file, only));
        const files = [...byInstance.values()].flatMap((routes) => routes.find(ownConfig) ?? routes[0] ?? []);
        return {
          server: only,
          kind: "only_agent_server",
          files: [...new Set(files)],
          reason: `The line has no agent_ref; ${names.length === 1 ? `the configs' only agent, ${names[0]}, calls` : `all ${names.length} agents of the configs call`} ${only}.`,
        };
      }
      return {
        server: null,
        reason: `The line has no agent_ref, and the configs' ${routed.length} agents call ${servers.size} different servers (${list([...servers].sort())}).`,
      };
    }
    if (conflicts.has(agentName)) {
      return { server: null, reason: `Agent ${agentName} is declared differently by two config files.` };
    }
    const declared = agents.get(agentName);
    if (declared === undefined) {
      return {
        server: null,
        reason: `agent_ref.name ${agentName} is not an agent of this folder's configs (they declare ${list(routed.map(([n]) => n))}).`,
        undeclared: true,
      };
    }
    return hop(agentName, declared);
  };

  return { files: configs.map((c) => c.path), route, servers: [...servers].sort() };
}
