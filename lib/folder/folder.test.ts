import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configRoutes, readGymConfig } from "./config";
import { readLine, unparsedLine } from "./lines";
import { readGymMetrics } from "./metrics";
import { comparePaths, datasetOf, metricsRun, planFolder, runMetrics } from "./plan";
import {
  type FileRole,
  fileRole,
  HIDDEN_NAMED_MAX,
  hiddenEntries,
  hiddenText,
  ROLE_SNIFF_BYTES,
} from "./roles";
import { decideFolder, GYM_EXAMPLE_FOLDERS, GYM_EXAMPLES, walkFiles } from "./test-helpers";

const EXAMPLES = GYM_EXAMPLES;
const FOLDERS = GYM_EXAMPLE_FOLDERS;
const files = walkFiles;
const decide = decideFolder;

describe("readGymConfig and configRoutes", () => {
  const config = (path: string, yaml: string) => {
    const read = readGymConfig(path, yaml);
    if (!read.ok) throw new Error(read.message);
    return read.config;
  };
  const twoHops = config(
    "a.yaml",
    [
      "inst_rs:",
      "  resources_servers:",
      "    kind_a: {entrypoint: app.py}",
      "agent_x:",
      "  responses_api_agents:",
      "    simple_agent:",
      "      resources_server: {type: resources_servers, name: inst_rs}",
    ].join("\n"),
  );

  it("routes agent_ref.name -> the agent's resources_server.name -> that instance's resources_servers key", () => {
    const routes = configRoutes([twoHops]);
    expect(routes.route("agent_x")).toMatchObject({ server: "kind_a", kind: "agent_ref" });
    expect(routes.route("agent_y")).toMatchObject({ server: null });
    expect(routes.route("agent_y").reason).toContain("agent_y is not an agent of this folder's configs");
    // One agent: a line without agent_ref goes to its server, labelled as such.
    expect(routes.route(null)).toMatchObject({ server: "kind_a", kind: "only_agent_server" });
    expect(routes.servers).toEqual(["kind_a"]);
  });

  it("never reads names: an agent named like a server routes by its block only", () => {
    const misleading = config(
      "b.yaml",
      [
        "kind_b_simple_agent:",
        "  responses_api_agents:",
        "    simple_agent:",
        "      resources_server: {name: inst_rs}",
        "inst_rs:",
        "  resources_servers:",
        "    kind_a: {}",
      ].join("\n"),
    );
    expect(configRoutes([misleading]).route("kind_b_simple_agent").server).toBe("kind_a");
  });

  it("follows Gym's resources-only fallback, and says why when nothing routes", () => {
    const only = config("c.yaml", "inst:\n  resources_servers:\n    kind_c: {}\n");
    expect(configRoutes([only]).route("whatever")).toMatchObject({
      server: "kind_c",
      kind: "only_resources_server",
    });
    const two = config(
      "d.yaml",
      "i1:\n  resources_servers:\n    k1: {}\ni2:\n  resources_servers:\n    k2: {}\n",
    );
    expect(configRoutes([two]).route("x")).toMatchObject({ server: null });
    const dangling = config(
      "e.yaml",
      "ag:\n  responses_api_agents:\n    simple_agent:\n      resources_server: {name: elsewhere}\n",
    );
    expect(configRoutes([dangling]).route("ag").reason).toContain("which no config in this folder declares");
    // Two agents calling two servers: a line without agent_ref is not routed.
    const both = configRoutes([
      twoHops,
      config(
        "f.yaml",
        "ag2:\n  responses_api_agents:\n    s:\n      resources_server: {name: i2}\ni2:\n  resources_servers:\n    k2: {}\n",
      ),
    ]);
    expect(both.route(null).server).toBeNull();
    expect(both.route("ag2").server).toBe("k2");
  });

  it("names a file that is not YAML or not a Gym config", () => {
    expect(readGymConfig("x.yaml", "a: [1, 2")).toMatchObject({ ok: false, kind: "yaml_error" });
    expect(readGymConfig("x.yaml", "prompt: hello\n")).toMatchObject({ ok: false, kind: "not_a_gym_config" });
  });
});

