import { describe, expect, it } from "vitest";
import { LINE_BATCH_CHARS, lineBatcher } from "./io";

describe("lineBatcher", () => {
  it("writes whole lines in batches of about LINE_BATCH_CHARS, and the rest on flush", async () => {
    const writes: string[] = [];
    const out = lineBatcher({ write: (chunk) => void writes.push(chunk) });
    const line = "x".repeat(1000);
    const count = Math.ceil((LINE_BATCH_CHARS * 2.5) / (line.length + 1));
    for (let i = 0; i < count; i++) await out.line(line);
    expect(writes).toHaveLength(2);
    for (const chunk of writes) {
      expect(chunk.length).toBeGreaterThanOrEqual(LINE_BATCH_CHARS);
      expect(chunk.endsWith("\n")).toBe(true);
    }
    await out.flush();
    expect(writes).toHaveLength(3);
    expect(writes.join("")).toBe(`${line}\n`.repeat(count));
    await out.flush();
    expect(writes).toHaveLength(3);
  });
});
