/**
 * readLines (./jobs.ts): a job's lines come back in the order asked, each exactly its bytes, with lines side
 * by side in one Blob read together.
 */
import { describe, expect, it, vi } from "vitest";
import { type LineRef, READ_GAP_BYTES, readLines } from "./jobs";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

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
