/**
 * Interrupting a command with --out (issue 23, item 4): however the CLI is started (`npm run cli`, the
 * tsx launcher, node itself) and whoever gets the signal (the whole process group, as Ctrl-C in a
 * terminal does, or the launching parent alone, as `kill PID` does), the command removes its temporary
 * file, leaves the existing output as it was and exits 128 + the signal (130 for SIGINT).
 *
 * The input is a FIFO: the test writes a megabyte and a half of rollouts into it and keeps it open, so the
 * command is held in the middle of its export, its temporary file already holding part of the output,
 * when the signal arrives.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { interruptExitCode } from "./interrupt";

const ROOT = join(import.meta.dirname, "..");
const SAMPLE = readFileSync(join(ROOT, "public", "samples", "workplace-harnesses.jsonl"));
/** More than the output's 1 MiB write batch, so the temporary file holds part of the export. */
const INPUT_BYTES = 1.5 * 1024 * 1024;
/** How long to wait for the command to reach its mid-export state, or to exit: generous for a loaded machine. */
const WAIT_MS = 60_000;

const LAUNCHERS = {
  "npm run cli": ["npm", "run", "--silent", "cli", "--"],
  "node --import tsx": [process.execPath, "--import", "tsx", join(ROOT, "cli", "main.ts")],
  "tsx launcher": [join(ROOT, "node_modules", ".bin", "tsx"), join(ROOT, "cli", "main.ts")],
} as const;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

function tempFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith(".out.jsonl.") && name.endsWith(".tmp"));
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null)
      done({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => done({ code, signal }));
  });
}

interface Interrupted {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly leftover: string[];
  readonly out: string;
  readonly stderr: string;
}

/** The command interrupted: an export, whose temporary file holds part of its output by then. */
const EXPORT = (fifo: string, out: string) => ["export", fifo, "--what", "verify", "--out", out];

/**
 * Starts `command` held mid-read on a FIFO, sends `signal` to the group or the parent once `started` holds
 * for the temporary files, and reports.
 */
async function interrupt(
  launcher: readonly string[],
  to: "group" | "parent",
  signal: "SIGINT" | "SIGTERM",
  command: (fifo: string, out: string) => string[] = EXPORT,
  started: (temps: readonly number[]) => boolean = (sizes) => sizes.some((size) => size > 0),
): Promise<Interrupted> {
  const dir = mkdtempSync(join(tmpdir(), "interrupt-"));
  dirs.push(dir);
  const fifo = join(dir, "in.jsonl");
  const out = join(dir, "out.jsonl");
  execFileSync("mkfifo", [fifo]);
  writeFileSync(out, "OLD OUTPUT\n");
  const [program, ...args] = launcher;
  // Its own process group, as a terminal gives a foreground job.
  const child = spawn(program!, [...args, ...command(fifo, out)], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const end = exited(child);
  let writer: FileHandle | undefined;
  try {
    // Opening a FIFO for writing waits for the command to open it for reading.
    writer = await open(fifo, "w");
    for (let written = 0; written < INPUT_BYTES; written += SAMPLE.length) await writer.write(SAMPLE);
    await until("the command to reach its temporary file", () =>
      started(tempFiles(dir).map((name) => statSync(join(dir, name)).size)),
    );
    process.kill(to === "group" ? -child.pid! : child.pid!, signal);
    // The command's cleanup has run once its temporary file is gone. It then exits, but Node's exit waits
    // for its blocked read of the FIFO to return: closing the writer (end of input) lets it return. The
    // command never gets to use that end of input, since its handler exited before any other code ran
    // (a command that went on to commit would replace the output, which the caller checks).
    await until("the temporary file removed", () => tempFiles(dir).length === 0);
    await writer.close();
    writer = undefined;
    const { code, signal: bySignal } = await Promise.race([
      end,
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error("no exit")), WAIT_MS)),
    ]);
    return { code, signal: bySignal, leftover: tempFiles(dir), out: readFileSync(out, "utf8"), stderr };
  } finally {
    await writer?.close().catch(() => {});
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  }
}

describe.each(Object.entries(LAUNCHERS))("interrupted export --out, started by %s", (_name, launcher) => {
  it.each(["group", "parent"] as const)(
    "SIGINT to the %s: temporary file removed, output untouched, exit 130",
    async (to) => {
      const result = await interrupt(launcher, to, "SIGINT");
      expect(result).toMatchObject({ code: 130, signal: null, leftover: [], out: "OLD OUTPUT\n" });
    },
    2 * WAIT_MS,
  );
});

it(
  "SIGTERM to the group through npm run: the same, exit 143",
  async () => {
    const result = await interrupt(LAUNCHERS["npm run cli"], "group", "SIGTERM");
    expect(interruptExitCode("SIGTERM")).toBe(143);
    expect(result).toMatchObject({ code: 143, signal: null, leftover: [], out: "OLD OUTPUT\n" });
  },
  2 * WAIT_MS,
);

it(
  "triage --threads 2 --out, SIGINT to the group: the worker threads end with it, no temporary file, exit 130",
  async () => {
    // triage writes once every row is in, so its temporary file is empty while the input is held open; by
    // then the FIFO's megabyte and a half has been read and handed to the workers in batches.
    const triage = (fifo: string, out: string) => [
      "triage",
      fifo,
      "--format",
      "csv",
      "--threads",
      "2",
      "--out",
      out,
    ];
    const result = await interrupt(
      LAUNCHERS["node --import tsx"],
      "group",
      "SIGINT",
      triage,
      (t) => t.length > 0,
    );
    expect(result).toMatchObject({ code: 130, signal: null, leftover: [], out: "OLD OUTPUT\n" });
  },
  2 * WAIT_MS,
);
