/**
 * Regression tests for the data-loss bug (issue 10): `export`/`repair --out` onto the input through a
 * symlink or a hard link, or with the input given through a symlink, emptied the input and exited 0.
 */

import { chmod, link, mkdtemp, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeEach, describe, expect, it } from "vitest";
import { GOLDEN_DIR } from "../lib/compare/test-helpers";
import { run as runExport } from "./commands/export";
import { run as runRepair } from "./commands/repair";
import { run as runTriage } from "./commands/triage";
import { memoryIo } from "./io";
import { openOutput, writeOutput } from "./output";

let dir: string;
let input: string;
let original: Buffer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "out-"));
  input = join(dir, "rollouts.jsonl");
  original = await readFile(join(GOLDEN_DIR, "wa_rollouts.jsonl"));
  await writeFile(input, original);
});

async function exportTo(file: string, out: string, extra: string[] = []) {
  const io = memoryIo();
  const code = await runExport([file, "--what", "verify", ...extra, "--out", out], io);
  return { code, err: io.err() };
}

/** Byte equality through Buffer.equals: a deep toEqual over 2 MB takes seconds. */
async function expectUnchanged(path: string): Promise<void> {
  const now = await readFile(path);
  expect(now.length).toBe(original.length);
  expect(now.equals(original)).toBe(true);
}

/** Files in `dir` other than the ones the test made: a leftover temporary file would show here. */
async function entries(): Promise<string[]> {
  return (await readdir(dir)).sort();
}

describe("--out is never the input (by file identity)", () => {
  it("refuses the input's own path, also spelled differently", async () => {
    for (const out of [input, join(dir, ".", "rollouts.jsonl"), `${dir}//rollouts.jsonl`]) {
      const { code, err } = await exportTo(input, out);
      expect(code).toBe(2);
      expect(err).toMatch(/^error: --out .* is the input file/);
    }
    await expectUnchanged(input);
  });

  it("refuses an output that is a symlink to the input", async () => {
    const out = join(dir, "link.jsonl");
    await symlink(input, out);
    const { code, err } = await exportTo(input, out);
    expect([code, err]).toEqual([
      2,
      `error: --out ${out} is the input file ${input}; write to another path\n`,
    ]);
    await expectUnchanged(input);
  });

  it("refuses an output that is a hard link to the input", async () => {
    const out = join(dir, "hard.jsonl");
    await link(input, out);
    expect((await exportTo(input, out)).code).toBe(2);
    await expectUnchanged(input);
  });

  it("refuses the input's real path when the input is given through a symlink", async () => {
    const via = join(dir, "via.jsonl");
    await symlink(input, via);
    expect((await exportTo(via, input)).code).toBe(2);
    await expectUnchanged(input);
  });

  it("refuses the --inputs file as output", async () => {
    const inputs = join(dir, "inputs.jsonl");
    await writeFile(inputs, await readFile(join(GOLDEN_DIR, "wa_inputs.jsonl")));
    const before = await readFile(inputs);
    expect((await exportTo(input, inputs, ["--inputs", inputs])).code).toBe(2);
    expect((await readFile(inputs)).equals(before)).toBe(true);
  });

  it("repair refuses the same cases", async () => {
    const out = join(dir, "link.jsonl");
    await symlink(input, out);
    for (const target of [input, out]) {
      const io = memoryIo();
      const code = await runRepair(
        [input, "--harness", "hermes-legacy", "--server", "workplace_assistant", "--out", target],
        io,
      );
      expect(code).toBe(2);
      expect(io.err()).toMatch(/is the input file/);
    }
    await expectUnchanged(input);
  });

  it("triage refuses the same cases", async () => {
    const out = join(dir, "hard.jsonl");
    await link(input, out);
    for (const target of [input, out]) {
      const io = memoryIo();
      expect(await runTriage([input, "--out", target], io)).toBe(2);
      expect(io.err()).toMatch(/is the input file/);
    }
    await expectUnchanged(input);
  });
});

