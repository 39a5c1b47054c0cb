/**
 * An install without development dependencies has no esbuild, so no bundle for the worker threads: a run
 * on several threads then reads every line on this one, with one warning, and writes what one thread writes.
 * Before, it stopped with "the worker threads could not start".
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { TRIAGE_RUN_PATH } from "../scripts/gen-triage-run";
import { run as triage } from "./commands/triage";
import { run as verify } from "./commands/verify";
import { memoryIo } from "./io";

// What `import("esbuild")` gives when the package is not installed (a mock's factory cannot throw it): the
// build fails. Its own version, so no bundle kept by a real esbuild (cli/worker-bundle.ts) is taken instead.
vi.mock("esbuild", () => ({
  version: "not-installed",
  build: () => Promise.reject(new Error("Cannot find package 'esbuild' imported from cli/threads.ts")),
}));

const TRIAGE_RUN = join(import.meta.dirname, "..", TRIAGE_RUN_PATH);

describe("--threads 2 without esbuild", () => {
  it.each([
    ["triage", triage],
    ["verify", verify],
  ] as const)("%s: the output of one thread, and one warning", async (name, command) => {
    expect(readFileSync(TRIAGE_RUN).length).toBeGreaterThan(0);
    const outcome = async (threads: string) => {
      const io = memoryIo();
      const code = await command([TRIAGE_RUN, "--threads", threads], io);
      return { code, out: io.out(), err: io.err() };
    };
    const one = await outcome("1");
    const two = await outcome("2");
    expect(one.code).toBe(0);
    const warnings = two.err.split("\n").filter((line) => line.startsWith("warning: "));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^warning: ${name}: the worker threads could not start \\(.*esbuild`),
    );
    expect({ ...two, err: two.err.replace(`${warnings[0]}\n`, "") }).toEqual(one);
  });
});
