/**
 * Issue 10's hostile corpus (scripts/gen-hostile.ts) through every command: what each prints, what it
 * exits with, and that no file-controlled control sequence reaches the output.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hostileCorpus, line, rollout, SPOOFED_SERVERS } from "../scripts/gen-hostile";
import { run as compare } from "./commands/compare";
import { run as exportCommand } from "./commands/export";
import { run as repair } from "./commands/repair";
import { run as resolve } from "./commands/resolve";
import { run as triage } from "./commands/triage";
import { run as verify } from "./commands/verify";
import { memoryIo } from "./io";

let dir: string;
const path = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hostile-"));
  for (const [name, bytes] of Object.entries(hostileCorpus())) await writeFile(path(name), bytes);
});

type Run = (args: string[], io: ReturnType<typeof memoryIo>) => Promise<number>;

async function cli(command: Run, ...args: string[]) {
  const io = memoryIo();
  const code = await command(args, io);
  return { code, out: io.out(), err: io.err() };
}

const records = (out: string) =>
  out
    .split("\n")
    .filter((l) => l !== "")
    .map((l): unknown => JSON.parse(l));

/** No ESC, BEL, CR or bidi override from the file anywhere in what a command printed. */
function expectInert(text: string): void {
  for (const ch of ["\u001b", "\u0007", "\r", "\u202e", "\u200b"]) expect(text.includes(ch)).toBe(false);
}

