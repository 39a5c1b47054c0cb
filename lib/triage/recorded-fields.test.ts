import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonLine } from "../jsonl";
import { readRollout } from "../schemas";
import { asRollout } from "../schemas/test-helpers";
import { RECORDED_FIELDS_MAX, recordedFields } from "./recorded-fields";

const SERVERS = path.join(__dirname, "../../fixtures/gym-examples/resources_servers");

/** Line `n` (1-based) of a Gym example file, read as every front end reads it. */
function gymLine(file: string, n: number): unknown {
  const text = readFileSync(path.join(SERVERS, file), "utf8").split("\n")[n - 1] ?? "";
  const parsed = parseJsonLine(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

function gymRollout(file: string, n: number) {
  const read = readRollout(gymLine(file, n));
  if (!read.ok) throw new Error(read.message);
  return read.rollout;
}

describe("what a line records beside its reward", () => {
  it("is the verifier's own scalar fields, in the line's order (Gym's toolsandbox: the environment raised)", () => {
    const fields = recordedFields(gymRollout("toolsandbox/data/example_rollouts.jsonl", 1));
    expect(fields.map((field) => field.key)).toEqual([
      "task_idx",
      "name",
      "similarity",
      "milestone_similarity",
      "minefield_similarity",
      "turn_count",
      "categories",
      "exception_type",
    ]);
    expect(fields.find((field) => field.key === "exception_type")?.value).toBe('"RuntimeError"');
    expect(fields.find((field) => field.key === "categories")?.value).toBe("[]");
  });

  it("leaves out the paired task row's fields, which the request carried (Gym's terminal_multi_harness)", () => {
    const line = gymRollout("terminal_multi_harness/data/example_rollouts.jsonl", 5);
    const row = gymLine("terminal_multi_harness/data/example.jsonl", 5);
    // harness and expected_action are the task row's too: what is left is what the verifier wrote.
    expect(recordedFields(line).map((field) => field.key)).toEqual([
      "harness",
      "expected_action",
      "category",
    ]);
    expect(recordedFields(line, row).map((field) => field.key)).toEqual(["category"]);
  });

  it("shows values as written, Python's NaN included, cuts long texts and leaves out long structures", () => {
    const line = asRollout({
      response: { output: [] },
      reward: 0,
      judge_score: Number.NaN,
      verdict: "x".repeat(500),
      ok: false,
      none: null,
      labels: ["user_failure"],
      // Gym's blackjack: why the -1, in a short object.
      info: { result: "bust", value: 26 },
      transcript: Array.from({ length: 40 }, (_, i) => ({ turn: i })),
    });
    expect(recordedFields(line)).toEqual([
      { key: "judge_score", value: "NaN" },
      { key: "verdict", value: `"${"x".repeat(159)}…` },
      { key: "ok", value: "false" },
      { key: "none", value: "null" },
      { key: "labels", value: '["user_failure"]' },
      { key: "info", value: '{"result":"bust","value":26}' },
    ]);
    // An emoji is never cut in half; a NaN inside a structure stays NaN.
    const more = recordedFields(
      asRollout({ response: { output: [] }, smile: "😀".repeat(200), scores: [Number.NaN, 1] }),
    );
    expect(more[0]?.value).toBe(`"${"😀".repeat(159)}…`);
    expect(more[1]).toEqual({ key: "scores", value: "[NaN,1]" });
  });

  it("shows at most RECORDED_FIELDS_MAX fields", () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, i]));
    const fields = recordedFields(asRollout({ response: { output: [] }, ...many }));
    expect(fields).toHaveLength(RECORDED_FIELDS_MAX);
    expect(fields[0]).toEqual({ key: "f0", value: "0" });
  });
});
