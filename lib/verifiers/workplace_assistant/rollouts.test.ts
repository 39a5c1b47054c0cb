/**
 * Reward parity with the golden synthetic rollouts (fixtures/golden/workplace-rollouts): for each line and
 * each policy, every function_call gets the verifier name the expected file lists, and the verifier must
 * give the expected reward.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { narrowing } from "../../schemas/test-helpers";
import { verifyRollout as verifyRolloutTyped } from "../../verify";
import { workplaceAssistantVerifier } from "./index";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const verifyRollout = narrowing(verifyRolloutTyped);

const DIR = join(process.cwd(), "fixtures/golden/workplace-rollouts");

const PolicySchema = z.object({
  // null: Gym's request model refuses the request (422) before the verifier runs (the corrected golden files).
  reward: z.number().nullable(),
  calls: z.array(z.object({ verifier_name: z.string() })),
});
const ExpectedSchema = z.object({ scheme: z.string(), contract: PolicySchema, legacy: PolicySchema });
const RolloutSchema = z.looseObject({
  response: z.looseObject({ output: z.array(z.unknown()) }),
  _ng_task_index: z.number().optional(),
  _ng_rollout_index: z.number().optional(),
});
const OutputItemSchema = z.looseObject({ type: z.unknown() });

function readJsonl(name: string): unknown[] {
  return readFileSync(join(DIR, name), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

/** A deep copy of `rollout` whose function_call names are the policy's verifier names, in order. */
function withVerifierNames(rollout: z.infer<typeof RolloutSchema>, names: readonly string[]) {
  let next = 0;
  const output = rollout.response.output.map((item) => {
    const typed = OutputItemSchema.safeParse(item);
    if (!typed.success || typed.data.type !== "function_call") return item;
    const name = names[next++];
    if (name === undefined) throw new Error("more function_calls than expected verifier names");
    return { ...typed.data, name };
  });
  expect(next).toBe(names.length);
  return { ...rollout, response: { ...rollout.response, output } };
}

const POLICIES = ["contract", "legacy"] as const;

describe("wa_rollouts.jsonl (task fields echoed)", () => {
  const rollouts = readJsonl("wa_rollouts.jsonl").map((r) => RolloutSchema.parse(r));
  const expected = readJsonl("wa_expected.jsonl").map((e) => ExpectedSchema.parse(e));
  it("pairs line for line", () => expect(rollouts).toHaveLength(expected.length));
  rollouts.forEach((rollout, line) => {
    const exp = expected[line]!;
    for (const policy of POLICIES) {
      it(`line ${line + 1} (${exp.scheme}) ${policy}: reward ${exp[policy].reward}`, () => {
        const request = withVerifierNames(
          rollout,
          exp[policy].calls.map((c) => c.verifier_name),
        );
        if (exp[policy].reward === null) {
          expect(verifyRollout(rollout, { policy }).unverified?.code).toBe("gym_refuses");
          return;
        }
        const out = workplaceAssistantVerifier.verify(request);
        expect(out.error).toBeUndefined();
        expect(out.reward).toBe(exp[policy].reward);
      });
    }
  });
});

describe("wa_noecho.jsonl + wa_inputs.jsonl (paired by task and rollout index)", () => {
  const rollouts = readJsonl("wa_noecho.jsonl").map((r) => RolloutSchema.parse(r));
  const expected = readJsonl("wa_noecho_expected.jsonl").map((e) => ExpectedSchema.parse(e));
  const inputs = new Map<string, Record<string, unknown>>();
  for (const raw of readJsonl("wa_inputs.jsonl")) {
    const row = z.looseObject({ _ng_task_index: z.number(), _ng_rollout_index: z.number() }).parse(raw);
    inputs.set(`${row._ng_task_index}/${row._ng_rollout_index}`, row);
  }
  it("pairs line for line", () => expect(rollouts).toHaveLength(expected.length));
  rollouts.forEach((rollout, line) => {
    const exp = expected[line]!;
    for (const policy of POLICIES) {
      it(`line ${line + 1} (${exp.scheme}) ${policy}: reward ${exp[policy].reward}`, () => {
        const input = inputs.get(`${rollout._ng_task_index}/${rollout._ng_rollout_index}`);
        expect(input).toBeDefined();
        const renamed = withVerifierNames(
          rollout,
          exp[policy].calls.map((c) => c.verifier_name),
        );
        // Gym's reverify payload: the materialized input row plus the rollout's response.
        if (exp[policy].reward === null) {
          expect(verifyRollout(rollout, { policy, input }).unverified?.code).toBe("gym_refuses");
          return;
        }
        const out = workplaceAssistantVerifier.verify({ ...input, response: renamed.response });
        expect(out.error).toBeUndefined();
        expect(out.reward).toBe(exp[policy].reward);
      });
    }
  });
});