describe("damaged and multi-member gzip", () => {
  it("a multi-member file is read whole", async () => {
    const { code, out } = await cli(resolve, path("multi-member.jsonl.gz"));
    expect(code).toBe(0);
    expect(records(out).map((r) => (r as { line: number }).line)).toEqual([1, 2]);
  });

  it.each([
    ["truncated.jsonl.gz", 0, /the file ends in the middle of a member \(truncated\)/],
    ["bad-crc.jsonl.gz", 3, /the member's CRC-32 check failed/],
    ["bad-crc-no-final-newline.jsonl.gz", 3, /the member's CRC-32 check failed/],
  ])(
    "%s: every line before the damage, then an error naming the file, the byte and the reason (exit 1)",
    async (name, lines, reason) => {
      for (const command of [resolve, verify]) {
        const { code, out, err } = await cli(command, path(name));
        expect(code).toBe(1);
        expect(records(out)).toHaveLength(lines);
        expect(err).toMatch(
          new RegExp(
            `^error: reading ${path(name)} stopped: damaged gzip data at byte \\d+ \\(member 1\\): `,
            "m",
          ),
        );
        expect(err).toMatch(reason);
      }
    },
  );

  it("export of a damaged file fails (exit 1) with the file named, and leaves no output", async () => {
    const { code, err } = await cli(exportCommand, path("truncated.jsonl.gz"), "--what", "report");
    expect(code).toBe(1);
    expect(err).toMatch(`error: reading ${path("truncated.jsonl.gz")} stopped: damaged gzip data at byte`);
  });
});

describe("lines that are not rollouts", () => {
  it("300k-deep nesting in an unrelated field is one per-line error, no stack overflow", async () => {
    for (const command of [resolve, verify]) {
      const { code, out, err } = await cli(command, path("deep-nesting.jsonl"));
      expect(code).toBe(0);
      expect(records(out).at(-1)).toEqual({
        line: 2,
        kind: "not_json",
        error: expect.stringMatching(/^invalid JSON: nesting deeper than 1000 levels/),
      });
      expect(out + err).not.toMatch(/call stack/);
    }
  });

  it("42, [], null and a string are unreadable lines with one wording, in resolve and verify alike", async () => {
    const wording = { kind: "not_a_rollout", error: "not a rollout: the line is not a JSON object" };
    const resolved = records((await cli(resolve, path("non-rollout-lines.jsonl"))).out).slice(0, 4);
    const verified = await cli(verify, path("non-rollout-lines.jsonl"));
    expect(resolved).toEqual([1, 2, 3, 4].map((line) => ({ line, ...wording })));
    expect(records(verified.out).slice(0, 4)).toEqual([1, 2, 3, 4].map((line) => ({ line, ...wording })));
    expect(verified.err).toMatch(/^verify \(contract\): 1 rollouts, 4 unreadable lines;/m);
  });

  it("an output item without type is a readable error, not an internal one", async () => {
    for (const command of [resolve, verify]) {
      const { out } = await cli(command, path("output-item-without-type.jsonl"));
      expect(out).toMatch(/type/);
      expect(out).not.toMatch(/resolution has/);
    }
  });

  it("junk lines are unreadable lines, each named", async () => {
    const { code, out, err } = await cli(verify, path("junk-lines.jsonl"));
    expect(code).toBe(0);
    const rows = records(out);
    expect(rows.every((r) => /^invalid JSON: /.test((r as { error: string }).error))).toBe(true);
    expect(err).toMatch(`0 rollouts, ${rows.length} unreadable lines`);
  });

  it("prototype keys stay ordinary keys", async () => {
    await cli(verify, path("prototype-keys.jsonl"));
    await cli(exportCommand, path("prototype-keys.jsonl"), "--what", "report");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("file-controlled text on the terminal", () => {
  it("terminal escapes in names and environment_name are escaped in every command's output", async () => {
    const file = path("terminal-escapes.jsonl");
    const outputs = [
      await cli(resolve, file),
      await cli(verify, file),
      await cli(exportCommand, file, "--what", "report"),
      await cli(exportCommand, file, "--what", "verify", "--out", path("escapes-out.jsonl")),
      await cli(compare, file, path("spoofed-names.jsonl")),
      await cli(compare, file, file, "--json"),
      await cli(triage, file),
    ];
    for (const { out, err } of outputs) {
      expectInert(out);
      expectInert(err);
    }
    expect(outputs[3]?.err).toContain("workplace_assistant⟨U+001B⟩[2J");
  });

  it("spoofed names are escaped in JSON output and flagged", async () => {
    const { out } = await cli(resolve, path("spoofed-names.jsonl"));
    expectInert(out);
    const rows = records(out) as { name_flags?: string[]; emitted: string }[];
    expect(rows.map((r) => r.name_flags)).toEqual([
      ["invisible_characters"],
      ["bidi_controls", "invisible_characters"],
      // The Cyrillic о also makes it look like the real server (one UTS #39 skeleton).
      ["mixed_scripts", "invisible_characters", "confusable"],
    ]);
    // Escaped on the terminal, the same string for a JSON parser.
    expect(rows[0]?.emitted).toBe(`mcp__${SPOOFED_SERVERS.zeroWidth}__email_reply_email`);
  });

  it("look-alike tool names (issue 23) get name_flags confusable; spaces get whitespace; plain names none", async () => {
    const names = [
      "calendar_\u0261et_event_information_by_id",
      "em\u0251il_send_email",
      "ema\u0131\u0307l_send_email",
      "company_directory_find_emai\u01c0_address",
      "email_send_email",
      " email_send_email",
    ];
    const file = path("lookalike-tools.jsonl");
    await writeFile(file, line(rollout(names.map((name) => ({ name })))));
    const { out } = await cli(resolve, file);
    const rows = records(out) as { name_flags?: string[] }[];
    expect(rows.map((r) => r.name_flags ?? [])).toEqual([
      ["confusable"],
      ["confusable"],
      ["confusable"],
      ["confusable"],
      [],
      ["whitespace"],
    ]);
  });

  it("compare's table tells the spoofed server from the real one", async () => {
    const { out } = await cli(compare, path("spoofed-names.jsonl"), path("multi-member.jsonl.gz"));
    expect(out).toContain("workplace⟨U+200B⟩_assistant/email_reply_email");
  });
});

describe("exit codes match the README: 2 for a missing file, in every command", () => {
  const missing = "/no/such/file.jsonl";
  it.each([
    ["resolve", resolve, [missing]],
    ["verify", verify, [missing]],
    ["export", exportCommand, [missing, "--what", "report"]],
    ["repair", repair, [missing, "--harness", "hermes-legacy", "--server", "workplace_assistant"]],
    ["compare (a)", compare, [missing, "/dev/null"]],
    ["triage", triage, [missing]],
  ] as const)("%s", async (_name, command, args) => {
    const { code, err } = await cli(command, ...args);
    expect(code).toBe(2);
    expect(err).toMatch(`cannot read ${missing}: no such file`);
  });

  it("compare (b) and --inputs too", async () => {
    expect((await cli(compare, path("multi-member.jsonl.gz"), missing)).code).toBe(2);
    expect((await cli(verify, path("multi-member.jsonl.gz"), "--inputs", missing)).code).toBe(2);
    expect(
      (await cli(exportCommand, path("multi-member.jsonl.gz"), "--what", "verify", "--inputs", missing)).code,
    ).toBe(2);
  });
});