describe("--out is written to a temporary file and renamed on success", () => {
  it("a failed export (damaged gzip) leaves no output and no temporary file", async () => {
    const gz = gzipSync(original);
    const damaged = join(dir, "damaged.jsonl.gz");
    await writeFile(damaged, gz.subarray(0, gz.length - 100));
    const out = join(dir, "new.jsonl");
    const { code, err } = await exportTo(damaged, out);
    expect(code).toBe(1);
    expect(err).toMatch(/^error: /);
    expect(await entries()).toEqual(["damaged.jsonl.gz", "rollouts.jsonl"]);
  });

  it("a failed export leaves an existing target untouched", async () => {
    const damaged = join(dir, "damaged.jsonl.gz");
    const gz = gzipSync(original);
    await writeFile(damaged, gz.subarray(0, gz.length - 100));
    const out = join(dir, "old.jsonl");
    await writeFile(out, "precious\n");
    expect((await exportTo(damaged, out)).code).toBe(1);
    expect(await readFile(out, "utf8")).toBe("precious\n");
    expect(await entries()).toEqual(["damaged.jsonl.gz", "old.jsonl", "rollouts.jsonl"]);
  });

  it("replaces an existing target, keeping its permission bits, and leaves nothing else", async () => {
    const out = join(dir, "old.jsonl");
    await writeFile(out, "old\n");
    await chmod(out, 0o640);
    expect((await exportTo(input, out)).code).toBe(0);
    const text = await readFile(out, "utf8");
    expect(text.split("\n").filter((l) => l !== "")).toHaveLength(
      original.toString().trim().split("\n").length,
    );
    expect((await stat(out)).mode & 0o777).toBe(0o640);
    expect(await entries()).toEqual(["old.jsonl", "rollouts.jsonl"]);
  });

  it("an --out symlink to another file updates that file and keeps the link", async () => {
    const target = join(dir, "target.jsonl");
    await writeFile(target, "old\n");
    const out = join(dir, "link.jsonl");
    await symlink(target, out);
    expect((await exportTo(input, out)).code).toBe(0);
    expect(await readFile(target, "utf8")).toContain("rollout_inspector_verify");
    expect((await readdir(dir)).sort()).toEqual(["link.jsonl", "rollouts.jsonl", "target.jsonl"]);
    expect(await readFile(out, "utf8")).toBe(await readFile(target, "utf8"));
  });

  it("an --out in a missing directory or on a directory is a usage error (exit 2)", async () => {
    const missing = await exportTo(input, join(dir, "no", "such", "out.jsonl"));
    expect(missing).toEqual({
      code: 2,
      err: `error: cannot write ${join(dir, "no", "such", "out.jsonl")}: no such file\n`,
    });
    expect((await exportTo(input, dir)).code).toBe(2);
    expect(await entries()).toEqual(["rollouts.jsonl"]);
  });

  it("writes a device such as /dev/null in place", async () => {
    expect((await exportTo(input, "/dev/null")).code).toBe(0);
    expect((await stat("/dev/null")).isCharacterDevice()).toBe(true);
  });

  it("an aborted output removes its temporary file", async () => {
    const out = join(dir, "aborted.jsonl");
    const output = await openOutput(out, [input], memoryIo());
    await output.write(new TextEncoder().encode("partial"));
    expect((await entries()).some((e) => e.endsWith(".tmp"))).toBe(true);
    await output.abort();
    expect(await entries()).toEqual(["rollouts.jsonl"]);
  });

  it("the commands that rewrite the file (export both kinds, repair) leave a target untouched on damage; triage writes what it read", async () => {
    const damaged = join(dir, "damaged.jsonl.gz");
    const gz = gzipSync(original);
    await writeFile(damaged, gz.subarray(0, gz.length - 100));
    const out = join(dir, "old.jsonl");
    await writeFile(out, "precious\n");
    const runs: Array<
      [string, (argv: string[], io: ReturnType<typeof memoryIo>) => Promise<number>, string[]]
    > = [
      ["export verify", runExport, ["--what", "verify"]],
      ["export report", runExport, ["--what", "report"]],
      ["repair", runRepair, ["--harness", "hermes-legacy", "--server", "workplace_assistant"]],
    ];
    for (const [name, run, extra] of runs) {
      const io = memoryIo();
      const code = await run([damaged, ...extra, "--out", out], io);
      expect({ name, code, err: io.err() }).toEqual({
        name,
        code: 1,
        err: expect.stringMatching(/reading .*damaged\.jsonl\.gz stopped: damaged gzip data at byte \d+/),
      });
      expect(await readFile(out, "utf8")).toBe("precious\n");
      expect(await entries()).toEqual(["damaged.jsonl.gz", "old.jsonl", "rollouts.jsonl"]);
    }
    // A report, not a rewritten file: the rows before the damage are written (every format), the error says
    // where reading stopped, and the exit code is 1.
    const lines = original.toString("utf8").trim().split("\n").length;
    for (const format of ["summary", "csv", "jsonl"]) {
      await writeFile(out, "precious\n");
      const io = memoryIo();
      expect(await runTriage([damaged, "--format", format, "--out", out], io)).toBe(1);
      expect(io.err()).toMatch(/reading .*damaged\.jsonl\.gz stopped: damaged gzip data at byte \d+/);
      const written = await readFile(out, "utf8");
      if (format === "summary") expect(written).toMatch(/ rollouts recorded 0 .*· 1 unreadable line/);
      else {
        const rows = written.trim().split("\n").length - (format === "csv" ? 1 : 0);
        expect(rows).toBeGreaterThan(0);
        expect(rows).toBeLessThan(lines);
      }
      expect(await entries()).toEqual(["damaged.jsonl.gz", "old.jsonl", "rollouts.jsonl"]);
    }
  });
});

describe("writeOutput: the one write loop of the commands with --out", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const source = () => {
    const state = { cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      cancel() {
        state.cancelled = true;
      },
    });
    return { stream, state };
  };

  it("commits what was written and returns the loop's result", async () => {
    const out = join(dir, "new.jsonl");
    const { stream, state } = source();
    const result = await writeOutput(out, [input], memoryIo(), stream, async (output) => {
      await output.write(bytes("a\n"));
      return 7;
    });
    expect(result).toBe(7);
    expect(await readFile(out, "utf8")).toBe("a\n");
    expect(state.cancelled).toBe(false);
    expect(await entries()).toEqual(["new.jsonl", "rollouts.jsonl"]);
  });

  it("aborts on a failing loop: the error goes on, nothing is written, no temporary file is left", async () => {
    const out = join(dir, "new.jsonl");
    const failure = new Error("boom");
    const { stream } = source();
    await expect(
      writeOutput(out, [input], memoryIo(), stream, async (output) => {
        await output.write(bytes("partial"));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await entries()).toEqual(["rollouts.jsonl"]);
  });

  it("cancels the source when the output cannot be opened (exit 2), before the loop runs", async () => {
    const { stream, state } = source();
    let ran = false;
    await expect(
      writeOutput(input, [input], memoryIo(), stream, async () => {
        ran = true;
      }),
    ).rejects.toMatchObject({ kind: "usage" });
    expect(state.cancelled).toBe(true);
    expect(ran).toBe(false);
    await expectUnchanged(input);
  });
});
