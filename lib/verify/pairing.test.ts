import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  InputIndex,
  indexInputs,
  isInputRow,
  pairingKey,
  rowLabel,
  rowLabelLine,
  taskInputKey,
} from "./pairing";

const WEATHER = new URL(
  "../../fixtures/nemo-gym/resources_servers/example_mcp_weather/data/",
  import.meta.url,
);

function jsonl(url: URL): unknown[] {
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line): unknown => JSON.parse(line));
}

const task = (input: unknown, extra: Record<string, unknown> = {}) => ({
  responses_create_params: { input },
  ...extra,
});

describe("InputIndex", () => {
  it("pairs by Gym's indices first, the last row of a repeated key winning", () => {
    const index = indexInputs([
      { _ng_task_index: 0, _ng_rollout_index: 0, ...task("a"), v: 1 },
      { _ng_task_index: 0, _ng_rollout_index: 0, ...task("b"), v: 2 },
    ]);
    const pairing = index.pair({ _ng_task_index: 0, _ng_rollout_index: 0, ...task("a") });
    expect(pairing.paired_by).toBe("index");
    expect(pairing.ref).toMatchObject({ v: 2 });
  });

  it("pairs a line without indices by an equal input (canonical JSON: key order does not matter)", () => {
    const index = indexInputs([task([{ role: "user", content: "hi" }], { ground_truth: "x" })]);
    const pairing = index.pair(task([{ content: "hi", role: "user" }]));
    expect(pairing.paired_by).toBe("input");
    expect(pairing.ref).toMatchObject({ ground_truth: "x" });
  });

  it("copies of one task (differing only in Gym's bookkeeping keys) pair; different tasks are ambiguous", () => {
    const copies = indexInputs([
      { _ng_task_index: 0, _ng_rollout_index: 0, ...task("q", { ground_truth: "1" }) },
      { _ng_task_index: 0, _ng_rollout_index: 1, ...task("q", { ground_truth: "1" }) },
    ]);
    expect(copies.pair(task("q")).paired_by).toBe("input");
    const different = indexInputs([task("q", { ground_truth: "1" }), task("q", { ground_truth: "2" })]);
    const pairing = different.pair(task("q"));
    expect(pairing).toMatchObject({ paired_by: "none", ref: null, ambiguous: 2 });
    expect(pairing.reason).toContain("never guessed");
  });

  const taskIdx = (line: unknown) =>
    typeof line === "object" && line !== null && "task_idx" in line ? String(line.task_idx) : "?";

  it("aviary: rows keyed by task_idx (the agent's /seed_session index), which Gym never pairs on, say so", () => {
    const data = new URL("../../fixtures/gym-examples/resources_servers/aviary/data/", import.meta.url);
    const index = indexInputs(jsonl(new URL("example.jsonl", data)), "data/example.jsonl");
    const lines = jsonl(new URL("example_rollouts.jsonl", data));
    for (const line of lines) {
      const pairing = index.pair(line);
      // Gym's reverify pairs by (_ng_task_index, _ng_rollout_index) alone: these lines have none.
      expect(pairing).toMatchObject({ paired_by: "none", ref: null, ambiguous: 5 });
      expect(pairing.reason).toContain("the line has no (_ng_task_index, _ng_rollout_index)");
      expect(pairing.reason).toContain(
        "(data/example.jsonl line 1, data/example.jsonl line 2, data/example.jsonl line 3, …)",
      );
      expect(pairing.reason).toContain(`differing in task_idx (the line's: task_idx ${taskIdx(line)})`);
      expect(pairing.reason).toContain("never guessed");
    }
    // A field the line lacks is named as lacking.
    const lacking = index.pair({ responses_create_params: { input: [] }, response: { output: [] } });
    expect(lacking.reason).toContain("differing in task_idx (the line has none of them)");
  });

  it("falls back to the input when the indices find no row, and says why it pairs nothing", () => {
    const index = indexInputs([task("q", { g: 1 })]);
    expect(index.pair({ _ng_task_index: 9, _ng_rollout_index: 9, ...task("q") }).paired_by).toBe("input");
    const none = index.pair({ _ng_task_index: 9, _ng_rollout_index: 9, ...task("other") });
    expect(none).toMatchObject({ paired_by: "none", ref: null, ambiguous: 0 });
    expect(none.reason).toContain("9:9");
    expect(index.pair({}).reason).toContain("it has no responses_create_params.input");
  });

  it("compares inputs as Gym's request model reads them: its defaults applied to every item", () => {
    const bare = { responses_create_params: { input: [{ role: "user", content: "hi" }] } };
    const dumped = {
      responses_create_params: { input: [{ role: "user", content: "hi", type: "message" }] },
    };
    expect(indexInputs([bare]).pair(dumped).paired_by).toBe("input");
    const call = { call_id: "c", name: "f", arguments: "{}" };
    const dumpedCall = { ...call, type: "function_call", id: null, status: null };
    const withCall = (item: unknown) => ({ responses_create_params: { input: [item] } });
    expect(indexInputs([withCall(call)]).pair(withCall(dumpedCall)).paired_by).toBe("input");
    // An explicit value is not a default: a different status is a different input.
    expect(
      indexInputs([withCall(call)]).pair(withCall({ ...dumpedCall, status: "completed" })).paired_by,
    ).toBe("none");
  });

  it("pairs by the indices only against rows that carry them, and says where index and input disagree", () => {
    const index = indexInputs([{ _ng_task_index: 0, _ng_rollout_index: 0, ...task("a") }]);
    const paired = index.pair({ _ng_task_index: 0, _ng_rollout_index: 0, ...task("b") });
    expect(paired.paired_by).toBe("index");
    expect(paired.disagreement).toMatch(/differs from the line's/);
    const unkeyed = indexInputs([task("a")]);
    expect(unkeyed.pair({ _ng_task_index: 0, _ng_rollout_index: 0, ...task("a") }).paired_by).toBe("input");
    expect(unkeyed.pair({ _ng_task_index: 0, _ng_rollout_index: 0, ...task("z") }).reason).toContain(
      "none of the 1 open input row carries (_ng_task_index, _ng_rollout_index)",
    );
  });

  it("names the closest row and what differs when nothing pairs", () => {
    const index = new InputIndex<number>();
    const rows = (q: string) => ({
      responses_create_params: {
        input: [
          { role: "system", content: "S" },
          { role: "user", content: q },
        ],
      },
    });
    index.add({ responses_create_params: { input: [{ role: "system", content: "other" }] } }, 1, {
      file: "data/example.jsonl",
      line: 1,
    });
    index.add(rows("Reply to carlos"), 2, { file: "data/example.jsonl", line: 2 });
    const none = index.pair(rows("Create a bar chart"));
    expect(none.paired_by).toBe("none");
    expect(none.reason).toContain(
      'The closest is data/example.jsonl line 2: at input[1] the line has the user message "Create a bar chart", the row the user message "Reply to carlos".',
    );
    expect(none.reason).not.toMatch(/open the/);
  });

  it("quotes two texts from where they part when their openings read the same (Gym's tau2 system prompts)", () => {
    const prompt =
      "<instructions> You are a customer service agent that helps the user according to the policy.";
    const task = (system: string, extra: Record<string, unknown> = {}) => ({
      responses_create_params: { input: [{ role: "system", content: system, ...extra }] },
    });
    const closest = (line: unknown, row: unknown) => {
      const index = new InputIndex<number>();
      index.add(row, 1, { file: "in.jsonl", line: 1 });
      return index.pair(line).reason;
    };
    expect(closest(task(`${prompt} Domain: airline.`), task(`${prompt} Domain: retail.`))).toContain(
      `The closest is in.jsonl line 1: at input[0] the texts first differ at character ${`${prompt} Domain: `.length + 1}: the line has "…the policy. Domain: airline.", the row "…the policy. Domain: retail.".`,
    );
    expect(closest(task(`${prompt}  x`), task(`${prompt} x`))).toContain(
      `the texts first differ at character ${prompt.length + 2}, in white space only`,
    );
    // The same text, another field: the field is named with both values.
    expect(closest(task(prompt, { name: "a" }), task(prompt, { name: "b" }))).toContain(
      `at input[0] the system message "${prompt.slice(0, 60)}…" differs in name: the line has name "a", the row name "b".`,
    );
    expect(closest(task(prompt, { name: "a" }), task(prompt))).toContain(
      'differs in name: the line has name "a", the row no name.',
    );
    // One equal item, then more on the line's side (tau2's first rollout against a one-message row).
    const longer = task(prompt);
    longer.responses_create_params.input.push({ role: "user", content: "hi" });
    expect(closest(longer, task(prompt))).toContain(
      "the first input item is equal, but the line has 2 and the row 1.",
    );
    // Text inputs are quoted from where they part too; an empty side is named as empty.
    const text = (input: unknown) => ({ responses_create_params: { input } });
    expect(closest(text(`${prompt} A`), text(`${prompt} B`))).toContain(
      `the inputs are texts: the texts first differ at character ${prompt.length + 2}: the line has "…`,
    );
    expect(closest(text([]), task(prompt))).toContain("the line has no input item, the row 1.");
  });

  it("names the row with the longest equal start, then the most equal items, among the rows it compares", () => {
    const msg = (content: string) => ({ role: "user", content });
    const row = (...items: string[]) => ({ responses_create_params: { input: items.map(msg) } });
    const at = (line: number) => ({ file: "t.jsonl", line });
    const index = new InputIndex<number>(3);
    index.add(row("x", "b", "c", "d"), 1, at(1)); // 3 equal items, no equal start
    index.add(row("a", "z", "z", "z"), 2, at(2)); // equal start of 1
    index.add(row("a", "z", "c", "d"), 3, at(3)); // equal start of 1 and 3 equal items: the closest
    index.add(row("a", "b", "c", "x"), 4, at(4)); // closer still, but past the 3 rows compared
    const reason = index.pair(row("a", "b", "c", "d")).reason;
    expect(reason).toContain('The closest is t.jsonl line 3: at input[1] the line has the user message "b"');
    // A text input shares nothing item by item: the first row compared is named.
    expect(index.pair({ responses_create_params: { input: "a" } }).reason).toContain(
      "The closest is t.jsonl line 1:",
    );
  });

  it("reads a row's line back from its label, for that file only", () => {
    const label = rowLabel({ file: "data/example.jsonl", line: 4 });
    expect(rowLabelLine(label, "data/example.jsonl")).toBe(4);
    expect(rowLabelLine(label, "example.jsonl")).toBeNull();
    expect(rowLabelLine("data/example.jsonl line 4b", "data/example.jsonl")).toBeNull();
  });

  it("rejects rows it cannot pair and counts the rest", () => {
    const index = new InputIndex<number>();
    expect(index.add({ x: 1 }, 1, { file: "in.jsonl", line: 1 })).toBe(false);
    expect(index.add(task("a"), 2, { file: "in.jsonl", line: 2 })).toBe(true);
    expect(index.size).toBe(1);
  });

  it("pairs each of Gym's weather example rollouts with its example.jsonl row by equal input", () => {
    const index = indexInputs(jsonl(new URL("example.jsonl", WEATHER)));
    for (const rollout of jsonl(new URL("example_rollouts.jsonl", WEATHER))) {
      expect(index.pair(rollout).paired_by).toBe("input");
    }
  });
});

describe("row kinds and keys", () => {
  it("an input row has no response and either Gym's indices or responses_create_params", () => {
    expect(isInputRow({ _ng_task_index: 0, _ng_rollout_index: 0 })).toBe(true);
    expect(isInputRow(task("x"))).toBe(true);
    expect(isInputRow({ ...task("x"), response: { output: [] } })).toBe(false);
    expect(isInputRow({ id: 1 })).toBe(false);
    expect(isInputRow([1])).toBe(false);
  });

  it("keys", () => {
    expect(pairingKey({ _ng_task_index: 1, _ng_rollout_index: 2 })).toBe("1:2");
    expect(pairingKey({ _ng_task_index: 1.5, _ng_rollout_index: 2 })).toBeNull();
    expect(taskInputKey(task({ b: 1, a: 2 }))).toBe('{"a":2,"b":1}');
    expect(taskInputKey({ responses_create_params: {} })).toBeNull();
  });
});
