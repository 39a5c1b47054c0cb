import { describe, expect, it } from "vitest";
import { withoutTrailing } from "./compute";

describe("withoutTrailing", () => {
  it("drops a sentence said on its own line from the end of another, and nothing else", () => {
    const reason = "Not paired: the line has no (_ng_task_index, _ng_rollout_index).";
    expect(withoutTrailing(`It did not pair with the open inputs. ${reason}`, reason)).toBe(
      "It did not pair with the open inputs.",
    );
    expect(withoutTrailing(`${reason} Then more.`, reason)).toBe(`${reason} Then more.`);
    expect(withoutTrailing("text", null)).toBe("text");
    expect(withoutTrailing("text", "")).toBe("text");
  });
});