describe("roles and plans over every Gym example folder", () => {
  it("gives every file a role with a reason, and routes every rollouts line its configs can route", () => {
    let routed = 0;
    for (const root of FOLDERS) {
      const decisions = decide(root);
      for (const d of decisions) expect(d.reason.length, d.path).toBeGreaterThan(0);
      const plan = planFolder(decisions);
      for (const run of plan.runs) {
        const lines = readFileSync(join(root, run.rollouts), "utf8").split("\n");
        for (const text of lines) {
          if (text.trim() === "") continue;
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            continue;
          }
          const agent =
            typeof value === "object" && value !== null && "agent_ref" in value
              ? (value as { agent_ref: { name?: unknown } }).agent_ref.name
              : null;
          const route = run.routes.route(typeof agent === "string" ? agent : null);
          if (route.server !== null) routed++;
          expect(route.reason.length).toBeGreaterThan(0);
        }
      }
    }
    expect(routed).toBeGreaterThan(300);
  });

  it("routes the six ported servers' example folders to their own server by config", () => {
    for (const server of [
      "workplace_assistant",
      "math_advanced_calculations",
      "indirect_prompt_injection",
      "example_tool_call_multireward",
      "example_multi_step",
      "example_mcp_weather",
    ]) {
      const plan = planFolder(decide(join(EXAMPLES, "resources_servers", server)));
      expect(plan.runs.map((r) => r.rollouts)).toEqual(["data/example_rollouts.jsonl"]);
      const [run] = plan.runs;
      expect(run?.inputs).toEqual(["data/example.jsonl"]);
      expect(run?.metrics).toEqual(["data/example_metrics.json"]);
      expect(run?.routes.servers).toEqual([server]);
    }
  });

  it("gives each metrics file to one run: structeval's two rollouts files share one example_metrics.json", () => {
    const plan = planFolder(decide(join(EXAMPLES, "resources_servers", "structeval")));
    expect(plan.runs.map((r) => [r.rollouts, r.metrics])).toEqual([
      ["data/example_rollouts.jsonl", ["data/example_metrics.json"]],
      ["data/structeval_nonrenderable_example_rollouts.jsonl", []],
    ]);
    // Opened from above, the same: every metrics file of the 103 folders goes with exactly one run.
    const all = planFolder(decide(EXAMPLES));
    const owners = all.runs.flatMap((r) => r.metrics);
    expect(new Set(owners).size).toBe(owners.length);
  });

  it("metricsRun: the run named after the metrics file (Gym's output naming), else the first", () => {
    const runs = ["d/a.jsonl", "d/b.jsonl", "d/b_rollouts.jsonl"];
    // `gym eval run` writes <out>_aggregate_metrics.json beside <out>.jsonl.
    expect(metricsRun("d/b_aggregate_metrics.json", runs)).toBe("d/b.jsonl");
    // An example folder's example_metrics.json describes example.jsonl, run as example_rollouts.jsonl.
    expect(metricsRun("d/b_metrics.json", ["d/a.jsonl", "d/b_rollouts.jsonl"])).toBe("d/b_rollouts.jsonl");
    expect(metricsRun("d/other_metrics.json", runs)).toBe("d/a.jsonl");
    expect(metricsRun("e/b_aggregate_metrics.json", ["d/a.jsonl", "d/b.jsonl"])).toBe("d/a.jsonl");
    expect(metricsRun("d/x_metrics.json", [])).toBeNull();
  });

  it("takes each run's nearest configs when a folder holds many runs", () => {
    const plan = planFolder(decide(join(EXAMPLES, "resources_servers")));
    const aviary = plan.runs.find((r) => r.rollouts === "aviary/data/example_rollouts.jsonl");
    expect(aviary?.configs.every((c) => c.startsWith("aviary/configs/"))).toBe(true);
    expect(aviary?.inputs).toEqual(["aviary/data/example.jsonl"]);
  });

  it("gives a run without configs or task rows of its own none of its sibling runs' (a folder served from above)", () => {
    const d = (path: string, role: FileRole) => ({ path, role, reason: "", chosen: false });
    const read = readGymConfig(
      "wa/configs/wa.yaml",
      "wa:\n  resources_servers:\n    wa: {entrypoint: app.py}\n",
    );
    if (!read.ok) throw new Error(read.message);
    const plan = planFolder([
      d("calendar/data/rollouts.jsonl", "rollouts"),
      { ...d("wa/configs/wa.yaml", "config"), config: read.config },
      d("wa/data/example.jsonl", "inputs"),
      d("wa/data/example_rollouts.jsonl", "rollouts"),
      d("shared/tasks.jsonl", "inputs"),
      d("runs/http.jsonl", "rollouts"),
      d("runs/mcp.jsonl", "rollouts"),
    ]);
    const of = (rollouts: string) => plan.runs.find((r) => r.rollouts === rollouts);
    // calendar: wa's rows and configs belong to wa's run; a folder of task rows alone is anyone's.
    expect(of("calendar/data/rollouts.jsonl")?.inputs).toEqual(["shared/tasks.jsonl"]);
    expect(of("calendar/data/rollouts.jsonl")?.configs).toEqual([]);
    expect(of("wa/data/example_rollouts.jsonl")?.configs).toEqual(["wa/configs/wa.yaml"]);
    expect(of("wa/data/example_rollouts.jsonl")?.inputs).toEqual(["wa/data/example.jsonl"]);
    expect(of("runs/mcp.jsonl")?.inputs).toEqual(["shared/tasks.jsonl"]);
    // One Gym folder (its configs beside its runs) shares its task rows with a run of the user's in it.
    const gym = planFolder([
      { ...d("configs/wa.yaml", "config"), config: read.config },
      d("data/example.jsonl", "inputs"),
      d("data/example_rollouts.jsonl", "rollouts"),
      d("results/run.jsonl", "rollouts"),
    ]);
    expect(gym.runs.find((r) => r.rollouts === "results/run.jsonl")).toMatchObject({
      inputs: ["data/example.jsonl"],
      configs: ["configs/wa.yaml"],
    });
  });
});

