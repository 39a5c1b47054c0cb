import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleToolCallMultirewardVerifier as verifier } from "./index";

const DATA = new URL(
  "../../../fixtures/nemo-gym/resources_servers/example_tool_call_multireward/data/",
  import.meta.url,
);

function jsonl(name: string): unknown[] {
  return readFileSync(new URL(name, DATA), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

const Task = z.looseObject({ responses_create_params: z.unknown(), expected_call: z.unknown() });
const Rollout = z.looseObject({
  _ng_task_index: z.number(),
  reward: z.number(),
  reward_components: z.record(z.string(), z.number()),
  predicted_calls: z.array(z.unknown()),
  response: z.unknown(),
});

const tasks = jsonl("example.jsonl").map((t) => Task.parse(t));
const rollouts = jsonl("example_rollouts.jsonl").map((r) => Rollout.parse(r));

const TOOLS = [
  {
    type: "function",
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];

function request(
  output: unknown[],
  expected: unknown = { name: "get_weather", arguments: { city: "Paris" } },
) {
  return {
    responses_create_params: { input: [], tools: TOOLS },
    expected_call: expected,
    response: { output },
  };
}
const call = (name: string, args: string) => ({ type: "function_call", name, arguments: args, call_id: "c" });
const message = { type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] };

describe("example_tool_call_multireward on Gym's example rollouts", () => {
  it("reproduces every recorded reward, reward_components and predicted_calls (paired by _ng_task_index)", () => {
    expect(rollouts.length).toBe(5);
    for (const rollout of rollouts) {
      // example.jsonl has no _ng_task_index: collection numbers its rows in file order.
      const task = tasks[rollout._ng_task_index];
      expect(task).toBeDefined();
      const out = verifier.verify({ ...task, response: rollout.response });
      expect(out.error).toBeUndefined();
      expect(out.reward).toBe(rollout.reward);
      expect(out.components).toEqual(rollout.reward_components);
      expect(out.details).toMatchObject({ predicted_calls: rollout.predicted_calls });
    }
  });

  it("pairs by index, not by position: a wrong pairing loses correctness", () => {
    const rollout = rollouts.find((r) => r._ng_task_index !== 0);
    const out = verifier.verify({ ...tasks[0], response: rollout?.response });
    expect(out.components).toMatchObject({ correctness: 0, schema_valid: 1 });
  });
});

describe("example_tool_call_multireward semantics", () => {
  it("scores a single correct call with no text as 3", () => {
    const out = verifier.verify(request([call("get_weather", '{"city": "Paris", "unit": "C"}')]));
    expect(out.reward).toBe(3);
    expect(out.components).toEqual({ correctness: 1, schema_valid: 1, format: 1 });
  });

  it("decouples the components", () => {
    const wrongCity = verifier.verify(request([call("get_weather", '{"city": "Rome"}')]));
    expect(wrongCity.components).toEqual({ correctness: 0, schema_valid: 1, format: 1 });
    expect(wrongCity.explanation[0]).toContain("correctness 0");

    const aliased = verifier.verify(request([call("mcp__weather__get_weather", '{"city": "Paris"}')]));
    expect(aliased.components).toEqual({ correctness: 0, schema_valid: 1, format: 1 });

    const missingParam = verifier.verify(
      request([call("get_weather", "{}"), call("get_weather", '{"city": "Paris"}')]),
    );
    expect(missingParam.components).toEqual({ correctness: 1, schema_valid: 0, format: 0 });
    expect(missingParam.explanation.join(" ")).toContain("city");

    const broken = verifier.verify(request([call("get_weather", "{broken"), message]));
    expect(broken.components).toEqual({ correctness: 0, schema_valid: 0, format: 0 });
    expect(broken.details).toMatchObject({ predicted_calls: [{ name: "get_weather", arguments: {} }] });

    const none = verifier.verify(request([message]));
    expect(none.reward).toBe(0);
    expect(none.explanation).toHaveLength(3);
  });

  it("compares argument values with Python ==", () => {
    const expected = { name: "get_weather", arguments: { city: "Paris", days: 2, detail: null } };
    expect(
      verifier.verify(request([call("get_weather", '{"city": "Paris", "days": 2.0}')], expected)).components,
    ).toMatchObject({ correctness: 1 });
    expect(
      verifier.verify(request([call("get_weather", '{"city": "Paris", "days": "2"}')], expected)).components,
    ).toMatchObject({ correctness: 0 });
  });

  it("treats an empty expected_call as unmatchable and falsy arguments as no constraint", () => {
    expect(verifier.verify(request([call("get_weather", "{}")], {})).components).toMatchObject({
      correctness: 0,
    });
    expect(
      verifier.verify(request([call("get_weather", '{"city": "x"}')], { name: "get_weather", arguments: [] }))
        .components,
    ).toMatchObject({ correctness: 1 });
  });

  it("refuses requests Gym would refuse, without throwing", () => {
    expect(verifier.verify(request([], "not a dict")).error).toContain("expected_call");
    expect(verifier.verify(request([], { name: "x", arguments: [1] })).error).toContain("arguments");
    expect(verifier.verify({ response: { output: [] } }).error).toContain("responses_create_params");
  });
});
