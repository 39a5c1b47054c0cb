import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../jsonl";
import { asRollout, narrowing } from "../schemas/test-helpers";
import { indexInputs, knownTools, verifyRollout } from "../verify";
import { actionsOf as actionsOfTyped } from "./actions";
import { alignActions, compareRuns as compareRunsTyped, recordedDifferText, repeatsText } from "./compare";
import { asHarness, editCalls, golden, goldenInputs, WA } from "./test-helpers";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const actionsOf = narrowing(actionsOfTyped);
const compareRuns = (
  a: readonly unknown[],
  b: readonly unknown[],
  options?: Parameters<typeof compareRunsTyped>[2],
) => compareRunsTyped(a.map(asRollout), b.map(asRollout), options);

const bare = golden().filter((g) => g.expected.scheme === "bare");
const http = bare.map((g) => g.rollout);

describe("what compareRuns blames on names", () => {
  it("never rollouts without a call, or rewards it could not recompute (Gym's structeval: text answers)", () => {
    const line = (reward: number, i: number) =>
      asRollout({ _ng_task_index: i, _ng_rollout_index: 0, response: { output: [] }, reward });
    const report = compareRuns([line(1, 0), line(1, 1)], [line(0, 0), line(1, 1)]);
    expect(report.summary.same_actions_different_reward).toBe(1);
    expect(report.summary.names_decided).toBe(0);
  });
});

