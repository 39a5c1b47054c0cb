import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readJsonl } from "../lib/jsonl";
import { openFileStream } from "./open";

const dir = mkdtempSync(join(tmpdir(), "open-test-"));

describe("openFileStream", () => {
  it("streams a file's bytes into readJsonl", async () => {
    const path = join(dir, "a.jsonl");
    writeFileSync(path, '{"a":1}\n{"b":NaN}\n');
    const lines: number[] = [];
    for await (const item of readJsonl(await openFileStream(path))) if (item.ok) lines.push(item.line);
    expect(lines).toEqual([1, 2]);
  });

  it("streams a gzip file, detected by readJsonl", async () => {
    const path = join(dir, "a.jsonl.gz");
    writeFileSync(path, gzipSync('{"a":1}\n{"b":2}'));
    const values: unknown[] = [];
    for await (const item of readJsonl(await openFileStream(path))) if (item.ok) values.push(item.value);
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("throws a one-line error for a missing file", async () => {
    const path = join(dir, "missing.jsonl");
    await expect(openFileStream(path)).rejects.toMatchObject({
      kind: "usage",
      message: `cannot read ${path}: no such file`,
    });
  });

  it("throws a one-line error for a directory", async () => {
    await expect(openFileStream(dir)).rejects.toMatchObject({
      kind: "usage",
      message: `cannot read ${dir}: is a directory`,
    });
  });
});
