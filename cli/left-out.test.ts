import { describe, expect, it } from "vitest";
import { LeftOutLines } from "./left-out";

describe("LeftOutLines", () => {
  it("says consecutive lines left out for one reason once, and every other line as it comes", async () => {
    const said: string[] = [];
    const log = new LeftOutLines(async (text) => said.push(text));
    for (let line = 1; line <= 114; line++) await log.add("a/x.jsonl", line, "no response");
    await log.add("a/x.jsonl", 115, "not JSON");
    await log.add("a/x.jsonl", 117, "not JSON");
    await log.add("b/y.jsonl", 118, "not JSON");
    await log.add("b/y.jsonl", 119, "not JSON");
    await log.add(null, 120, "not JSON");
    await log.flush();
    await log.flush();
    expect(said).toEqual([
      "a/x.jsonl lines 1-114: no response (left out)\n",
      "a/x.jsonl line 115: not JSON (left out)\n",
      "a/x.jsonl line 117: not JSON (left out)\n",
      "b/y.jsonl lines 118-119: not JSON (left out)\n",
      "line 120: not JSON (left out)\n",
    ]);
  });
});