describe("compareRuns on an HTTP run and an MCP run of the same golden tasks", () => {
  it("finds full parity when the MCP run records provenance", () => {
    const mcp = http.map((r) => asHarness(r, "hermes-legacy", true));
    const report = compareRuns(http, mcp);
    expect(report.summary).toMatchObject({
      pairs: http.length,
      unpaired_a: 0,
      unpaired_b: 0,
      same_actions_same_reward: http.length,
      same_actions_different_reward: 0,
      names_decided: 0,
      different_actions: 0,
      parity_rate: 1,
      action_parity_rate: 1,
    });
    for (const p of report.pairs) {
      expect(p.paired_by).toBe("indices");
      expect(p.a.reward).toBe(bare[p.a.position]?.expected.contract.reward);
      expect(p.b.actions.map((a) => a.named_by)).toEqual(p.b.actions.map(() => "provenance"));
    }
    expect(report.summary.recorded_differ).toBe(0);
  });

  it("says which pairs score the same here but recorded different rewards (the MCP run scored by alias names)", () => {
    // The MCP run as Gym scored it before provenance: the recorded reward its verifier gave the alias names.
    const mcp = http.map((r) => {
      const rollout = asHarness(r, "hermes-legacy", true);
      const recorded = verifyRollout(asRollout(asHarness(r, "hermes-legacy", false)), { server: WA }).reward;
      return typeof rollout === "object" && rollout !== null ? { ...rollout, reward: recorded } : rollout;
    });
    const report = compareRuns(http, mcp);
    // The tasks HTTP passes: the alias names failed them (the identity bug), so those recorded 0 against 1.
    const httpWins = bare.filter((g) => g.expected.contract.reward === 1).length;
    expect(httpWins).toBeGreaterThan(0);
    expect(report.summary.parity_rate).toBe(1);
    expect(report.summary.recorded_differ).toBe(httpWins);
    expect(recordedDifferText(1)).toBe(
      "1 pair scores the same here but recorded different rewards in the files: a recorded reward is not what its verifier gives here (each rollout's why-zero in the inspector says why)",
    );
    expect(recordedDifferText(2)).toMatch(/^2 pairs score the same here/);
    expect(recordedDifferText(0)).toBeNull();
  });

  it("flags same actions with a different reward as the identity bug when the map is missing", () => {
    const mcp = http.map((r) => asHarness(r, "hermes-legacy", false));
    const report = compareRuns(http, mcp);
    expect(report.summary.different_actions).toBe(0);
    for (const p of report.pairs) {
      expect(p.same_actions).toBe(true);
      // The MCP side's reward is what the verifier gives the alias names, computed independently here.
      const expectedB = verifyRollout(asRollout(mcp[p.b.position]), { server: WA }).reward;
      expect(p.b.reward).toBe(expectedB);
      expect(p.verdict).toBe(
        p.a.reward === expectedB ? "same actions, same reward" : "same actions, different reward",
      );
    }
    const httpWins = bare.filter((g) => g.expected.contract.reward === 1).length;
    expect(httpWins).toBeGreaterThan(0);
    expect(report.summary.same_actions_different_reward).toBe(httpWins);
    // Calls on both sides, rewards recomputed: only names can explain each of them.
    expect(report.summary.names_decided).toBe(httpWins);
    expect(report.summary.parity_rate).toBe((http.length - httpWins) / http.length);
    // The verifier saw the alias (status bare) although the action is the bare tool.
    for (const a of report.pairs.flatMap((p) => p.b.actions)) {
      expect([a.status, a.verifier_name]).toEqual(["bare", a.emitted]);
      expect(a.emitted).toBe(`mcp_${WA}_${a.tool}`);
    }
    // The alias names were attributed through the exact alias tables, not from provenance.
    expect(new Set(report.pairs.flatMap((p) => p.b.actions.map((a) => a.named_by)))).toEqual(
      new Set(["alias_match"]),
    );
  });

  it("reports different actions with the first divergence", () => {
    const mcp = http.map((r) => asHarness(r, "claude-code", true));
    const target = bare.findIndex((g) => g.text.split('"function_call"').length > 2);
    expect(target).toBeGreaterThanOrEqual(0);
    // Give the MCP run's first call different arguments.
    mcp[target] = editCalls(mcp[target]!, (call, i) => {
      if (i === 0) call.arguments = JSON.stringify({ different: true });
    });

    const report = compareRuns(http, mcp);
    const pair = report.pairs.find((p) => p.a.position === target)!;
    expect(pair.verdict).toBe("different actions");
    expect(pair.first_divergence).toMatchObject({ step: 0, kind: "changed" });
    expect(pair.first_divergence?.message).toMatch(/same tool workplace_assistant\/\w+, different arguments/);
    expect(report.summary.different_actions).toBe(1);
  });

  it("pairs by task input, then by id, when the Gym indices are missing", () => {
    const strip = (r: Record<string, unknown>) => {
      const copy = structuredClone(r);
      delete copy._ng_task_index;
      delete copy._ng_rollout_index;
      return copy;
    };
    // One rollout per task, so an equal input identifies the partner.
    const seen = new Set<unknown>();
    const oneEach = http.filter((r) => !seen.has(r.id) && seen.add(r.id));
    const b = oneEach.map(strip).reverse();
    const report = compareRuns(oneEach, b);
    expect(report.pairs.map((p) => p.paired_by)).toEqual(oneEach.map(() => "input"));
    for (const p of report.pairs) expect(b[p.b.position]?.id).toBe(oneEach[p.a.position]?.id);

    // Distinct inputs that match nothing in `oneEach`: only the id is left to pair on.
    const otherInputs = b.map((r, i) => ({ ...r, responses_create_params: { input: [i] } }));
    const byId = compareRuns(oneEach, otherInputs);
    expect(byId.pairs.map((p) => p.paired_by)).toEqual(oneEach.map(() => "id"));

    const unpaired = compareRuns(oneEach, [{ response: { output: [] } }]);
    expect(unpaired.summary).toMatchObject({
      pairs: 0,
      unpaired_a: oneEach.length,
      unpaired_b: 1,
      parity_rate: null,
    });
  });

  it("says which pairs join one of several rollouts of a task by their input, and how many each side has", () => {
    const strip = (r: Record<string, unknown>) => {
      const copy = structuredClone(r);
      delete copy._ng_task_index;
      delete copy._ng_rollout_index;
      return copy;
    };
    // One task: three rollouts of it in a, two in b (Gym's repeats), and one task each side has once.
    const [task] = http;
    const other = http.find(
      (r) => JSON.stringify(r.responses_create_params) !== JSON.stringify(task?.responses_create_params),
    );
    if (task === undefined || other === undefined) throw new Error("golden rollouts missing");
    const a = [task, task, task, other].map(strip);
    const b = [task, other, task].map(strip);
    const report = compareRuns(a, b);
    expect(report.pairs.map((p) => [p.a.position, p.b.position, p.repeats])).toEqual([
      [0, 0, { a: 3, b: 2 }],
      [1, 2, { a: 3, b: 2 }],
      [3, 1, null],
    ]);
    expect(report.summary.among_repeats).toBe(2);
    expect(repeatsText(2, 3, "a", "b")).toBe(
      "2 of 3 pairs join one of several rollouts of a task (the same task input in a or b) in file order: their verdicts and parities compare two samples of a task, not one rollout run twice",
    );
    // Gym's indices are one rollout each: never repeats.
    expect(compareRuns([task, other], [task, other]).summary.among_repeats).toBe(0);
    // An id several rollouts share is no task's repeats: joined, not said so.
    const byId = (r: Record<string, unknown>, i: number) => ({
      ...strip(r),
      responses_create_params: { input: [i] },
    });
    const sharedIds = compareRuns(
      [task, task].map(byId),
      [task, task].map((r, i) => byId(r, i + 10)),
    );
    expect(sharedIds.pairs.map((p) => p.paired_by)).toEqual(["id", "id"]);
    expect(sharedIds.summary.among_repeats).toBe(0);
  });

  it("recomputes rollouts without task fields through the materialized inputs", () => {
    const noecho = golden("noecho");
    const inputs = indexInputs(goldenInputs());
    const a = noecho.map((g) => g.rollout);
    const report = compareRuns(a, a, { inputs });
    expect(report.summary.pairs).toBe(a.length);
    for (const p of report.pairs) {
      expect(p.server).toBe(WA);
      const want = noecho[p.a.position]?.expected.contract.reward;
      // Both sides unverified (Gym refuses the request): the verdict falls back to the recorded rewards.
      expect(p.reward_basis).toBe(want === null ? "recorded" : "recomputed");
      expect(p.a.reward).toBe(want);
      expect(p.verdict).toBe("same actions, same reward");
    }
  });
});

