import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  FunctionCallSchema,
  functionCallCount,
  functionCalls,
  NOT_A_ROLLOUT_OBJECT,
  ProvenanceEntrySchema,
  parseOutputItem,
  RolloutSchema,
  readRollout,
  StrictProvenanceMapSchema,
} from ".";

const FIXTURES = join(import.meta.dirname, "../../fixtures");

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith("rollouts.jsonl"))
    .map((e) => join(e.parentPath, e.name));
}

describe("readRollout", () => {
  it("keeps unknown keys at every level", () => {
    const value = {
      response: {
        id: "r",
        output: [{ type: "function_call", name: "a", call_id: "c", arguments: "{}", extra: 1 }],
        usage: { x: 1 },
      },
      _ng_task_index: 3,
      custom: { nested: [1, 2] },
    };
    const r = readRollout(value);
    expect(r.ok && r.rollout).toEqual(value);
  });

  it.each([
    ["null", null, "the line is not a JSON object"],
    ["an array", [1], "the line is not a JSON object"],
    ["a string", "x", "the line is not a JSON object"],
    ["no response", { reward: 1 }, "response: expected a Responses object with an output array"],
    [
      "a response that is an array",
      { response: [] },
      "response: expected a Responses object with an output array",
    ],
    ["no output", { response: {} }, "response.output: expected an array of output items"],
    ["output null", { response: { output: null } }, "response.output: expected an array of output items"],
    [
      "an item that is not an object",
      { response: { output: [3] } },
      "response.output.0: expected an output item object",
    ],
    [
      "an item without a type",
      { response: { output: [{ name: "x" }] } },
      "response.output.0.type: an output item needs a string type",
    ],
    [
      "a function_call without a string name",
      {
        response: {
          output: [
            { type: "message", role: "assistant", content: "" },
            { type: "function_call", name: 5 },
          ],
        },
      },
      "response.output.1.name: expected the emitted name as a string",
    ],
  ])("rejects %s with a clear reason", (_label, value, reason) => {
    const r = readRollout(value);
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.issues[0]).toContain(reason);
  });

  it("gives a line error with a kind and the one message every front end shows", () => {
    expect(readRollout(42)).toEqual({
      ok: false,
      kind: "not_an_object",
      issues: ["the line is not a JSON object"],
      message: NOT_A_ROLLOUT_OBJECT,
    });
    expect(readRollout({ response: { output: "x" } })).toEqual({
      ok: false,
      kind: "not_a_rollout",
      issues: [
        "response.output: expected an array of output items (a rollout without response.output cannot be resolved)",
      ],
      message:
        "not a rollout: response.output: expected an array of output items (a rollout without response.output cannot be resolved)",
    });
  });

  it("narrows the value itself: keys keep their order (and a __proto__ key), so nothing downstream is reordered", () => {
    const value: unknown = JSON.parse(
      '{"reward":1,"__proto__":{"x":1},"response":{"zz":1,"output":[{"b":1,"type":"function_call","name":"x"}]}}',
    );
    const r = readRollout(value);
    expect(r.ok && r.rollout).toBe(value);
    if (!r.ok) return;
    expect(Object.keys(r.rollout)).toEqual(["reward", "__proto__", "response"]);
    expect(JSON.stringify(r.rollout.response.output[0])).toBe('{"b":1,"type":"function_call","name":"x"}');
    // The schema has no transform, default or catch: its parse equals the value (keys aside).
    const plain = { reward: 1, response: { zz: 1, output: [{ b: 1, type: "function_call", name: "x" }] } };
    expect(RolloutSchema.parse(plain)).toEqual(plain);
  });

  it("accepts function_calls whose call_id is missing, not a string or empty", () => {
    const r = readRollout({
      response: {
        output: [
          { type: "function_call", name: "a", arguments: "{}" },
          { type: "function_call", name: "b", arguments: "{}", call_id: 12 },
          { type: "function_call", name: "c", arguments: "{}", call_id: "" },
        ],
      },
    });
    expect(r.ok).toBe(true);
    if (r.ok) expect(functionCalls(r.rollout).map((c) => c.call.call_id)).toEqual([undefined, 12, ""]);
  });

  it("keeps items of other types, and malformed messages, without failing the rollout", () => {
    const r = readRollout({
      response: {
        output: [
          { type: "mcp_call", server_label: "s", name: "t" },
          { type: "message", content: 5 },
          { type: "function_call", name: "a", call_id: "c0", arguments: "{}" },
        ],
      },
    });
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(functionCalls(r.rollout)).toMatchObject([{ index: 0, output_index: 2, call: { name: "a" } }]);
  });

  it("reads every rollout line of the project's Gym and golden fixtures, and counts their calls as it lists them", () => {
    const files = [...jsonlFiles(join(FIXTURES, "nemo-gym")), ...jsonlFiles(join(FIXTURES, "golden"))];
    expect(files.length).toBeGreaterThanOrEqual(8);
    let lines = 0;
    let calls = 0;
    for (const file of files) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (line.trim() === "") continue;
        lines++;
        const r = readRollout(JSON.parse(line));
        expect(r.ok ? [] : r.issues, file).toEqual([]);
        if (!r.ok) continue;
        // The index's count (no second narrowing of each call) is the rewards pass's list length.
        expect(functionCallCount(r.rollout), file).toBe(functionCalls(r.rollout).length);
        calls += functionCallCount(r.rollout);
      }
    }
    expect(lines).toBeGreaterThan(100);
    expect(calls).toBeGreaterThan(lines);
  });

  it("counts only function_call items, whatever else the output holds", () => {
    const r = readRollout({
      response: {
        output: [
          { type: "reasoning", summary: [] },
          { type: "function_call", name: "a", arguments: "{}", call_id: "c0" },
          { type: "function_call_output", call_id: "c0", output: "x" },
          { type: "mcp_call", name: "t" },
          { type: "function_call", name: "b", arguments: "{}" },
        ],
      },
    });
    expect(r.ok && functionCallCount(r.rollout)).toBe(2);
  });
});

