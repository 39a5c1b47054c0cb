import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonLine } from "../jsonl";
import { readRollout } from "../schemas";
import { asRollout } from "../schemas/test-helpers";
import {
  COUNTED_VALUE_MAX_CHARS,
  countedFields,
  RECORDED_FIELDS_MAX,
  RECORDED_VALUES_MAX,
  type RecordedField,
  recordedFields,
  recordedFieldsByVerifier,
  recordedFieldsLines,
  summarizeRecordedFields,
} from "./recorded-fields";

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
    // Unpaired, the open task rows' keys still say which fields are the task's.
    expect(
      recordedFields(line, undefined, new Set(["harness", "expected_action"])).map((f) => f.key),
    ).toEqual(["category"]);
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

/** A run row's part the summary reads: the recorded reward and the line's fields (JSON texts). */
function row(recorded: number | null, fields: Record<string, string>) {
  const recorded_fields: RecordedField[] = Object.entries(fields).map(([key, value]) => ({ key, value }));
  return { recorded, recorded_fields };
}

describe("the fields a run row keeps for the counts", () => {
  it("are the line's short fields beside the reward, task names, long texts and the task row's keys aside", () => {
    const line = asRollout({
      response: { output: [] },
      reward: 0,
      uuid: "u-1",
      task_idx: 3,
      category: "calendar",
      failure_reason: "argument_below_threshold",
      info: { result: "bust", value: 26 },
      model_output: "x".repeat(100),
      hit: false,
    });
    // An object's fields one level down: the verdict inside it, not the whole (blackjack's info.result).
    expect(countedFields(line).map((f) => f.key)).toEqual([
      "category",
      "failure_reason",
      "info.result",
      "info.value",
      "hit",
    ]);
    expect(countedFields(line, { category: "calendar" }).map((f) => f.key)).toEqual([
      "failure_reason",
      "info.result",
      "info.value",
      "hit",
    ]);
    // The open task rows' keys are the task's even where the line did not pair.
    expect(countedFields(line, undefined, new Set(["category", "hit"])).map((f) => f.key)).toEqual([
      "failure_reason",
      "info.result",
      "info.value",
    ]);
    expect(countedFields(line).find((f) => f.key === "info.result")?.value).toBe('"bust"');
    expect(countedFields(line).every((f) => f.value.length <= COUNTED_VALUE_MAX_CHARS)).toBe(true);
  });
});