describe("readLine: every line gets an answer", () => {
  it("names placeholders, task rows, records without response, and reads aviary's transitions", () => {
    expect(unparsedLine("invalid JSON", "<PLACEHOLDER ROW>").kind).toBe("placeholder");
    expect(unparsedLine("invalid JSON", "{nope").kind).toBe("not_json");
    expect(readLine({ responses_create_params: { input: "q" } })).toMatchObject({
      ok: false,
      kind: "task_row",
    });
    expect(readLine({ reward: 1 })).toMatchObject({ ok: false, kind: "no_response" });
    const aviary = readFileSync(
      join(EXAMPLES, "resources_servers/aviary/data/example_rollouts.jsonl"),
      "utf8",
    )
      .split("\n")
      .filter((l) => l !== "")
      .map((l): unknown => JSON.parse(l));
    for (const value of aviary) {
      const read = readLine(value);
      expect(read.ok).toBe(true);
      if (read.ok) {
        expect(read.note).toMatch(/transitions/);
        expect(read.rollout.response.output.some((item) => item.type === "function_call")).toBe(true);
      }
    }
  });
});

describe("readGymMetrics", () => {
  it("reads every example_metrics.json as dataset metrics and an aggregate list per agent", () => {
    const metrics = files(EXAMPLES).filter((f) => f.endsWith("example_metrics.json"));
    expect(metrics.length).toBeGreaterThan(90);
    for (const f of metrics) expect(readGymMetrics(readFileSync(f, "utf8")), f).toMatchObject({ ok: true });
    const aggregate = readGymMetrics(
      JSON.stringify([{ agent_ref: { name: "a" }, agent_metrics: { "mean/reward": 0.5 }, key_metrics: {} }]),
    );
    expect(aggregate).toMatchObject({ ok: true, metrics: { kind: "aggregate", agents: [{ agent: "a" }] } });
    expect(readGymMetrics("{}")).toMatchObject({ ok: false, kind: "not_gym_metrics" });
  });
});

