/**
 * Agreement with Gym's own is_correct on the 50 golden cases (fixtures/golden/workplace-is-correct.json,
 * produced by running utils.is_correct with pandas 2.3.3).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isCorrectActions } from "./index";

const GOLDEN_PATH = join(process.cwd(), "fixtures/golden/workplace-is-correct.json");

const GoldenSchema = z.object({
  cases: z.array(
    z.object({
      label: z.string(),
      predicted: z.array(z.unknown()),
      ground_truth: z.unknown(),
      expected_is_correct: z.boolean(),
      stdout: z.array(z.string()),
    }),
  ),
});

const golden = GoldenSchema.parse(JSON.parse(readFileSync(GOLDEN_PATH, "utf8")));

describe("workplace is_correct golden cases", () => {
  it("has the 50 cases", () => {
    expect(golden.cases).toHaveLength(50);
  });

  golden.cases.forEach((c, i) => {
    it(`#${i} ${c.label}`, () => {
      const result = isCorrectActions(c.predicted, c.ground_truth);
      expect(result.correct).toBe(c.expected_is_correct);
      // Every "Error executing tool" line Gym printed is one skipped action on our side too.
      const errors = [...result.details.calls, ...result.details.groundTruthCalls].filter(
        (call) => call.outcome === "error" || call.outcome === "unknown_name",
      );
      expect(errors).toHaveLength(c.stdout.length);
      if (!result.correct) expect(result.explanation.length).toBeGreaterThan(0);
    });
  });
});