describe("what Gym's verifier recorded on a run's zeros, summed", () => {
  it("counts each field's values on the zeros beside the passes, the fields that set them apart first", () => {
    const summary = summarizeRecordedFields([
      row(0, { seed: "1", family: '"bbox"', failure_reason: '"argument_below_threshold"' }),
      row(0, { seed: "2", family: '"bbox"', failure_reason: '"argument_below_threshold"' }),
      row(0, { seed: "3", family: '"color"', failure_reason: '"tool_name_mismatch"' }),
      row(1, { seed: "4", family: '"color"', failure_reason: '"none"' }),
      row(1, { seed: "5", family: '"point"', failure_reason: '"none"' }),
    ]);
    expect(summary).toEqual({
      zeros: 3,
      negative: 0,
      passes: 2,
      fields: [
        {
          key: "failure_reason",
          zeros: [
            { value: '"argument_below_threshold"', count: 2 },
            { value: '"tool_name_mismatch"', count: 1 },
          ],
          passes: [{ value: '"none"', count: 2 }],
          passesOther: 0,
          zerosApart: 3,
        },
        // seed is an id (every value once): left out. family's color is on a pass too: 2 of 3 apart.
        {
          key: "family",
          zeros: [
            { value: '"bbox"', count: 2 },
            { value: '"color"', count: 1 },
          ],
          passes: [
            { value: '"color"', count: 1 },
            { value: '"point"', count: 1 },
          ],
          passesOther: 0,
          zerosApart: 2,
        },
      ],
      more: 0,
    });
    expect(recordedFieldsLines([{ group: null, summary: summary }])).toEqual([
      "What Gym's verifier wrote on the 3 zeros not verified here, beside the 2 rollouts above 0:",
      '  failure_reason: "argument_below_threshold" ×2 · "tool_name_mismatch" ×1 (above 0: "none" ×2)',
      '  family: "bbox" ×2 · "color" ×1 (above 0: "color" ×1 · "point" ×1)',
    ]);
  });

  it("keeps a field whose every zero has its own value when the passes share one", () => {
    const summary = summarizeRecordedFields([
      row(0, { reason: '"a"' }),
      row(0, { reason: '"b"' }),
      row(1, { reason: '"none"' }),
      row(1, { reason: '"none"' }),
    ]);
    expect(summary.fields.map((f) => [f.key, f.zerosApart])).toEqual([["reason", 2]]);
  });

  it("sets apart the zeros with a field no pass carries (an exception's type), and drops one value everywhere", () => {
    const summary = summarizeRecordedFields([
      row(0, { exception_type: '"RuntimeError"', terminated: "true" }),
      row(0, { exception_type: '"RuntimeError"', terminated: "true" }),
      row(1, { terminated: "true" }),
    ]);
    // terminated: true on every rollout says nothing of the zeros beside a pass.
    expect(summary.fields.map((f) => [f.key, f.zerosApart])).toEqual([["exception_type", 2]]);
    // With no pass to set them against, a value every zero has is the account.
    const allZero = summarizeRecordedFields([row(0, { terminated: "true" }), row(0, { terminated: "true" })]);
    expect(allZero.fields.map((f) => f.key)).toEqual(["terminated"]);
  });

  it("leaves out rows verified here (no fields), rows with no or a NaN reward, and counts a negative as a zero", () => {
    const summary = summarizeRecordedFields([
      row(0, {}),
      row(null, { terminated: "true" }),
      row(Number.NaN, { terminated: "true" }),
      row(-1, { terminated: "true" }),
      row(-1, { terminated: "true" }),
    ]);
    expect(summary.zeros).toBe(2);
    expect(summary.passes).toBe(0);
    expect(summary.fields).toEqual([
      { key: "terminated", zeros: [{ value: "true", count: 2 }], passes: [], passesOther: 0, zerosApart: 0 },
    ]);
    expect(recordedFieldsLines([{ group: null, summary: summary }])[0]).toBe(
      "What Gym's verifier wrote on the 2 rollouts recorded 0 or less (2 negative) not verified here:",
    );
  });

  it("leaves out ids and fields with too many values on the zeros; a single rollout is no count", () => {
    const many = Array.from({ length: RECORDED_VALUES_MAX + 1 }, (_, i) => [
      row(0, { score: String(i) }),
      row(0, { score: String(i) }),
    ]).flat();
    expect(summarizeRecordedFields(many).fields).toEqual([]);
    expect(summarizeRecordedFields([row(0, { a: "1" }), row(1, { a: "2" })]).fields).toEqual([]);
    expect(summarizeRecordedFields([row(0, { a: "1" })]).fields).toEqual([]);
    // Nothing to account for: no heading, no lines.
    expect(recordedFieldsLines([{ group: null, summary: summarizeRecordedFields([]) }])).toEqual([]);
  });

  it("lists at most RECORDED_VALUES_MAX values above 0 and counts the others", () => {
    const passes = Array.from({ length: 300 }, (_, i) => row(1, { answer_f1: String(i / 1000) }));
    const summary = summarizeRecordedFields([
      row(0, { answer_f1: "0" }),
      row(0, { answer_f1: "0" }),
      ...passes,
    ]);
    const [field] = summary.fields;
    expect(field?.passes).toHaveLength(RECORDED_VALUES_MAX);
    expect(field?.passesOther).toBe(300 - RECORDED_VALUES_MAX);
    expect(recordedFieldsLines([{ group: null, summary: summary }])[1]).toMatch(/ · 294 other values\)$/);
  });

  it("between fields that set the zeros apart as much, puts the one with fewer values first", () => {
    const summary = summarizeRecordedFields([
      row(0, { tool: '"zoom"', verdict: '"wrong"' }),
      row(0, { tool: '"zoom"', verdict: '"wrong"' }),
      row(0, { tool: '"crop"', verdict: '"wrong"' }),
      row(1, { tool: '"find"', verdict: '"right"' }),
      row(1, { tool: '"color"', verdict: '"right"' }),
    ]);
    expect(summary.fields.map((f) => [f.key, f.zerosApart])).toEqual([
      ["verdict", 3],
      ["tool", 3],
    ]);
  });

  it("shows at most RECORDED_FIELDS_MAX fields and counts the rest; an odd key is written as JSON", () => {
    const fields = Object.fromEntries(
      Array.from({ length: RECORDED_FIELDS_MAX + 3 }, (_, i) => [`f${i}`, "0"]),
    );
    const summary = summarizeRecordedFields([row(0, fields), row(0, fields)]);
    expect(summary.fields).toHaveLength(RECORDED_FIELDS_MAX);
    expect(summary.fields[0]?.key).toBe("f0");
    expect(summary.more).toBe(3);
    expect(recordedFieldsLines([{ group: null, summary: summary }]).at(-1)).toBe(
      "  and 3 more fields: each rollout's own view lists its fields",
    );
    const odd = summarizeRecordedFields([row(0, { "a\u001bb": "1" }), row(0, { "a\u001bb": "1" })]);
    expect(recordedFieldsLines([{ group: null, summary: odd }])[1]).toBe('  "a\\u001bb": 1 ×2');
  });
});

