import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configRoutes, readGymConfig } from "../folder";
import { narrowing } from "../schemas/test-helpers";
import {
  chooseServer as chooseServerTyped,
  declaredToolNames as declaredToolNamesTyped,
  lineAgent,
  provenanceServers as provenanceServersTyped,
  verifiersForTools,
} from "./server";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const chooseServer = narrowing(chooseServerTyped);
const provenanceServers = narrowing(provenanceServersTyped);
const declaredToolNames = narrowing(declaredToolNamesTyped);

const GYM = new URL("../../fixtures/nemo-gym/resources_servers/", import.meta.url);

function jsonl(url: URL): unknown[] {
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line): unknown => JSON.parse(line));
}

const call = (id: string, name: string) => ({ type: "function_call", call_id: id, name, arguments: "{}" });
const tool = (name: string) => ({ type: "function", name, parameters: {} });

describe("chooseServer", () => {
  const base = { response: { output: [call("c1", "email_send_email")] } };

  it("takes the sources in order: override, environment_name, input, provenance, declared tools, sample", () => {
    const full = {
      ...base,
      environment_name: "from_line",
      mcp_tool_call_provenance: { c1: { server_name: "from_map", tool_name: "t" } },
      responses_create_params: { input: "x", tools: [tool("email_send_email")] },
    };
    const input = { environment_name: "from_input" };
    expect(chooseServer(full, { override: "mine", input, sample: "s" })).toMatchObject({
      server: "mine",
      source: "override",
    });
    expect(chooseServer(full, { input, sample: "s" })).toMatchObject({
      server: "from_line",
      source: "environment_name",
    });
    const { environment_name, ...noEnv } = full;
    expect(environment_name).toBe("from_line");
    expect(chooseServer(noEnv, { input, sample: "s" })).toMatchObject({
      server: "from_input",
      source: "input",
    });
    expect(chooseServer(noEnv, { sample: "s" })).toMatchObject({ server: "from_map", source: "provenance" });
    const { mcp_tool_call_provenance, ...noMap } = noEnv;
    expect(mcp_tool_call_provenance).toBeDefined();
    expect(chooseServer(noMap, { sample: "s" })).toMatchObject({
      server: "workplace_assistant",
      source: "declared_tools",
    });
    expect(chooseServer(base, { sample: "s" })).toMatchObject({ server: "s", source: "sample" });
    const none = chooseServer(base);
    expect(none).toMatchObject({ server: null, source: "none", candidates: [] });
    expect(none.reason).toContain("Nothing names the verifying server");
  });

  it("skips an empty or non-string environment_name and an empty override", () => {
    for (const env of ["", 7, null]) {
      expect(chooseServer({ ...base, environment_name: env }, { override: "" }).source).toBe("none");
    }
  });

  it("never breaks a tie: two provenance servers or tools of two verifiers are candidates, not a choice", () => {
    const twoServers = {
      ...base,
      mcp_tool_call_provenance: {
        c1: { server_name: "workplace_assistant", tool_name: "email_send_email" },
        c2: { server_name: "github", tool_name: "create_issue" },
      },
    };
    const two = chooseServer(twoServers);
    expect(two).toMatchObject({
      server: null,
      source: "none",
      candidates: ["workplace_assistant", "github"],
    });
    expect(two.reason).toContain("names 2 servers");
    // get_weather is a tool of example_mcp_weather and of example_tool_call_multireward.
    const weather = chooseServer({ ...base, responses_create_params: { tools: [tool("get_weather")] } });
    expect(weather).toMatchObject({
      server: null,
      candidates: ["example_mcp_weather", "example_tool_call_multireward"],
    });
  });

  it("reads only valid provenance entries, and no map from a map that is not an object", () => {
    expect(
      provenanceServers({
        response: { output: [] },
        mcp_tool_call_provenance: {
          a: { server_name: " ", tool_name: "t" },
          b: { server_name: "S", tool_name: "t" },
        },
      }),
    ).toEqual(["S"]);
    expect(provenanceServers({ response: { output: [] }, mcp_tool_call_provenance: ["S"] })).toEqual([]);
  });

  it("declared tools fit a verifier only when every one is its tool", () => {
    expect(
      declaredToolNames({
        response: { output: [] },
        responses_create_params: { tools: [tool("add"), { type: "x" }, 3] },
      }),
    ).toEqual(["add"]);
    expect(verifiersForTools(["add", "multiply"])).toEqual(["math_advanced_calculations"]);
    expect(verifiersForTools(["add", "email_send_email"])).toEqual([]);
    expect(verifiersForTools([])).toEqual([]);
  });

  it("on Gym's example rollouts: the declared tools decide where they fit one verifier", () => {
    const want: Record<string, string | null> = {
      example_mcp_weather: null, // tools: [] (Claude Code's MCP tools are not declared)
      example_multi_step: "example_multi_step",
      example_tool_call_multireward: null, // get_weather fits two verifiers
      indirect_prompt_injection: null, // its verifier knows no tool list
      math_advanced_calculations: "math_advanced_calculations",
      workplace_assistant: "workplace_assistant",
    };
    for (const server of readdirSync(GYM)) {
      for (const rollout of jsonl(new URL(`${server}/data/example_rollouts.jsonl`, GYM))) {
        const choice = chooseServer(rollout);
        expect(choice.server, server).toBe(want[server]);
        expect(choice.source, server).toBe(want[server] === null ? "none" : "declared_tools");
      }
    }
  });
});