describe("compareRuns on two of Gym's runs of different tasks", () => {
  const gym = (file: string) =>
    readFileSync(join(import.meta.dirname, "../../fixtures/gym-examples", file), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line): unknown => JSON.parse(line));
  it("says when the indices pair two tasks, and that runs without a call have no actions to compare", () => {
    // wmt_translation's task 0 and flores200's task 0: the same indices, two sentences to translate.
    const report = compareRuns(
      gym("resources_servers/wmt_translation/data/example_rollouts.jsonl"),
      gym("benchmarks/flores200/data/example_rollouts.jsonl"),
    );
    expect(report.summary.pairs).toBe(5);
    expect(report.summary.tasks_differ).toBe(5);
    expect(report.pairs.every((p) => p.tasks_differ && p.paired_by === "indices")).toBe(true);
    expect(report.summary.with_calls).toBe(0);
    expect(report.summary.names_decided).toBe(0);
    // The same run against itself: one task per pair.
    const self = compareRuns(
      gym("resources_servers/wmt_translation/data/example_rollouts.jsonl"),
      gym("resources_servers/wmt_translation/data/example_rollouts.jsonl"),
    );
    expect(self.summary.tasks_differ).toBe(0);
  });
});

describe("compareRuns with input rows open", () => {
  it("says why a rollout found no row, as the inspector does, and never to open the inputs", () => {
    const inputs = indexInputs(goldenInputs());
    const [first] = golden("noecho");
    if (first === undefined) throw new Error("no noecho golden rollout");
    // Indices no row has, and a task input no row has: nothing pairs.
    const stray = structuredClone(first.rollout) as Record<string, unknown>;
    stray._ng_task_index = 9999;
    stray.responses_create_params = { input: [{ role: "user", content: "a task no row has" }] };
    const report = compareRuns([stray], [stray], { inputs, server: WA });
    const side = report.pairs[0]?.a;
    expect(side?.reward).toBeNull();
    expect(side?.error).toMatch(/no input row has/i);
    expect(side?.error).not.toMatch(/open the inputs/i);
  });
});

