/**
 * Issue 21, item 2: `verify` and `triage` on worker threads write byte for byte what one thread writes, on
 * stdout and stderr, with the same exit status: every output format, bad lines in the same order, a folder of
 * several rollouts files, a file cut short by damaged gzip data. The inputs span several batches, so answers
 * come back from different workers and are put back in line order.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { GYM_EXAMPLES } from "../lib/folder/test-helpers";
import { CUT_LAST_LINE } from "../lib/jsonl";
import { TRIAGE_RUN_PATH } from "../scripts/gen-triage-run";
import { run as triage, threadWork as triageWork } from "./commands/triage";
import { run as verify, threadWork as verifyWork } from "./commands/verify";
import { sourcesOf } from "./folder";
import { memoryIo, silentIo } from "./io";
import {
  BATCH_BYTES,
  LinePool,
  type LineWork,
  linesOf,
  MAX_THREADS,
  PARALLEL_MIN_BYTES,
  packBatch,
  readThreads,
  type ThreadedCommand,
  threadCount,
  unpackBatch,
  workerBundle,
  workerExecArgv,
  workerScript,
} from "./threads";

const ROOT = join(import.meta.dirname, "..");
const SAMPLE = readFileSync(join(ROOT, "public", "samples", "workplace-harnesses.jsonl"));
const FOLDER = join(GYM_EXAMPLES, "resources_servers", "example_multi_step");

const tmp = mkdtempSync(join(tmpdir(), "threads-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Lines no reader agrees on lightly: every kind of unreadable line, among real rollouts, over several batches. */
function badLinesFile(): Buffer {
  const rollouts = SAMPLE.toString("utf8").trimEnd().split("\n");
  const parts: Buffer[] = [Buffer.from([0xef, 0xbb, 0xbf])];
  let size = 0;
  for (let i = 0; size < 2.5 * BATCH_BYTES; i++) {
    const text = rollouts[i % rollouts.length]!;
    const line =
      i % 7 === 3
        ? "<PLACEHOLDER ROW>"
        : i % 7 === 5
          ? `${text}\r` // CRLF
          : i % 11 === 4
            ? '{"not":"a rollout"}'
            : i % 13 === 6
              ? `${"[".repeat(1_200)}${"]".repeat(1_200)}`
              : text;
    parts.push(Buffer.from(`${line}\n`));
    if (i % 5 === 2) parts.push(Buffer.from("   \t\n\n"));
    if (i % 17 === 8) parts.push(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]));
    size += line.length;
  }
  // The last line has no "\n".
  parts.push(Buffer.from(rollouts[0]!));
  return Buffer.concat(parts);
}

/** The generated triage run, its lines eight times over: several batches, every cause, task_wide included. */
const TRIAGE_RUN = join(tmp, "triage-run.jsonl");
writeFileSync(TRIAGE_RUN, readFileSync(join(ROOT, TRIAGE_RUN_PATH), "utf8").repeat(8));
const BAD = join(tmp, "bad.jsonl");
writeFileSync(BAD, badLinesFile());
/** A run still being written: its last line cut mid-value, no line break after it. */
const LIVE = join(tmp, "live.jsonl");
writeFileSync(LIVE, badLinesFile().subarray(0, -200));
/** Damaged gzip data past the first batches: both paths must give the same lines, then the same error. */
const CUT = join(tmp, "cut.jsonl.gz");
const whole = gzipSync(readFileSync(BAD));
writeFileSync(CUT, whole.subarray(0, Math.floor(whole.length * 0.8)));

type Run = (argv: string[], io: ReturnType<typeof memoryIo>) => Promise<number>;

async function both(command: Run, argv: string[]) {
  const outcome = async (threads: string) => {
    const io = memoryIo();
    const code = await command([...argv, "--threads", threads], io);
    return { code, out: io.out(), err: io.err() };
  };
  return { one: await outcome("1"), three: await outcome("3") };
}

