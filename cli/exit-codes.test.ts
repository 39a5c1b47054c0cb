/**
 * The README's exit-code table, command by command: 0 done; 2 for an unusable argument, a missing or
 * unreadable FILE/--inputs, or an --out that cannot be written or is an input; 1 when reading stopped part
 * way (damaged gzip, in FILE or in --inputs), after an error that names the file, the byte offset and the
 * member. Each documented failure mode is run against each command that has it; the last block checks
 * the process's own exit status through cli/main.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { run as compare } from "./commands/compare";
import { run as exportCommand } from "./commands/export";
import { run as live } from "./commands/live";
import { run as repair } from "./commands/repair";
import { run as resolve } from "./commands/resolve";
import { run as triage } from "./commands/triage";
import { run as verify } from "./commands/verify";
import { memoryIo } from "./io";

const ROOT = join(import.meta.dirname, "..");
const GOOD = join(ROOT, "public", "samples", "workplace-harnesses.jsonl");
const MISSING = "/no/such/rollouts.jsonl";
const DAMAGED_ERROR =
  /^error: reading \S*damaged\.jsonl\.gz stopped: damaged gzip data at byte \d+ \(member 1\): the file ends in the middle of a member/m;

let dir: string;
let damaged: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "exit-codes-"));
  damaged = join(dir, "damaged.jsonl.gz");
  const gz = gzipSync(await readFile(GOOD));
  await writeFile(damaged, gz.subarray(0, gz.length - 50));
});

type Run = (args: string[], io: ReturnType<typeof memoryIo>) => Promise<number>;

async function exit(command: Run, args: readonly string[]): Promise<{ code: number; err: string }> {
  const io = memoryIo();
  const code = await command([...args], io);
  return { code, err: io.err() };
}

interface Command {
  readonly name: string;
  readonly run: Run;
  /** The command's arguments with `file` as the FILE under test. */
  readonly args: (file: string) => string[];
  readonly inputs: boolean;
  readonly out: boolean;
  readonly policy: boolean;
  /** True when a directory is read as a folder. */
  readonly folder: boolean;
}

const COMMANDS: readonly Command[] = [
  { name: "resolve", run: resolve, args: (f) => [f], inputs: false, out: false, policy: true, folder: true },
  { name: "verify", run: verify, args: (f) => [f], inputs: true, out: false, policy: true, folder: true },
  {
    name: "export --what verify",
    run: exportCommand,
    args: (f) => [f, "--what", "verify"],
    inputs: true,
    out: true,
    policy: true,
    folder: true,
  },
  {
    name: "export --what report",
    run: exportCommand,
    args: (f) => [f, "--what", "report"],
    inputs: true,
    out: true,
    policy: true,
    folder: true,
  },
  {
    name: "repair",
    run: repair,
    args: (f) => [f, "--harness", "hermes-legacy", "--server", "workplace_assistant"],
    inputs: false,
    out: true,
    policy: false,
    folder: false,
  },
  { name: "triage", run: triage, args: (f) => [f], inputs: true, out: true, policy: false, folder: true },
  {
    name: "compare (A)",
    run: compare,
    args: (f) => [f, GOOD],
    inputs: true,
    out: false,
    policy: true,
    folder: false,
  },
  {
    name: "compare (B)",
    run: compare,
    args: (f) => [GOOD, f],
    inputs: false,
    out: false,
    policy: false,
    folder: false,
  },
];

describe.each(COMMANDS)("$name", (command) => {
  it("0 when done, and for --help", async () => {
    const out = command.out ? ["--out", join(dir, `${command.name.replace(/\W+/g, "-")}.out`)] : [];
    expect(await exit(command.run, [...command.args(GOOD), ...out])).toMatchObject({ code: 0 });
    expect(await exit(command.run, [...command.args(GOOD), "--help"])).toEqual({ code: 0, err: "" });
  });

  it("its help sets every option apart from what it says", async () => {
    const io = memoryIo();
    await command.run(["--help"], io);
    // An option's line is the option (and its value's name, or a second spelling), then two spaces or its end.
    const options = io
      .out()
      .split("\n")
      .filter((line) => /^ {2}-/.test(line));
    expect(options.length).toBeGreaterThan(0);
    for (const line of options) expect(line).toMatch(/^ {2}-\S*(?: \S+)?(?: {2,}\S.*)?$/);
  });

  it("2 for an unusable argument: an unknown option, no FILE, a bad --policy", async () => {
    expect(await exit(command.run, [...command.args(GOOD), "--no-such-option"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^error: .*--no-such-option/),
    });
    expect((await exit(command.run, [])).code).toBe(2);
    if (command.policy)
      expect(await exit(command.run, [...command.args(GOOD), "--policy", "lenient"])).toMatchObject({
        code: 2,
        err: expect.stringMatching(/^error: .*--policy/),
      });
  });

  it("2 for a missing or unreadable FILE (a directory where the command takes no folder)", async () => {
    expect(await exit(command.run, command.args(MISSING))).toEqual({
      code: 2,
      err: `error: cannot read ${MISSING}: no such file\n`,
    });
    const empty = await mkdtemp(join(tmpdir(), "exit-codes-empty-"));
    if (command.folder) {
      // resolve, verify, triage and export read a directory as a folder (README "Folders").
      const { code, err } = await exit(command.run, command.args(empty));
      expect(code).toBe(0);
      expect(err).toContain(`${empty}: no file holds rollouts`);
    } else {
      // compare names the folder's rollouts files to choose from; repair cannot read a directory.
      expect(await exit(command.run, command.args(empty))).toEqual({
        code: 2,
        err: command.name.startsWith("compare")
          ? `error: ${empty} is a folder: compare takes two rollouts files, and it holds none\n`
          : `error: cannot read ${empty}: is a directory\n`,
      });
    }
  });

  it("1 when reading FILE stopped part way (damaged gzip), the error naming file, offset and member", async () => {
    expect(await exit(command.run, command.args(damaged))).toMatchObject({
      code: 1,
      err: expect.stringMatching(DAMAGED_ERROR),
    });
  });
});

