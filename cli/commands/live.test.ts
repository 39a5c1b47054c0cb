import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type FakeGym, startFakeGym } from "../../lib/live/test-helpers";
import { line, rollout, TERMINAL_ESCAPE } from "../../scripts/gen-hostile";
import { memoryIo } from "../io";
import { parseArgs, run } from "./live";

const ROLLOUTS = fileURLToPath(
  new URL("../../fixtures/golden/workplace-rollouts/wa_rollouts.jsonl", import.meta.url),
);
const tmp = mkdtempSync(join(tmpdir(), "live-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let gym: FakeGym | null = null;
afterEach(async () => {
  await gym?.close();
  gym = null;
});

async function live(...args: string[]) {
  const io = memoryIo();
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe("cli live", () => {
  it("rejects unusable arguments with exit 2 and one line", async () => {
    for (const args of [
      [],
      ["ftp://x"],
      ["http://127.0.0.1:1", "--policy", "x"],
      ["http://127.0.0.1:1", "--timeout-ms", "0"],
    ]) {
      const result = await live(...args);
      expect(result.code).toBe(2);
      expect(result.err.trim().split("\n")).toHaveLength(1);
    }
    expect((await live("http://127.0.0.1:1", "--rollouts", join(tmp, "missing.jsonl"))).err).toContain(
      "no such file",
    );
    expect(parseArgs(["http://127.0.0.1:1/", "--json"])).toMatchObject({
      ok: true,
      args: { url: "http://127.0.0.1:1", json: true },
    });
  });

  it("connects, checks parity and replays + verifies a rollouts file: text report, exit 0 when nothing differs", async () => {
    gym = await startFakeGym({ mode: "json" });
    const file = join(tmp, "few.jsonl");
    writeFileSync(file, `${readFileSync(ROLLOUTS, "utf8").split("\n").slice(0, 6).join("\n")}\n`);
    const result = await live(gym.url, "--rollouts", file, "--policy", "legacy");
    expect(result.out).toContain("token claims: sid=");
    expect(result.out).toContain("(signature not checked)");
    expect(result.out).toContain("MCP session: protocol 2025-11-25, session id ");
    expect(result.out).toContain("DELETE on close: HTTP 200");
    expect(result.out).toContain(
      "parity: 27 MCP tools (1 page) vs 0 HTTP tool routes + catch-all POST /{path}: 0 differences",
    );
    expect(result.out).toMatch(
      /summary \[legacy\]: 6 rollouts; calls: same \d+, differs 0, error by transport 0, failed 0/,
    );
    expect(result.code).toBe(0);
    expect(result.err).toContain("nothing differs");
  });

  it("exits 1 and names the difference, the disagreement and the unreachable server", async () => {
    gym = await startFakeGym({
      mode: "sse",
      verifyReward: 0.25,
      httpOnlyRoutes: { email_archive_email: { type: "object" } },
    });
    const file = join(tmp, "one.jsonl");
    writeFileSync(file, `${readFileSync(ROLLOUTS, "utf8").split("\n")[2]}\n`);
    const result = await live(gym.url, "--rollouts", file, "--json");
    expect(result.code).toBe(1);
    const records = result.out
      .trim()
      .split("\n")
      .map((l) => z.looseObject({ section: z.string() }).parse(JSON.parse(l)));
    expect(records.map((r) => r.section)).toEqual(["connect", "rollout", "rollout", "summary", "summary"]);
    expect(result.out).toContain('"kind":"missing_from_mcp"');
    expect(result.out).toContain('"verdict":"disagree"');
    await gym.close();
    const down = await live(gym.url);
    gym = null;
    expect(down.code).toBe(1);
    expect(down.out).toContain("seed_session: FAILED (transport error)");
    // Nothing answers: how to start a Gym server, as /live says it.
    expect(down.err).toContain(
      'No Gym server answers there. Start one from a Gym checkout with ng_run "+config_paths=[',
    );
  });

  it("pairs each rollout with --inputs rows and sends /verify the row with its response, as reverify does", async () => {
    gym = await startFakeGym({ mode: "json" });
    // Rollouts stripped of their task's ground truth, which the task rows (one file per half) carry.
    const rows = readFileSync(ROLLOUTS, "utf8")
      .split("\n")
      .slice(0, 4)
      .map(
        (l, at): Record<string, unknown> => ({
          ...z.record(z.string(), z.unknown()).parse(JSON.parse(l)),
          _ng_task_index: at,
          _ng_rollout_index: 0,
        }),
      );
    const rolloutsFile = join(tmp, "stripped.jsonl");
    writeFileSync(rolloutsFile, rows.map(({ ground_truth: _g, ...r }) => `${JSON.stringify(r)}\n`).join(""));
    const task = ({ response: _r, reward: _w, ...row }: Record<string, unknown>) =>
      `${JSON.stringify(row)}\n`;
    const [first, second] = [join(tmp, "tasks-a.jsonl"), join(tmp, "tasks-b.jsonl")];
    writeFileSync(first, rows.slice(0, 2).map(task).join(""));
    writeFileSync(second, rows.slice(2).map(task).join(""));
    const rewards = (out: string) =>
      out
        .trim()
        .split("\n")
        .map((l) =>
          z.looseObject({ section: z.string(), verify: z.unknown().optional() }).parse(JSON.parse(l)),
        )
        .flatMap((r) =>
          r.section === "rollout"
            ? [
                z
                  .object({ browserReward: z.number().nullable(), serverReward: z.number().nullable() })
                  .loose()
                  .parse(r.verify),
              ]
            : [],
        )
        .map((v) => [v.browserReward, v.serverReward]);
    const recorded = rows.map((r) => z.number().parse(r.reward));
    const paired = await live(
      gym.url,
      "--rollouts",
      rolloutsFile,
      "--inputs",
      first,
      "--inputs",
      second,
      "--policy",
      "legacy",
      "--json",
    );
    expect(rewards(paired.out)).toEqual(recorded.map((r) => [r, r]));
    expect(paired.code).toBe(0);
    // Alone, no line has its ground truth: none is scored here.
    const alone = await live(gym.url, "--rollouts", rolloutsFile, "--policy", "legacy", "--json");
    expect(rewards(alone.out).map(([browser]) => browser)).toEqual([null, null, null, null]);
    expect((await live(gym.url, "--inputs", first)).code).toBe(2);
    expect((await live(gym.url, "--rollouts", rolloutsFile, "--inputs", join(tmp, "none.jsonl"))).code).toBe(
      2,
    );
  });

  it("escapes control, bidi and C1 characters from the file and the server on stdout, text and JSON (issue 10)", async () => {
    gym = await startFakeGym({ mode: "json" });
    const file = join(tmp, "hostile.jsonl");
    // JSON.stringify escapes C0 controls by itself; a bidi override and C1's CSI (U+009B) it leaves raw.
    const name = `email_reply_email${TERMINAL_ESCAPE}\u202e\u009b31m`;
    writeFileSync(file, line(rollout([{ name, call_id: `c\u202e${TERMINAL_ESCAPE}` }])));
    const text = await live(gym.url, "--rollouts", file, "--policy", "legacy");
    const json = await live(gym.url, "--rollouts", file, "--policy", "legacy", "--json");
    for (const out of [text.out, json.out]) {
      // No control (C0 but the line break, C1) or format (bidi, zero width) character reaches the terminal.
      expect(out).not.toMatch(/(?!\n)[\p{Cc}\p{Cf}]/u);
    }
    // JSON keeps the value: the escapes are \uXXXX in the string, so a parser reads the name back.
    expect(json.out).toContain("\\u202e\\u009b31m");
    const names = json.out
      .trim()
      .split("\n")
      .flatMap((l) => {
        const row = z
          .looseObject({ replay: z.looseObject({ calls: z.array(z.looseObject({ name: z.string() })) }) })
          .safeParse(JSON.parse(l));
        return row.success ? row.data.replay.calls.map((call) => call.name) : [];
      });
    expect(names).toEqual([name]);
  });

  it("stops the run with one error at the first request a stuck server leaves unanswered", async () => {
    gym = await startFakeGym({ mode: "stateless", hang: ["customer_relationship_manager_delete_customer"] });
    const file = join(tmp, "stuck.jsonl");
    // Lines 4-7: the second one (line 5) deletes customers first.
    writeFileSync(file, `${readFileSync(ROLLOUTS, "utf8").split("\n").slice(3, 7).join("\n")}\n`);
    const result = await live(
      gym.url,
      "--rollouts",
      file,
      "--policy",
      "legacy",
      "--timeout-ms",
      "300",
      "--json",
    );
    // The server holds the two doors' first call of line 2, and nothing after it was sent.
    expect(gym.hanging()).toBe(2);
    expect(result.code).toBe(1);
    const records = result.out
      .trim()
      .split("\n")
      .map((l) =>
        z.looseObject({ section: z.string(), message: z.string().optional() }).parse(JSON.parse(l)),
      );
    expect(records.map((r) => r.section)).toEqual(["connect", "rollout", "rollout", "stopped", "summary"]);
    expect(records[3]?.message).toMatch(/^stopped at line 2 \(legacy\): the server gave no answer to call 0/);
    const text = await live(gym.url, "--rollouts", file, "--policy", "legacy", "--timeout-ms", "300");
    expect(gym.hanging()).toBe(4);
    expect(text.out.match(/^STOPPED: /gm)).toHaveLength(1);
    expect(text.out).toContain("1 no answer");
  });
});
