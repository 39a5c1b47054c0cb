import { describe, expect, it } from "vitest";
import { OPTION_CHARS, optionText } from "./common";

describe("optionText", () => {
  it("keeps a long path's end, where two runs of one folder differ", () => {
    const http = "run/workplace_assistant/data/example_rollouts.jsonl";
    const mcp = "run/some_longer_environment_name/data/example_rollouts_mcp.jsonl";
    expect(optionText(http)).toBe(http);
    const shown = optionText(mcp);
    expect(shown).toHaveLength(OPTION_CHARS);
    expect(shown.endsWith("/data/example_rollouts_mcp.jsonl")).toBe(true);
    expect(shown.startsWith("run/some_")).toBe(true);
    expect(shown).toContain("…");
  });

  it("cuts a file name longer than the option from its start", () => {
    const name = `${"x".repeat(80)}_rollouts.jsonl`;
    const shown = optionText(name, 20);
    expect(shown).toHaveLength(20);
    expect(shown.endsWith("_rollouts.jsonl")).toBe(true);
  });
});
