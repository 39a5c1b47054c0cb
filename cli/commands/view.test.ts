import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryIo } from "../io";
import { run } from "./view";

describe("view", () => {
  it("names the folder to serve when given a file (exit 2, nothing started)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "view-file-"));
    const file = join(dir, "rollouts.jsonl");
    await writeFile(file, "{}\n");
    const io = memoryIo();
    expect(await run([file], io)).toBe(2);
    expect(io.err()).toContain(
      `${file} is a file, not a directory: serve the folder that holds it (view ${dir})`,
    );
    expect(io.out()).toBe("");
  });
});
