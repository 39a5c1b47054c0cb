/**
 * example_multi_step. Gym's own test_app.py only constructs the server, so the vectors here are Gym's
 * example rollouts (whose recorded verify outputs, parsed_synonym_values / accuracy / set_overlap, are Gym's
 * answers) plus the cases its verify() decides by Python semantics.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { narrowing } from "../../schemas/test-helpers";
import { type VerifierOutput, verifyRollout as verifyRolloutTyped } from "../../verify";
import { exampleMultiStepVerifier, MULTI_STEP_SERVER, type MultiStepDetails } from "./index";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const verifyRollout = narrowing(verifyRolloutTyped);

const DATA = new URL(
  "../../../fixtures/nemo-gym/resources_servers/example_multi_step/data/",
  import.meta.url,
);

function jsonl(name: string): unknown[] {
  return readFileSync(new URL(name, DATA), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line): unknown => JSON.parse(line));
}

const Recorded = z.looseObject({
  reward: z.number(),
  accuracy: z.boolean(),
  parsed_synonym_values: z.array(z.number()),
  set_overlap: z.number(),
  original_term_minefield_hit: z.boolean(),
  order_instruction_following_failure: z.boolean(),
});

const Obj = z.record(z.string(), z.unknown());
const task = (expected: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 0,
  expected_synonym_values: expected,
  expected_synonyms: ["a", "b"],
  minefield_label: "Mine",
  minefield_label_value: 999,
  ...extra,
});
const extract = (values: unknown, id = "c") => ({
  type: "function_call",
  call_id: id,
  name: "extract_synonym_values",
  arguments: JSON.stringify({ synonym_values: values }),
});
const request = (expected: unknown[], calls: unknown[], extra: Record<string, unknown> = {}) => ({
  responses_create_params: { input: "q" },
  response: { output: calls },
  ...task(expected, extra),
});
/** The verifier's details, by their tag (lib/verify VerifierDetails). */
function details(out: VerifierOutput): MultiStepDetails {
  if (out.details?.kind !== "example_multi_step") throw new Error("no example_multi_step details");
  return out.details;
}

describe("example_multi_step on Gym's example rollouts", () => {
  it("reproduces each recorded verify output given the task its accuracy implies", () => {
    for (const raw of jsonl("example_rollouts.jsonl")) {
      const recorded = Recorded.parse(raw);
      expect(recorded.accuracy).toBe(true);
      const rollout = { ...Obj.parse(raw), ...task(recorded.parsed_synonym_values) };
      const result = verifyRollout(rollout, { server: MULTI_STEP_SERVER });
      expect(result.reward).toBe(recorded.reward);
      const d = z
        .looseObject({
          accuracy: z.boolean(),
          set_overlap: z.number(),
          original_term_minefield_hit: z.boolean(),
        })
        .parse(result.details);
      expect(d).toMatchObject({
        accuracy: recorded.accuracy,
        set_overlap: recorded.set_overlap,
        original_term_minefield_hit: recorded.original_term_minefield_hit,
      });
    }
  });

  it("without the task fields the rollouts are unverified (missing_field), naming them", () => {
    const result = verifyRollout(jsonl("example_rollouts.jsonl")[0], { server: MULTI_STEP_SERVER });
    expect(result.reward).toBeNull();
    expect(result.unverified?.code).toBe("missing_field");
    expect(result.error).toContain("expected_synonym_values");
  });
});

describe("example_multi_step verify semantics", () => {
  it("the last extract call decides; order matters; 1 == 1.0 == True but '1' != 1", () => {
    expect(
      exampleMultiStepVerifier.verify(request([1, 2], [extract([9]), extract([1, 2], "d")])).reward,
    ).toBe(1);
    const swapped = exampleMultiStepVerifier.verify(request([1, 2], [extract([2, 1])]));
    expect(swapped.reward).toBe(0);
    expect(details(swapped)).toMatchObject({ set_overlap: 1, order_instruction_following_failure: true });
    expect(exampleMultiStepVerifier.verify(request([1, 1], [extract([1.0, true])])).reward).toBe(1);
    const strings = exampleMultiStepVerifier.verify(request([1], [extract(["1"])]));
    expect(strings.reward).toBe(0);
    expect(details(strings).set_overlap).toBe(0);
  });

  it("no extract call reports []; set_overlap counts distinct expected values over the list length", () => {
    const none = exampleMultiStepVerifier.verify(request([1, 2], []));
    expect(none.reward).toBe(0);
    expect(details(none)).toMatchObject({ extract_call: null, parsed_synonym_values: [], set_overlap: 0 });
    expect(
      details(exampleMultiStepVerifier.verify(request([1, 1, 2], [extract([1])]))).set_overlap,
    ).toBeCloseTo(1 / 3);
  });

  it("flags a minefield hit by label or value", () => {
    expect(
      details(exampleMultiStepVerifier.verify(request([1], [extract([999])]))).original_term_minefield_hit,
    ).toBe(true);
  });

  it("refuses what Gym's server fails on (422/500)", () => {
    const bad = [
      request(
        [1],
        [{ type: "function_call", call_id: "c", name: "extract_synonym_values", arguments: "nope" }],
      ),
      request(
        [1],
        [{ type: "function_call", call_id: "c", name: "extract_synonym_values", arguments: "{}" }],
      ),
      request([1], [extract([1.5])]),
      request([1], [extract("12")]),
      request([], [extract([1])]),
      request([1], [extract([1])], { id: "x" }),
    ];
    for (const r of bad) expect(exampleMultiStepVerifier.verify(r).error).toBeDefined();
  });
});
