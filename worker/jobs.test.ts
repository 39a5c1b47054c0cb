/**
 * readLines (./jobs.ts): a job's lines come back in the order asked, each exactly its bytes, with lines side
 * by side in one Blob read together.
 */
import { describe, expect, it, vi } from "vitest";
import {
  DROPPED_FILE,
  indexBatch,
  JOB_PAUSE_BYTES,
  type LineRef,
  READ_GAP_BYTES,
  readLines,
  rewardBatch,
  yieldToMessages,
} from "./jobs";

/**
 * The jobs with their default pause, from modules of their own: in Node, messages of two channels are not
 * delivered in the order they were posted, and the pause's one channel, once made here, would be read before
 * the channel of the yield test below.
 */
async function freshJobs() {
  vi.resetModules();
  const jobs = await import("./jobs");
  const { mainBeat } = await import("./main-first");
  return { ...jobs, giveWay: vi.spyOn(mainBeat, "giveWay") };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** An index job of these bytes, whole. */
const indexJobOf = (bytes: Uint8Array<ArrayBuffer>) => ({
  blob: new Blob([bytes]),
  start: 0,
  end: bytes.length,
  ...DROPPED_FILE,
});

/** A Blob of these lines (and its refs), with a count of its reads. */
function blobOf(lines: readonly string[], gap = "") {
  const refs: Omit<LineRef, "blob">[] = [];
  let offset = 0;
  const parts: string[] = [];
  lines.forEach((line, i) => {
    refs.push({ line: i + 1, offset, length: new TextEncoder().encode(line).length });
    parts.push(`${line}\n${gap}`);
    offset += new TextEncoder().encode(`${line}\n${gap}`).length;
  });
  const blob = new Blob(parts);
  const slice = vi.spyOn(blob, "slice");
  return { refs: refs.map((ref) => ({ ...ref, blob })), reads: () => slice.mock.calls.length };
}

describe("readLines", () => {
  it("reads lines side by side once, and gives each its own bytes in the order asked", async () => {
    const { refs, reads } = blobOf(['{"a":1}', '{"b":"é"}', "[3]", "{}"]);
    const asked = [refs[2]!, refs[0]!, refs[3]!, refs[1]!];
    const lines = await readLines(asked);
    expect(lines.map(text)).toEqual(["[3]", '{"a":1}', "{}", '{"b":"é"}']);
    expect(reads()).toBe(1);
  });

  it("reads apart lines far from each other, and lines of two Blobs", async () => {
    const far = blobOf(["x", "y"], " ".repeat(READ_GAP_BYTES + 1));
    const other = blobOf(["z"]);
    const lines = await readLines([far.refs[1]!, other.refs[0]!, far.refs[0]!]);
    expect(lines.map(text)).toEqual(["y", "z", "x"]);
    expect(far.reads()).toBe(2);
    expect(other.reads()).toBe(1);
  });
});

describe("rewardBatch", () => {
  it("pauses for waiting messages every JOB_PAUSE_BYTES of lines, not once a job", async () => {
    // Ten lines of 0.3 of the bound each: a pause before the 5th and the 9th (each after 4 lines, 1.2 bounds).
    const line = JSON.stringify({ pad: "x".repeat(Math.round(JOB_PAUSE_BYTES * 0.3)) });
    const { refs } = blobOf(Array.from({ length: 10 }, () => line));
    const pause = vi.fn(() => Promise.resolve());
    await rewardBatch({ lines: refs, inputs: null, ...DROPPED_FILE }, pause);
    expect(pause).toHaveBeenCalledTimes(2);
    // The default pause gives way to a busy page (./main-first.ts).
    const fresh = await freshJobs();
    await fresh.rewardBatch({ lines: refs, inputs: null, ...DROPPED_FILE });
    expect(fresh.giveWay).toHaveBeenCalledTimes(2);
  });

  it("yields to a message already waiting (a macrotask, not a resolved promise)", async () => {
    const order: string[] = [];
    const channel = new MessageChannel();
    channel.port1.onmessage = () => order.push("message");
    channel.port2.postMessage(null);
    await yieldToMessages();
    order.push("after the yield");
    channel.port1.close();
    expect(order).toEqual(["message", "after the yield"]);
  });

  it("resumes every pause waiting at once, in order (one channel serves them all)", async () => {
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => yieldToMessages().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
  });
});

describe("indexBatch", () => {
  it("pauses every JOB_PAUSE_BYTES of lines too, and each pause gives way to a busy page", async () => {
    // As rewardBatch's: ten lines of 0.3 of the bound, a pause before the 5th and the 9th.
    const line = JSON.stringify({ pad: "x".repeat(Math.round(JOB_PAUSE_BYTES * 0.3)) });
    const bytes = new TextEncoder().encode(`${Array(10).fill(line).join("\n")}\n`);
    const pause = vi.fn(() => Promise.resolve());
    const batch = await indexBatch(indexJobOf(bytes), pause);
    expect(batch.lines).toHaveLength(10);
    expect(pause).toHaveBeenCalledTimes(2);
    // The default pause: the waiting messages, then the page's beats (./main-first.ts).
    const fresh = await freshJobs();
    await fresh.indexBatch(indexJobOf(bytes));
    expect(fresh.giveWay).toHaveBeenCalledTimes(2);
  });

  it("leaves what only the rewards pass knows unknown (null), not false or 0", async () => {
    const row = JSON.stringify({ response: { output: [] }, mcp_tool_call_provenance: "not a map" });
    const batch = await indexBatch(indexJobOf(new TextEncoder().encode(`${row}\n`)));
    const first = batch.lines[0];
    expect(first?.status).toBe("row");
    expect(first?.status === "row" ? first.entry : null).toMatchObject({
      rewards: "pending",
      contract: null,
      legacy: null,
      counts: null,
      gym_would_reject: null,
    });
  });

  it("counts the batch's lines, blank ones included, however it ends", async () => {
    const row = JSON.stringify({ response: { output: [] } });
    const cases = [
      `${row}\n`,
      `${row}\n\n  \n\n`,
      `${row}\r\n${row}`,
      `\ufeff${row}\n\n`,
      `\n\n${row}\nnot json\n\n`,
      "\n \n\n",
      "",
      `${row}\n${"x".repeat(10)}`,
    ];
    for (const text of cases) {
      const bytes = new TextEncoder().encode(text);
      const breaks = bytes.filter((byte) => byte === 0x0a).length;
      const expected = breaks + (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? 1 : 0);
      const batch = await indexBatch(indexJobOf(bytes));
      expect(batch.lineCount, JSON.stringify(text)).toBe(expected);
    }
  });
});