describe("--threads 3 writes what --threads 1 writes", () => {
  it.each([["summary"], ["csv"], ["jsonl"], ["summary", "--view", "contract", "--filter", "text:hermes"]])(
    "triage --format %s on the generated triage run",
    async (format, ...rest) => {
      const { one, three } = await both(triage, [TRIAGE_RUN, "--format", format, ...rest]);
      expect(one.code).toBe(0);
      expect(one.out.length).toBeGreaterThan(0);
      expect(three).toEqual(one);
    },
  );

  it.each(["contract", "legacy"])("verify --policy %s on the generated triage run", async (policy) => {
    const { one, three } = await both(verify, [TRIAGE_RUN, "--policy", policy]);
    expect(one.code).toBe(0);
    expect(three).toEqual(one);
  });

  it.each(["summary", "csv", "jsonl"])(
    "triage --format %s on a file with bad lines: the same rows, the bad lines named in line order",
    async (format) => {
      const { one, three } = await both(triage, [BAD, "--format", format]);
      expect(one.code).toBe(0);
      expect(three).toEqual(one);
      const named = one.err.split("\n").filter((l) => l.includes("(left out)"));
      expect(named.length).toBeGreaterThan(10);
      expect(named.some((l) => /invalid UTF-8/.test(l))).toBe(true);
      expect(named.some((l) => /deeper than|nest/i.test(l))).toBe(true);
      const lines = named.map((l) => Number(/^lines? (\d+)/.exec(l)?.[1]));
      expect(lines).toEqual([...lines].sort((a, b) => a - b));
    },
  );

  it("a last line cut short (a run still writing): said so in both, the same answers", async () => {
    const { one, three } = await both(triage, [LIVE, "--format", "jsonl"]);
    expect(one.code).toBe(0);
    expect(three).toEqual(one);
    const named = one.err.split("\n").filter((l) => l.includes("(left out)"));
    expect(named.filter((l) => l.includes(CUT_LAST_LINE))).toHaveLength(1);
    expect(named.at(-1)).toContain(CUT_LAST_LINE);
  });

  it("verify on a file with bad lines: the same records, the bad lines' errors in place", async () => {
    const { one, three } = await both(verify, [BAD]);
    expect(one.code).toBe(0);
    expect(one.out).toMatch(/"error":"invalid UTF-8/);
    expect(three).toEqual(one);
  });

  it("a folder of rollouts files, task rows and configs (verify and triage)", async () => {
    const verified = await both(verify, [FOLDER]);
    expect(verified.one.code).toBe(0);
    expect(verified.three).toEqual(verified.one);
    const triaged = await both(triage, [FOLDER, "--format", "jsonl"]);
    expect(triaged.three).toEqual(triaged.one);
  });

  it("damaged gzip data: the same lines before the damage, the same error and exit status", async () => {
    const verified = await both(verify, [CUT]);
    expect(verified.one.code).toBe(1);
    expect(verified.one.err).toMatch(/stopped/);
    expect(verified.three).toEqual(verified.one);
    const triaged = await both(triage, [CUT, "--format", "jsonl"]);
    expect(triaged.one.code).toBe(1);
    expect(triaged.three).toEqual(triaged.one);
  });
});

describe("--threads", () => {
  it("takes a whole number from 1 to MAX_THREADS", () => {
    expect(readThreads(undefined)).toEqual({ ok: true, threads: null });
    expect(readThreads("4")).toEqual({ ok: true, threads: 4 });
    for (const bad of ["0", "-1", "1.5", "two", "", String(MAX_THREADS + 1)]) {
      expect(readThreads(bad).ok).toBe(false);
    }
  });

  it("an unusable value is a usage error (exit 2) in both commands", async () => {
    for (const command of [verify, triage]) {
      const io = memoryIo();
      expect(await command([TRIAGE_RUN, "--threads", "0"], io)).toBe(2);
      expect(io.err()).toMatch(/--threads must be a whole number from 1 to/);
    }
  });

  it("by default, one thread below PARALLEL_MIN_BYTES; --threads decides when given", async () => {
    expect(readFileSync(TRIAGE_RUN).length).toBeLessThan(PARALLEL_MIN_BYTES);
    expect(await threadCount(null, [TRIAGE_RUN])).toBe(1);
    expect(await threadCount(3, [TRIAGE_RUN])).toBe(3);
  });
});

/**
 * The workers' code with `prelude` run first in each worker (it has `parentPort`; its message listener runs
 * before the worker's own): a worker that ends, or is slow, where a test wants it.
 */
async function wrapped(prelude: string): Promise<() => Promise<URL>> {
  const bundle = await workerScript();
  const code = `import { parentPort } from "node:worker_threads";\n${prelude}\nawait import(${JSON.stringify(bundle.href)});\n`;
  const url = new URL(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  return async () => url;
}

/** Every answer of `lines`, then how they ended: the error's message, or null. */
async function collect<R>(lines: AsyncIterable<R>): Promise<{ answers: R[]; error: string | null }> {
  const answers: R[] = [];
  try {
    for await (const answer of lines) answers.push(answer);
  } catch (error) {
    return { answers, error: String(error) };
  }
  return { answers, error: null };
}

/**
 * Expects `pool` to answer source `index` of `path` as this thread alone does: the same answers, in line
 * order, and the same error. Returns this thread's answers.
 */
async function expectAnswersOfOneThread(
  path: string,
  index: number,
  work: LineWork<unknown>,
  pool: LinePool<unknown>,
): Promise<{ answers: unknown[]; error: string | null }> {
  const one = await collect(linesOf<unknown>(path, index, work, null));
  expect(await collect(linesOf(path, index, work, pool))).toEqual(one);
  return one;
}

describe("a batch sent to a worker", () => {
  it("keeps each line's place, bytes and flags (too long, no line break)", () => {
    const lines = [
      { line: 1, offset: 0, length: 3, bytes: Buffer.from("{}\r"), oversized: false },
      { line: 3, offset: 5, length: 9_000, bytes: Buffer.from(""), oversized: true },
      { line: 4, offset: 9_006, length: 2, bytes: Buffer.from('{"'), oversized: false, unterminated: true },
    ];
    const { bytes, meta } = packBatch(lines, 5);
    expect(unpackBatch(bytes, meta).map((raw) => ({ ...raw, bytes: Buffer.from(raw.bytes) }))).toEqual(lines);
  });
});

describe("LinePool: this thread and its workers", () => {
  // The commands above may finish a small file in this thread before a worker is ready; here the workers
  // are waited for, so batches go to them (and to this thread when they have their fill).
  it.each<[ThreadedCommand, string, string[]]>([
    ["triage", TRIAGE_RUN, ["--format", "jsonl"]],
    ["triage", BAD, ["--filter", "text:hermes"]],
    ["verify", BAD, []],
    ["verify", CUT, []],
    ["triage", FOLDER, []],
  ])(
    "%s %s %j: the same answers as one thread, in line order, and the same error",
    async (command, path, rest) => {
      const argv = [path, ...rest];
      const work = await (command === "triage" ? triageWork(argv) : verifyWork(argv));
      const sources = await sourcesOf(path, { roles: [] }, silentIo);
      const pool = new LinePool<unknown>(command, argv, 3);
      try {
        await pool.ready();
        for (const [index, source] of sources.entries()) {
          const one = await expectAnswersOfOneThread(source.path, index, work, pool);
          expect(one.answers.length).toBeGreaterThan(0);
        }
        expect(pool.batches.workers).toBeGreaterThan(0);
      } finally {
        await pool.close();
      }
    },
  );

  it("a worker that cannot build its work: this thread reads its lines, one warning says why", async () => {
    const warnings = memoryIo();
    const pool = new LinePool<unknown>("triage", [TRIAGE_RUN, "--format", "nope"], 2, {
      warnings: warnings.stderr,
    });
    try {
      await pool.ready();
      const work = await triageWork([TRIAGE_RUN]);
      await expectAnswersOfOneThread(TRIAGE_RUN, 0, work, pool);
      expect(pool.batches.workers).toBe(0);
      expect(warnings.err()).toBe(
        "warning: triage: a worker thread could not start (triage: the worker thread got unusable arguments)\n",
      );
    } finally {
      await pool.close();
    }
  });

  it("no worker code (esbuild missing): this thread reads every line, one warning says why", async () => {
    // Before, every line after the first batches failed with "the worker threads could not start".
    const warnings = memoryIo();
    const script = () => Promise.reject(new Error("Cannot find package 'esbuild'"));
    const pool = new LinePool<unknown>("verify", [BAD], 3, { warnings: warnings.stderr, script });
    try {
      await pool.ready();
      const work = await verifyWork([BAD]);
      await expectAnswersOfOneThread(BAD, 0, work, pool);
      expect(pool.batches).toEqual({ here: expect.any(Number), workers: 0 });
      expect(warnings.err()).toBe(
        "warning: verify: the worker threads could not start (Cannot find package 'esbuild')\n",
      );
    } finally {
      await pool.close();
    }
  });

  it("workers that end mid-run: their unanswered lines are read on this thread, the answers the same", async () => {
    // Each worker ends as its second batch comes (the first is answered): that batch is this thread's again.
    const warnings = memoryIo();
    const script = await wrapped(
      `let batches = 0; parentPort.on("message", () => { if (++batches === 2) process.exit(7); });`,
    );
    const pool = new LinePool<unknown>("triage", [TRIAGE_RUN], 3, { warnings: warnings.stderr, script });
    try {
      await pool.ready();
      const work = await triageWork([TRIAGE_RUN]);
      const one = await collect(linesOf<unknown>(TRIAGE_RUN, 0, work, null));
      // The first worker gets the first and third batches; the other ends in the second read.
      for (const _ of [1, 2]) expect(await collect(linesOf(TRIAGE_RUN, 0, work, pool))).toEqual(one);
      expect(pool.batches.workers).toBeGreaterThan(0);
      expect(warnings.err()).toBe(
        "warning: triage: a worker thread ended (it exited (7)): its lines are read on this thread\n",
      );
    } finally {
      await pool.close();
    }
  });

  it.each<[ThreadedCommand, string]>([
    ["verify", BAD],
    ["triage", TRIAGE_RUN],
  ])("%s %s, workers slowed on some batches: the answers still in line order", async (command, path) => {
    // A worker blocks on every third batch it is given, so answers come back out of order across the two
    // workers and behind this thread's own batches.
    const script = await wrapped(
      `const cell = new Int32Array(new SharedArrayBuffer(4)); parentPort.on("message", (batch) => { if (batch.seq % 3 === 0) Atomics.wait(cell, 0, 0, 40); });`,
    );
    const pool = new LinePool<unknown>(command, [path], 3, { script });
    try {
      await pool.ready();
      const work = await (command === "triage" ? triageWork([path]) : verifyWork([path]));
      await expectAnswersOfOneThread(path, 0, work, pool);
      expect(pool.batches.workers).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });

  it("a node flag Node refuses in workers (--max-old-space-size) still gives workers and the same answers", async () => {
    // Before, the Worker constructor's throw was an unhandled rejection that ended the process mid-output.
    process.execArgv.push("--max-old-space-size=4096");
    const pool = new LinePool<unknown>("triage", [TRIAGE_RUN], 2);
    try {
      await pool.ready();
      const work = await triageWork([TRIAGE_RUN]);
      await expectAnswersOfOneThread(TRIAGE_RUN, 0, work, pool);
      expect(pool.batches.workers).toBeGreaterThan(0);
    } finally {
      process.execArgv.pop();
      await pool.close();
    }
  });

  it("workers start from a bundle in memory (a data: URL) when it cannot be kept on disk", async () => {
    const url = await workerBundle(null);
    expect(url.protocol).toBe("data:");
    const pool = new LinePool<unknown>("triage", [TRIAGE_RUN], 2, { script: async () => url });
    try {
      await pool.ready();
      const work = await triageWork([TRIAGE_RUN]);
      await expectAnswersOfOneThread(TRIAGE_RUN, 0, work, pool);
      expect(pool.batches.workers).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });

  it("workers get the parent's node flags without tsx's loader (the bundle needs none)", () => {
    expect(
      workerExecArgv([
        "--import",
        "tsx",
        "--cpu-prof",
        "--import=tsx/esm",
        "--require",
        "/p/node_modules/tsx/dist/preflight.cjs",
        "--import",
        "./other.mjs",
        "--max-old-space-size=100",
      ]),
    ).toEqual(["--cpu-prof", "--import", "./other.mjs", "--max-old-space-size=100"]);
  });
});
