import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { mathAdvancedCalculationsVerifier, solutionOf } from "./index";

const DATA = new URL(
  "../../../fixtures/nemo-gym/resources_servers/math_advanced_calculations/data/",
  import.meta.url,
);

function jsonl(name: string): unknown[] {
  return readFileSync(new URL(name, DATA), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

const Task = z.looseObject({ ground_truth: z.string() });
const Rollout = z.looseObject({
  reward: z.number(),
  response: z.looseObject({
    output: z.array(z.looseObject({ type: z.string(), output: z.unknown().optional() })),
  }),
});

const tasks = jsonl("example.jsonl").map((t) => Task.parse(t));
const rollouts = jsonl("example_rollouts.jsonl").map((r) => Rollout.parse(r));

function outputs(...texts: unknown[]) {
  return { output: texts.map((output, i) => ({ type: "function_call_output", call_id: `c${i}`, output })) };
}

describe("math_advanced_calculations on Gym's example data", () => {
  it("the committed rollouts do not pair with example.jsonl: every pairing scores 0", () => {
    expect(rollouts.length).toBe(5);
    for (const task of tasks) {
      for (const rollout of rollouts) {
        const out = mathAdvancedCalculationsVerifier.verify({ ...task, response: rollout.response });
        expect(out.error).toBeUndefined();
        expect(out.reward).toBe(0);
        expect(out.explanation[0]).toContain("never appeared");
      }
    }
  });

  it("reproduces each recorded 1.0 when the ground truth is the rollout's last tool result", () => {
    for (const rollout of rollouts) {
      const results = rollout.response.output.filter((item) => item.type === "function_call_output");
      const last = solutionOf(results.at(-1)?.output);
      expect(last).not.toBeNull();
      const request = { ground_truth: JSON.stringify([last]), response: rollout.response };
      expect(mathAdvancedCalculationsVerifier.verify(request).reward).toBe(rollout.reward);
      // One ulp away is a different float: no tolerance, as in Gym.
      const off = {
        ground_truth: JSON.stringify([(last ?? 0) * (1 + Number.EPSILON)]),
        response: rollout.response,
      };
      expect(mathAdvancedCalculationsVerifier.verify(off).reward).toBe(0);
    }
  });
});

describe("math_advanced_calculations semantics", () => {
  it("parses solutions the way float(json.loads(output)['solution']) does", () => {
    expect(solutionOf('{"solution": 3}')).toBe(3);
    expect(solutionOf('{"solution": "2.5"}')).toBe(2.5);
    expect(solutionOf('{"solution": true}')).toBe(1);
    expect(solutionOf('{"solution": null}')).toBeNull();
    expect(solutionOf('{"result": 1}')).toBeNull();
    expect(solutionOf("[1]")).toBeNull();
    expect(solutionOf("Error: math domain error")).toBeNull();
    expect(solutionOf([{ type: "input_text", text: '{"solution": 1}' }])).toBeNull();
  });

  it("needs every ground-truth value, compares int with float exactly, and never matches NaN", () => {
    const v = (gt: string, ...texts: unknown[]) =>
      mathAdvancedCalculationsVerifier.verify({ ground_truth: gt, response: outputs(...texts) }).reward;
    expect(v("[2, 0.5]", '{"solution": 0.5}', '{"solution": 2.0}')).toBe(1);
    expect(v("[2, 0.5]", '{"solution": 0.5}')).toBe(0);
    expect(v("[NaN]", '{"solution": NaN}')).toBe(0);
    expect(v('["2"]', '{"solution": 2}')).toBe(0);
    expect(v("[]")).toBe(1);
    expect(v("[1, 1]", '{"solution": 1}')).toBe(1);
  });

  it("refuses requests Gym cannot score, without throwing", () => {
    const response = outputs('{"solution": 1}');
    expect(mathAdvancedCalculationsVerifier.verify({ response }).error).toContain("ground_truth");
    expect(mathAdvancedCalculationsVerifier.verify({ ground_truth: "[1", response }).error).toContain(
      "not JSON",
    );
    expect(mathAdvancedCalculationsVerifier.verify({ ground_truth: "5", response }).error).toContain(
      "not a JSON list",
    );
    expect(mathAdvancedCalculationsVerifier.verify({ ground_truth: "[1]" }).error).toContain("response");
  });
});