describe("parseOutputItem", () => {
  it("narrows the four known types", () => {
    expect(parseOutputItem({ type: "function_call", name: "a", arguments: "{}", call_id: "c" }).kind).toBe(
      "function_call",
    );
    expect(parseOutputItem({ type: "function_call_output", call_id: "c", output: "ok" }).kind).toBe(
      "function_call_output",
    );
    expect(
      parseOutputItem({ type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] })
        .kind,
    ).toBe("message");
    expect(parseOutputItem({ type: "reasoning", summary: [{ type: "summary_text", text: "t" }] }).kind).toBe(
      "reasoning",
    );
  });

  it("keeps other types and malformed known types as raw JSON with the reasons", () => {
    const mcp = { type: "mcp_call", server_label: "s" };
    expect(parseOutputItem(mcp)).toEqual({ kind: "raw", type: "mcp_call", item: mcp, issues: [] });
    const badMessage = parseOutputItem({ type: "message", content: 5 });
    expect(badMessage.kind).toBe("raw");
    expect(badMessage.kind === "raw" && badMessage.issues.length).toBeGreaterThan(0);
    expect(parseOutputItem(7)).toMatchObject({ kind: "raw", type: null });
  });

  it("never throws on odd input", () => {
    for (const v of [undefined, null, [], "x", { type: null }, { type: "function_call" }]) {
      expect(() => parseOutputItem(v)).not.toThrow();
    }
  });
});

describe("provenance schemas", () => {
  it("entry: non-empty strings with a non-whitespace character; extra keys kept", () => {
    const entry = { server_name: "s", tool_name: "t", transport: "mcp" };
    expect(ProvenanceEntrySchema.safeParse(entry)).toMatchObject({ success: true, data: entry });
    for (const bad of [
      { server_name: "", tool_name: "t" },
      { server_name: " ", tool_name: "t" },
      { server_name: "s", tool_name: "\n\t" },
      { server_name: "s" },
      { server_name: 1, tool_name: "t" },
      "s/t",
      null,
    ]) {
      expect(ProvenanceEntrySchema.safeParse(bad).success).toBe(false);
    }
  });

  it("strict map: an object of valid entries only", () => {
    expect(StrictProvenanceMapSchema.safeParse({}).success).toBe(true);
    expect(StrictProvenanceMapSchema.safeParse({ c: { server_name: "s", tool_name: "t" } }).success).toBe(
      true,
    );
    expect(StrictProvenanceMapSchema.safeParse({ c: { server_name: "s" } }).success).toBe(false);
    expect(StrictProvenanceMapSchema.safeParse([]).success).toBe(false);
  });

  it("function_call schema keeps id and status but does not require them", () => {
    expect(
      FunctionCallSchema.safeParse({ type: "function_call", name: "n", arguments: "{}", call_id: "c" })
        .success,
    ).toBe(true);
    expect(
      FunctionCallSchema.safeParse({ type: "function_call", name: "n", id: null, status: "completed" })
        .success,
    ).toBe(true);
  });
});