describe("datasetOf", () => {
  const dataset = (jsonl_fpath: string | null) =>
    ({ kind: "dataset", description: "", examples: 5, jsonl_fpath, stats: [] }) as const;

  it("is the inputs file the metrics name, the only one when they name none, and none when they name another", () => {
    const inputs = ["data/example.jsonl"];
    expect(datasetOf(dataset("resources_servers/x/data/example.jsonl"), inputs)).toBe("data/example.jsonl");
    expect(datasetOf(dataset(null), inputs)).toBe("data/example.jsonl");
    // single_step_tool_use_with_argument_comparison: parallel_example_metrics.json beside example.jsonl alone.
    expect(datasetOf(dataset("resources_servers/x/data/parallel_example.jsonl"), inputs)).toBeNull();
    expect(datasetOf(dataset(null), ["a.jsonl", "b.jsonl"])).toBeNull();
  });

  it("is the input at the metrics' own path, not the first with its file name (Gym's openenv)", () => {
    // Listed in either order, as the CLI and the page list them: the echo file is the one named.
    const inputs = [
      "data/coding/example.jsonl",
      "data/echo/example.jsonl",
      "data/example.jsonl",
      "data/maze/example.jsonl",
    ];
    const echo = dataset("resources_servers/openenv/data/echo/example.jsonl");
    expect(datasetOf(echo, inputs)).toBe("data/echo/example.jsonl");
    expect(datasetOf(echo, [...inputs].reverse())).toBe("data/echo/example.jsonl");
    // A folder opened at another depth than Gym's: the one input with the file name, and none of several.
    expect(datasetOf(echo, ["tasks/example.jsonl"])).toBe("tasks/example.jsonl");
    // Opened a level deeper: the longest path that ends the metrics' wins, in either order.
    expect(datasetOf(echo, ["example.jsonl", "echo/example.jsonl"])).toBe("echo/example.jsonl");
    expect(datasetOf(echo, ["echo/example.jsonl", "example.jsonl"])).toBe("echo/example.jsonl");
    expect(datasetOf(dataset("resources_servers/x/data/other/example.jsonl"), inputs)).toBeNull();
    // And the real folder's plan and metrics, from its files.
    const plan = planFolder(decide(join(EXAMPLES, "resources_servers/openenv")));
    const run = plan.runs.find((r) => r.rollouts === "data/example_rollouts.jsonl");
    if (run === undefined) throw new Error("openenv has no example_rollouts.jsonl run");
    const [metrics] = runMetrics(plan, run);
    if (metrics === undefined) throw new Error("openenv's run has no metrics");
    expect(datasetOf(metrics.metrics, run.inputs)).toBe("data/echo/example.jsonl");
  });
});

describe("a JSONL file's role and why", () => {
  const role = (head: string, complete: boolean) =>
    fileRole({ path: "data/example_rollouts.jsonl", head, complete }).reason;
  const line = JSON.stringify({ response: { output: [] }, reward: 0 });

  it("counts the whole file's lines when it was read whole", () => {
    expect(role(`${line}\n${line}\n`, true)).toBe(
      "2 of 2 lines (when read) carry a response: Gym's rollouts.",
    );
  });

  it("says only the start of a large file was read (Gym's tau2 rollouts: 3 whole lines in it, of 5)", () => {
    expect(role(`${line}\n${line}\n${line}\n{"respo`, false)).toBe(
      `3 of the first 3 lines (its first ${ROLE_SNIFF_BYTES / 1024} KiB, read for its role) carry a response: Gym's rollouts.`,
    );
  });

  it("says an empty file is empty, never that its lines are listed", () => {
    for (const head of ["", "\n\n  \n"])
      expect(role(head, true)).toBe("Empty: the file holds no line; nothing to read.");
    expect(role("", false)).not.toMatch(/^Empty/);
  });
});

describe("the order a folder's files are walked in", () => {
  it("is the CLI's: each directory's names sorted, segment by segment", () => {
    const paths = ["b/x.jsonl", "a-b/x.jsonl", "a/z.jsonl", "a/y/x.jsonl", "A/x.jsonl"];
    expect([...paths].sort(comparePaths)).toEqual([
      "A/x.jsonl",
      "a/y/x.jsonl",
      "a/z.jsonl",
      "a-b/x.jsonl",
      "b/x.jsonl",
    ]);
  });
});

describe("hidden entries", () => {
  it("are named once each: a hidden file by its path, a hidden folder with a slash, whatever it holds", () => {
    const paths = [".git/HEAD", ".git/objects/ab/cd", "data/.DS_Store", ".hydra/config.yaml", "data/x.jsonl"];
    expect(hiddenEntries(paths)).toEqual([".git/", ".hydra/", "data/.DS_Store"]);
    expect(hiddenText(hiddenEntries(paths))).toBe("left out as hidden: .git/, .hydra/, data/.DS_Store");
    expect(hiddenText([])).toBeNull();
    const many = Array.from({ length: HIDDEN_NAMED_MAX + 2 }, (_, i) => `.h${i}`);
    expect(hiddenText(many)).toMatch(/, \.h4 and 2 more$/);
  });
});
