import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellQuote, shellWord } from ".";

describe("shell words", () => {
  it("keep a path one word through a real shell, quoted only when needed", () => {
    for (const text of ["/runs/a/data/r.jsonl", "/Users/Jane Doe/runs/r.jsonl", 'it\'s $HOME `x` "q"', ""]) {
      const echoed = execFileSync("sh", ["-c", `printf '%s' ${shellWord(text)}`], { encoding: "utf8" });
      expect(echoed).toBe(text);
      expect(execFileSync("sh", ["-c", `printf '%s' ${shellQuote(text)}`], { encoding: "utf8" })).toBe(text);
    }
    expect(shellWord("/runs/a/data/r.jsonl")).toBe("/runs/a/data/r.jsonl");
    expect(shellWord("/Users/Jane Doe/r.jsonl")).toBe("'/Users/Jane Doe/r.jsonl'");
  });
});