describe("the counts per verifier", () => {
  it("keeps each server's fields apart, the rows with no server as one more, and names them when several", () => {
    const at = (server: string | null, recorded: number, reason: string) => ({
      ...row(recorded, { failure_reason: reason }),
      server,
    });
    const groups = recordedFieldsByVerifier([
      at("image_tools", 0, '"tool_name_mismatch"'),
      at("image_tools", 0, '"tool_name_mismatch"'),
      at("terminus_judge", 0, '"judge_evaluation_failed"'),
      at("terminus_judge", 0, '"judge_evaluation_failed"'),
      at(null, 0, '"x"'),
      at(null, 0, '"x"'),
      // Verified here: no fields, no group.
      { recorded: 0, recorded_fields: [], server: "workplace_assistant" },
    ]);
    expect(groups.map((g) => g.group)).toEqual(["image_tools", "terminus_judge", null]);
    expect(recordedFieldsLines(groups).filter((line) => !line.startsWith("  "))).toEqual([
      "image_tools: What Gym's verifier wrote on the 2 zeros not verified here:",
      "terminus_judge: What Gym's verifier wrote on the 2 zeros not verified here:",
      "no server: What Gym's verifier wrote on the 2 zeros not verified here:",
    ]);
    expect(recordedFieldsLines(groups.slice(0, 1))[0]).toBe(
      "What Gym's verifier wrote on the 2 zeros not verified here:",
    );
    // A server with nothing to show is still a group: the others are named, and it says nothing.
    const quiet = recordedFieldsByVerifier([
      at("a", 0, '"x"'),
      at("a", 1, '"x"'),
      at("b", 0, '"x"'),
      at("b", 0, '"x"'),
    ]);
    expect(quiet.map((g) => g.group)).toEqual(["a", "b"]);
    expect(recordedFieldsLines(quiet).filter((line) => !line.startsWith("  "))).toEqual([
      "b: What Gym's verifier wrote on the 2 zeros not verified here:",
    ]);
  });

  it("counts a folder's rows with no server per file: nothing says two files' runs share a verifier", () => {
    const at = (server: string | null, file: string, fields: Record<string, string>) => ({
      ...row(0, fields),
      server,
      file,
    });
    const rows = [
      at(null, "code_gen/data/example_rollouts.jsonl", { result: "[-2]" }),
      at(null, "circle_click/data/example_rollouts.jsonl", { clicked_x: "null" }),
      at(null, "code_gen/data/example_rollouts.jsonl", { result: "[-2]" }),
      at(null, "circle_click/data/example_rollouts.jsonl", { clicked_x: "null" }),
      at("image_tools", "a/image_tools_rollouts.jsonl", { failure_reason: '"x"' }),
      at("image_tools", "b/image_tools_rollouts.jsonl", { failure_reason: '"x"' }),
    ];
    const groups = recordedFieldsByVerifier(rows, (r) => r.file);
    expect(groups.map((g) => [g.group, g.file])).toEqual([
      [null, "code_gen/data/example_rollouts.jsonl"],
      [null, "circle_click/data/example_rollouts.jsonl"],
      // A server's rows are its verifier's, whichever file holds them.
      ["image_tools", undefined],
    ]);
    expect(groups.map((g) => g.summary.fields.map((f) => f.key))).toEqual([
      ["result"],
      ["clicked_x"],
      ["failure_reason"],
    ]);
    expect(recordedFieldsLines(groups).filter((line) => !line.startsWith("  "))).toEqual([
      "no server (code_gen/data/example_rollouts.jsonl): What Gym's verifier wrote on the 2 zeros not verified here:",
      "no server (circle_click/data/example_rollouts.jsonl): What Gym's verifier wrote on the 2 zeros not verified here:",
      "image_tools: What Gym's verifier wrote on the 2 zeros not verified here:",
    ]);
    // Without files (one run), the rows with no server are one group, as before.
    expect(recordedFieldsByVerifier(rows).map((g) => g.group)).toEqual([null, "image_tools"]);
  });
});
