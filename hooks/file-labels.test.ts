import { describe, expect, it } from "vitest";
import { fileLabels } from "./file-labels";

describe("fileLabels", () => {
  it("keeps a unique name and numbers files of the same name in opening order", () => {
    const labels = fileLabels([
      { id: "d-1", name: "run.jsonl" },
      { id: "d-2", name: "inputs.jsonl" },
      { id: "d-3", name: "run.jsonl" },
    ]);
    expect([...labels]).toEqual([
      ["d-1", "run.jsonl #1"],
      ["d-2", "inputs.jsonl"],
      ["d-3", "run.jsonl #2"],
    ]);
  });
});