describe("actions", () => {
  const tools = knownTools(WA) ?? [];

  it("compares arguments structurally", () => {
    expect(canonicalJson({ b: 1.0, a: [1, { d: 2, c: 3 }] })).toBe(
      canonicalJson({ a: [1, { c: 3, d: 2 }], b: 1 }),
    );
    const mk = (args: string) => ({
      response: {
        output: [{ type: "function_call", name: "email_reply_email", call_id: "c", arguments: args }],
      },
    });
    const one = actionsOf(mk('{"email_id": "1", "body": "x"}'), { server: WA, tools });
    const two = actionsOf(mk('{"body":"x","email_id":"1"}'), { server: WA, tools });
    const three = actionsOf(mk('{"body": "y", "email_id": "1"}'), { server: WA, tools });
    const broken = actionsOf(mk("{not json"), { server: WA, tools });
    expect(one[0]?.key).toBe(two[0]?.key);
    expect(one[0]?.key).not.toBe(three[0]?.key);
    expect(broken[0]).toMatchObject({ arguments: "{not json", arguments_valid: false });
  });

  it("names calls by provenance, legacy prefix, tool name, unique alias match or leaves them unattributed", () => {
    const r = {
      response: {
        output: [
          { type: "function_call", name: "x", call_id: "p", arguments: "{}" },
          { type: "function_call", name: `mcp__${WA}__email_send_email`, call_id: "l", arguments: "{}" },
          { type: "function_call", name: "email_send_email", call_id: "t", arguments: "{}" },
          { type: "function_call", name: `${WA}__email_send_email`, call_id: "a", arguments: "{}" },
          { type: "function_call", name: "raw_step", call_id: "e", arguments: "{}" },
        ],
      },
    };
    const withMap = {
      ...r,
      mcp_tool_call_provenance: { p: { server_name: "github", tool_name: "create_issue" } },
    };
    const result = actionsOf(withMap, { server: WA, tools });
    expect(result.map((a) => [a.named_by, a.server, a.tool])).toEqual([
      ["provenance", "github", "create_issue"],
      ["legacy_prefix", WA, "email_send_email"],
      ["tool_name", WA, "email_send_email"],
      ["alias_match", WA, "email_send_email"],
      ["emitted", null, "raw_step"],
    ]);
  });

  it("aligns insertions and deletions with diff", () => {
    const tools2 = ["t1", "t2", "t3"];
    const mk = (names: string[]) => {
      const r = actionsOf(
        {
          response: {
            output: names.map((name, i) => ({
              type: "function_call",
              name,
              call_id: `c${i}`,
              arguments: "{}",
            })),
          },
        },
        { server: "s", tools: tools2 },
      );
      return r;
    };
    const dropped = alignActions(mk(["t1", "t2", "t3"]), mk(["t1", "t3"]));
    expect(dropped.map((s) => [s.kind, s.a?.tool ?? null, s.b?.tool ?? null])).toEqual([
      ["same", "t1", "t1"],
      ["only_a", "t2", null],
      ["same", "t3", "t3"],
    ]);
    const replaced = alignActions(mk(["t1", "t2"]), mk(["t1", "t3", "t3"]));
    expect(replaced.map((s) => [s.kind, s.a?.tool ?? null, s.b?.tool ?? null])).toEqual([
      ["same", "t1", "t1"],
      ["changed", "t2", "t3"],
      ["only_b", null, "t3"],
    ]);
  });
});
