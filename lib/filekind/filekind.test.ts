import { describe, expect, it } from "vitest";
import { fileProblem, noRolloutProblem } from "./index";

const enc = new TextEncoder();

describe("fileProblem", () => {
  it("names CSV, one JSON document, a JSON array, binary, UTF-16 and an empty file", () => {
    expect(fileProblem(enc.encode("id,name,value\n1,a,2\n2,b,3\n")).kind).toBe("csv");
    expect(fileProblem(enc.encode('{\n  "response": {\n    "output": []\n  }\n}\n')).kind).toBe(
      "json_document",
    );
    expect(fileProblem(enc.encode('[{"response": {"output": []}}]')).kind).toBe("json_array");
    expect(
      fileProblem(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3, 4]))
        .kind,
    ).toBe("binary");
    const utf16 = new Uint8Array([0xff, 0xfe, ...[...'{"a": 1}\n'].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(fileProblem(utf16).kind).toBe("utf16");
    const noBom = new Uint8Array([...'{"a": 1}\n{"b": 2}\n'].flatMap((c) => [c.charCodeAt(0), 0]));
    expect(fileProblem(noBom).kind).toBe("utf16");
    expect(fileProblem(enc.encode("hello world\nsecond line\n")).kind).toBe("not_jsonl");
    expect(fileProblem(new Uint8Array(0)).kind).toBe("empty");
    // One long line (a Gym rollout cut short, or not JSON) is neither a document spread over lines nor CSV.
    const oneLine = enc.encode(`{"responses_create_params": {"input": [${'"a, b", '.repeat(600)}`);
    expect(fileProblem(oneLine).kind).toBe("not_jsonl");
    expect(fileProblem(enc.encode("a,b,c")).kind).toBe("not_jsonl");
    expect(fileProblem(enc.encode("\uFEFF\n \r\n\t\n")).kind).toBe("empty");
  });

  it("says in one sentence what the tool expects", () => {
    const problem = fileProblem(enc.encode("a,b\n1,2\n"));
    expect(problem.message).toContain("CSV");
    expect(problem.message).toContain("JSON Lines");
  });
});

describe("noRolloutProblem", () => {
  const start = enc.encode('{"responses_create_params": {"input": []}}\n');
  it("names a file of task rows as the inputs of a run", () => {
    expect(noRolloutProblem(start, ["task_row", "task_row"])?.kind).toBe("task_rows");
  });
  it("says nothing of a file whose lines each have a kind of their own: it is JSONL, named line by line", () => {
    expect(noRolloutProblem(start, ["task_row", "placeholder"])).toBeNull();
    expect(noRolloutProblem(enc.encode('{"a": 1}\n{"b": 2}\n'), ["no_response"])).toBeNull();
  });
  it("reads the first bytes when no line is JSON, or there is none", () => {
    expect(noRolloutProblem(enc.encode("a,b\n1,2\n"), ["not_json", "not_json"])?.kind).toBe("csv");
    expect(noRolloutProblem(new Uint8Array(0), [])?.kind).toBe("empty");
  });
});