describe("the agent a line is routed by", () => {
  // Two agents of one folder, each calling its own server (Gym's terminal_multi_harness has four such).
  const yaml = [
    "srv_a:",
    "  resources_servers:",
    "    kind_a: {entrypoint: app.py}",
    "srv_b:",
    "  resources_servers:",
    "    kind_b: {entrypoint: app.py}",
    "agent_a:",
    "  responses_api_agents:",
    "    simple_agent:",
    "      resources_server: {type: resources_servers, name: srv_a}",
    "agent_b:",
    "  responses_api_agents:",
    "    simple_agent:",
    "      resources_server: {type: resources_servers, name: srv_b}",
  ].join("\n");
  const read = readGymConfig("configs/x.yaml", yaml);
  if (!read.ok) throw new Error(read.message);
  const config = configRoutes([read.config]);
  const line = { response: { output: [] } };

  it("is the line's own agent_ref, else its paired task row's, which Gym's reverify routes by", () => {
    expect(lineAgent({ ...line, agent_ref: { name: "agent_a" } }, { agent_ref: { name: "agent_b" } })).toBe(
      "agent_a",
    );
    expect(lineAgent(line, { agent_ref: { name: "agent_b" } })).toBe("agent_b");
    expect(lineAgent(line)).toBeNull();
    expect(lineAgent(line, { id: 1 })).toBeNull();
  });

  it("routes a line without agent_ref by its paired task row's agent, and says so", () => {
    expect(chooseServer(line, { config }).server).toBeNull();
    const routed = chooseServer(line, { config, input: { agent_ref: { name: "agent_b" } } });
    expect(routed).toMatchObject({ server: "kind_b", source: "config", config_files: ["configs/x.yaml"] });
    expect(routed.reason).toMatch(
      /^The line has no agent_ref, its paired task row's is used: agent agent_b calls srv_b/,
    );
    // The line's own agent wins, and its reason is the route's alone.
    const own = chooseServer(
      { ...line, agent_ref: { name: "agent_a" } },
      { config, input: { agent_ref: { name: "agent_b" } } },
    );
    expect(own.server).toBe("kind_a");
    expect(own.reason).toMatch(/^Agent agent_a calls srv_a/);
  });

  it("says why the configs did not route a line that its environment_name routes instead", () => {
    const renamed = { ...line, agent_ref: { name: "http_agent" }, environment_name: "kind_a" };
    const chosen = chooseServer(renamed, { config });
    expect(chosen).toMatchObject({ server: "kind_a", source: "environment_name" });
    expect(chosen.reason).toBe(
      "The line's environment_name is kind_a. The folder's configs do not route it (agent_ref.name http_agent is not an agent of this folder's configs (they declare agent_a, agent_b)): Gym's reverify, which routes by them alone, would not send it there.",
    );
    // Without configs there is nothing to say about them.
    expect(chooseServer(renamed, { config: configRoutes([]) }).reason).toBe(
      "The line's environment_name is kind_a.",
    );
    expect(chooseServer(renamed).reason).toBe("The line's environment_name is kind_a.");
    // The paired task row's environment_name, likewise.
    const fromRow = chooseServer(
      { ...line, agent_ref: { name: "http_agent" } },
      { config, input: { environment_name: "kind_b" } },
    );
    expect(fromRow).toMatchObject({ server: "kind_b", source: "input" });
    expect(fromRow.reason).toMatch(
      /^The paired input row's environment_name is kind_b\. The folder's configs do not route it \(agent_ref\.name http_agent is not an agent/,
    );
  });

  it("never routes a row's declared agent that routes nowhere as if it named none", () => {
    // agent_x is declared but names no resources_server: Gym's reverify would fail on it, so does this.
    // With agent_a the only agent that routes, a line without an agent would go to kind_a.
    const withX = readGymConfig(
      "configs/x.yaml",
      `${yaml.split("\nsrv_b:")[0]}\nagent_a:\n  responses_api_agents:\n    simple_agent:\n      resources_server: {type: resources_servers, name: srv_a}\nagent_x:\n  responses_api_agents:\n    simple_agent: {}`,
    );
    if (!withX.ok) throw new Error(withX.message);
    const config = configRoutes([withX.config]);
    expect(chooseServer(line, { config }).server).toBe("kind_a");
    const routed = chooseServer(line, { config, input: { agent_ref: { name: "agent_x" } } });
    expect(routed.server).toBeNull();
    expect(routed.reason).not.toMatch(/is no agent of the configs/);
  });

  it("routes a row's agent the configs do not declare as a line without one (Gym's gymnasium example)", () => {
    const one = readGymConfig(
      "configs/one.yaml",
      yaml.split("\nsrv_b:")[0] +
        "\nagent_a:\n  responses_api_agents:\n    simple_agent:\n      resources_server: {type: resources_servers, name: srv_a}",
    );
    if (!one.ok) throw new Error(one.message);
    const routed = chooseServer(line, {
      config: configRoutes([one.config]),
      input: { agent_ref: { name: "other" } },
    });
    expect(routed.server).toBe("kind_a");
    expect(routed.reason).toMatch(
      /^Its paired task row's agent_ref, other, is no agent of the configs; the line has no agent_ref; the configs' only agent, agent_a, calls kind_a\./,
    );
  });
});
