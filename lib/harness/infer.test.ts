import { describe, expect, it } from "vitest";
import { WORKPLACE_TOOLS } from "../verifiers/workplace_assistant";
import { aliasFor, inferHarness } from "./index";

const S = "workplace_assistant";
const tools = WORKPLACE_TOOLS;

describe("inferHarness", () => {
  it("names the one harness whose aliases explain the names", () => {
    const names = ["email_reply_email", "calendar_update_event"].map((t) => aliasFor("openclaw", S, t));
    expect(inferHarness(names, S, tools)).toEqual({
      basis: "inferred",
      harnesses: ["openclaw"],
      aliased: 2,
      explained: 2,
    });
  });

  it("hermes-legacy and gemini-cli both write mcp_S_T: both are named", () => {
    const names = ["email_reply_email"].map((t) => aliasFor("hermes-legacy", S, t));
    expect(inferHarness(names, S, tools)?.harnesses).toEqual(["hermes-legacy", "gemini-cli"]);
  });

  it("names every harness tied on the same aliases instead of picking one", () => {
    const names = [aliasFor("claude-code", S, "email_reply_email")];
    const inferred = inferHarness(names, S, tools);
    expect(inferred?.harnesses).toContain("claude-code");
    expect(inferred?.harnesses).toContain("codex");
    expect(inferred?.harnesses.length).toBeGreaterThan(1);
  });

  it("ignores bare tool names and gives null for an HTTP run or unknown names", () => {
    expect(inferHarness(["email_reply_email", "email_send_email"], S, tools)).toBeNull();
    expect(inferHarness(["crm_bulk_reassign"], S, tools)).toBeNull();
    expect(inferHarness([], S, tools)).toBeNull();
  });

  it("counts distinct names and what the winner leaves unexplained", () => {
    const alias = aliasFor("openclaw", S, "email_reply_email");
    const inferred = inferHarness([alias, alias, "not_a_tool", "email_send_email"], S, tools);
    expect(inferred?.aliased).toBe(2);
    expect(inferred?.explained).toBe(1);
    expect(inferred?.harnesses).toContain("openclaw");
  });
});