describe.each(COMMANDS.filter((c) => c.inputs))("$name", (command) => {
  it("--inputs: 2 when missing, 1 when damaged part way", async () => {
    expect(await exit(command.run, [...command.args(GOOD), "--inputs", MISSING])).toMatchObject({
      code: 2,
      err: expect.stringContaining(`error: cannot read ${MISSING}: no such file`),
    });
    expect(await exit(command.run, [...command.args(GOOD), "--inputs", damaged])).toMatchObject({
      code: 1,
      err: expect.stringMatching(DAMAGED_ERROR),
    });
  });
});

describe.each(COMMANDS.filter((c) => c.out))("$name", (command) => {
  it("--out: 2 when it cannot be written or is the input", async () => {
    const missingDir = join(dir, "no", "such", "out.jsonl");
    expect(await exit(command.run, [...command.args(GOOD), "--out", missingDir])).toEqual({
      code: 2,
      err: `error: cannot write ${missingDir}: no such file\n`,
    });
    expect(await exit(command.run, [...command.args(GOOD), "--out", dir])).toEqual({
      code: 2,
      err: `error: cannot write ${dir}: is a directory\n`,
    });
    // A copy of the sample, so a broken guard could not damage the committed file.
    const input = join(dir, "input.jsonl");
    await writeFile(input, await readFile(GOOD));
    expect(await exit(command.run, [...command.args(input), "--out", input])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^error: --out .* is the input file/),
    });
    expect((await readFile(input)).equals(await readFile(GOOD))).toBe(true);
  });
});

describe.each(COMMANDS.filter((c) => ["resolve", "verify", "triage"].includes(c.name)))(
  "$name",
  (command) => {
    it("an empty FILE (or only blank lines) is 0 with one line saying the file is empty", async () => {
      const files: [string, string][] = [
        ["empty.jsonl", ""],
        ["blank.jsonl", "\n  \r\n\n"],
      ];
      for (const [name, text] of files) {
        const file = join(dir, name);
        await writeFile(file, text);
        const { code, err } = await exit(command.run, command.args(file));
        expect(code).toBe(0);
        expect(err.match(/This file is empty/g)).toEqual(["This file is empty"]);
        expect(err).toContain(`${file}: This file is empty`);
      }
    });
  },
);

describe("live: its unusable arguments are exit 2 too (no server needed)", () => {
  it.each([
    ["no URL", []],
    ["an unknown option", ["http://127.0.0.1:9", "--no-such-option"]],
    ["a missing --rollouts file", ["http://127.0.0.1:9", "--rollouts", MISSING]],
  ])("%s", async (_case, args) => {
    expect((await exit(live, args)).code).toBe(2);
  });

  it("--help is 0", async () => {
    expect(await exit(live, ["--help"])).toEqual({ code: 0, err: "" });
  });
});

describe("the process's exit status (cli/main.ts)", () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "cli", "main.ts"), ...args], {
      cwd: ROOT,
      encoding: "utf8",
    });

  it("no command or an unknown one is 2; --help is 0", () => {
    expect(cli().status).toBe(2);
    expect(cli("no-such-command")).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/unknown command/),
    });
    expect(cli("--help").status).toBe(0);
  });

  it("a name Object.prototype carries is an unknown command too, exit 2", () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"])
      expect(cli(name)).toMatchObject({
        status: 2,
        stderr: `error: unknown command '${name}' (try --help)\n`,
      });
  });

  it("a command's code becomes the process's: 0 done, 2 missing FILE, 1 damaged gzip", () => {
    expect(cli("resolve", GOOD).status).toBe(0);
    expect(cli("resolve", MISSING).status).toBe(2);
    expect(cli("resolve", damaged)).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(DAMAGED_ERROR),
    });
  });
});
