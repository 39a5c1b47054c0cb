import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isJsonObject } from "../schemas";
import { narrowing } from "../schemas/test-helpers";
import { verifyRollout as verifyRolloutTyped } from "../verify";
import { connectAndCheck } from "./connect";
import { describeError, LiveError, noAnswer } from "./errors";
import { HttpDoor } from "./http";
import { McpDoor } from "./mcp";
import {
  openMcpSession,
  replayRollout as replayRolloutTyped,
  verifyOnServer as verifyOnServerTyped,
} from "./replay";
import {
  addToTally,
  checkRollout as checkRolloutTyped,
  emptyTally,
  serverStoppedAnswering,
  tallyClean,
} from "./summary";
import { type FakeGym, type FakeGymOptions, type FakeMode, startFakeGym } from "./test-helpers";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const verifyRollout = narrowing(verifyRolloutTyped);

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const replayRollout = narrowing(replayRolloutTyped);
const verifyOnServer = narrowing(verifyOnServerTyped);
const checkRollout = narrowing(checkRolloutTyped);

const MODES: readonly FakeMode[] = ["sse", "json", "stateless"];
const GOLDEN = readFileSync(
  new URL("../../fixtures/golden/workplace-rollouts/wa_rollouts.jsonl", import.meta.url),
  "utf8",
)
  .trim()
  .split("\n")
  .map((line): unknown => JSON.parse(line));

const running: FakeGym[] = [];
async function fake(options: FakeGymOptions): Promise<FakeGym> {
  const server = await startFakeGym(options);
  running.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A workplace rollout with the given calls, bare names, no task fields needed for replay. */
function rolloutOf(calls: readonly { name: string; arguments: string }[]): unknown {
  return {
    environment_name: "workplace_assistant",
    id: 0,
    category: "workplace_assistant_email",
    ground_truth: [],
    response: {
      output: calls.map((c, i) => ({
        type: "function_call",
        call_id: `c${i}`,
        name: c.name,
        arguments: c.arguments,
      })),
    },
  };
}

async function expectLiveError(promise: Promise<unknown>): Promise<LiveError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LiveError);
    if (error instanceof LiveError) return error;
  }
  throw new Error("expected a LiveError");
}

describe.each(MODES)("live mode against the SDK's own server in %s mode", (mode) => {
  it("connects: mcp block, token claims (signature not checked), negotiation, reply type, DELETE on close, parity", async () => {
    const gym = await fake({ mode });
    const report = await connectAndCheck({ baseUrl: gym.url, timeoutMs: 5000 });
    expect(report.seed.ok && report.seed.value.mcp?.url_path).toBe("/mcp");
    expect(report.token?.ok && report.token.value.signature).toBe("not checked");
    expect(report.token?.ok && report.token.value.tools).toBeNull();
    expect(report.token?.ok && typeof report.token.value.sid).toBe("string");
    expect(report.session?.ok && report.session.value.protocolVersion).toBe("2025-11-25");
    expect(report.session?.ok && report.session.value.server?.name).toBe("workplace_assistant");
    if (mode === "stateless") {
      expect(report.session?.ok && report.session.value.sessionId).toBeNull();
      expect(report.wire?.deleteOnClose).toBe("not sent (no session id)");
    } else {
      expect(report.session?.ok && report.session.value.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(report.wire?.deleteOnClose).toBe("HTTP 200");
    }
    const replyType = mode === "sse" ? "text/event-stream" : "application/json";
    expect(Object.keys(report.wire?.replies ?? {})).toEqual([replyType]);
    expect(report.parity?.ok).toBe(true);
    if (!report.parity?.ok) return;
    expect(report.parity.value.mcpTools).toBe(27);
    expect(report.parity.value.differences).toBe(0);
    expect(report.parity.value.catchAll).toBe("/{path}");
    expect(report.tools?.ok && report.tools.value.pages).toBe(1);
  });

  it("replays golden rollouts through both doors with byte-identical outputs, and /verify agrees", async () => {
    const gym = await fake({ mode });
    const target = { baseUrl: gym.url, timeoutMs: 5000 };
    // Every scheme appears in the first 40 lines; the full 114 run in the gym-live tier.
    for (const rollout of GOLDEN.slice(0, 40)) {
      for (const policy of ["contract", "legacy"] as const) {
        const replay = await replayRollout(rollout, target, { policy });
        expect(replay.error).toBeNull();
        expect(replay.counts.differs).toBe(0);
        expect(replay.counts.failed).toBe(0);
        for (const call of replay.calls) {
          if (call.verdict === "same" && call.http?.ok && call.mcp?.ok)
            expect(call.mcp.answer.text).toBe(call.http.answer.body);
        }
        const verified = await verifyOnServer(rollout, target, { policy });
        expect(verified.serverError).toBeNull();
        expect(verified.serverReward).toBe(verifyRollout(rollout, { policy }).reward);
        expect(verified.disagree).toBe(false);
      }
    }
  });

  it("sorts a deadline as a timeout on both doors", async () => {
    const gym = await fake({ mode, delays: { company_directory_find_email_address: 1500 } });
    const target = { baseUrl: gym.url, timeoutMs: 300 };
    const http = new HttpDoor(gym.url, target);
    await http.seedSession();
    const httpError = await expectLiveError(
      http.callTool("company_directory_find_email_address", { name: "a" }),
    );
    expect(httpError.kind).toBe("timeout");
    const door = await openMcpSession(target);
    const started = Date.now();
    const mcpError = await expectLiveError(
      door.callTool("company_directory_find_email_address", { name: "a" }),
    );
    expect(mcpError.kind).toBe("timeout");
    expect(mcpError.message).toContain("300 ms");
    expect(Date.now() - started).toBeLessThan(1400);
    // The session is still usable after a timeout.
    const after = await door.callTool("email_get_email_information_by_id", {
      email_id: "00000057",
      field: "subject",
    });
    expect(after.isError).toBe(false);
    await door.close();
  });

  it("reports a server killed mid-call as a transport error well before the deadline", async () => {
    const gym = await startFakeGym({ mode, hang: ["email_search_emails"] });
    const door = await openMcpSession({ baseUrl: gym.url, timeoutMs: 20_000 });
    const started = Date.now();
    const pending = door.callTool("email_search_emails", { query: "carlos" });
    const settled = expectLiveError(pending);
    while (gym.hanging() === 0) await new Promise((r) => setTimeout(r, 10));
    await gym.kill();
    const error = await settled;
    expect(error.kind).toBe("transport_error");
    expect(Date.now() - started).toBeLessThan(5000);
    await door.close();
  });

  it("stops a replay at the call a killed server left unanswered: one error, the later calls not replayed, /verify not asked", async () => {
    // Line 6: four delete_customer calls, then create_task.
    const gym = await startFakeGym({ mode, hang: ["customer_relationship_manager_delete_customer"] });
    const target = { baseUrl: gym.url, timeoutMs: 20_000 };
    const started = Date.now();
    const pending = checkRollout(GOLDEN[5], 6, target, "legacy");
    while (gym.hanging() === 0) await new Promise((r) => setTimeout(r, 10));
    await gym.kill();
    const check = await pending;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(check.replay.calls).toHaveLength(1);
    expect(check.replay.calls[0]?.verdict).toBe("failed");
    expect(check.replay.notReplayed).toBe(4);
    expect(check.replay.error?.kind).toBe("transport_error");
    expect(check.replay.error?.message).toContain(
      "no answer to call 0 (customer_relationship_manager_delete_customer) through the HTTP door",
    );
    expect(check.replay.error?.message).toContain("4 later calls not replayed");
    expect(check.verify.verdict).toBe("no_answer");
    expect(check.verify.serverError).toContain("not asked");
    expect(check.verify.browserReward).toBe(verifyRollout(GOLDEN[5], { policy: "legacy" }).reward);
    const stop = serverStoppedAnswering(check);
    expect(stop?.kind).toBe("transport_error");
    expect(stop?.message).toMatch(/^stopped at line 6 \(legacy\): the server gave no answer to call 0/);
  });

  it("stops at the first deadline when a stuck server stops answering, instead of one deadline per call", async () => {
    const gym = await fake({ mode, hang: ["customer_relationship_manager_delete_customer"] });
    const target = { baseUrl: gym.url, timeoutMs: 300 };
    // A tool that never answers: call 0 times out on both doors; without the stop, the four later calls
    // would cost 8 more deadlines and /verify a ninth. Counted by the requests the server holds.
    const slow = await checkRollout(GOLDEN[5], 6, target, "contract");
    expect(gym.hanging()).toBe(2);
    expect(slow.replay.error?.kind).toBe("timeout");
    expect(slow.replay.notReplayed).toBe(4);
    expect(slow.replay.counts.failed).toBe(1);
    expect(slow.verify.verdict).toBe("no_answer");
    expect(serverStoppedAnswering(slow)?.kind).toBe("timeout");
    // A server that accepts connections and answers nothing (stuck in a write): seeding times out once.
    gym.stall();
    const stuck = await checkRollout(GOLDEN[5], 6, target, "contract");
    // One request held (seeding), none after it: no MCP session, no call, no /verify.
    expect(gym.hanging()).toBe(3);
    expect(stuck.replay.error?.kind).toBe("timeout");
    expect(stuck.replay.calls).toHaveLength(0);
    expect(stuck.replay.notReplayed).toBe(5);
    expect(stuck.verify.verdict).toBe("no_answer");
    expect(serverStoppedAnswering(stuck)?.message).toContain("stopped at line 6 (contract)");
  });

  it("keeps going after an answered error: a 404 or an isError is an answer, not a stop", async () => {
    const gym = await fake({ mode });
    const check = await checkRollout(
      rolloutOf([
        { name: "no_such_tool", arguments: "{}" },
        { name: "email_get_email_information_by_id", arguments: '{"email_id":"00000057","field":"subject"}' },
      ]),
      1,
      { baseUrl: gym.url, timeoutMs: 5000 },
      "contract",
    );
    expect(check.replay.error).toBeNull();
    expect(check.replay.notReplayed).toBe(0);
    expect(check.replay.calls.map((c) => c.verdict)).toEqual(["error_by_transport", "same"]);
    expect(serverStoppedAnswering(check)).toBeNull();
  });
});

describe("live mode: what the real server will not do on demand", () => {
  it("follows nextCursor through every page of tools/list", async () => {
    const gym = await fake({ mode: "json", pageSize: 10 });
    const report = await connectAndCheck({ baseUrl: gym.url, timeoutMs: 5000 });
    expect(report.tools?.ok && report.tools.value.pages).toBe(3);
    expect(report.tools?.ok && report.tools.value.tools.length).toBe(27);
    expect(report.parity?.ok && report.parity.value.differences).toBe(0);
  });

  it("names a route missing from MCP and a schema difference", async () => {
    const gym = await fake({
      mode: "stateless",
      httpOnlyRoutes: {
        email_archive_email: { type: "object", properties: { email_id: { type: "string" } } },
      },
      httpSchemaOverrides: {
        company_directory_find_email_address: {
          type: "object",
          properties: {
            name: { type: "integer", description: "Name or partial name to search for in email addresses" },
          },
          required: [],
          additionalProperties: false,
        },
      },
    });
    const report = await connectAndCheck({ baseUrl: gym.url, timeoutMs: 5000 });
    expect(report.parity?.ok).toBe(true);
    if (!report.parity?.ok) return;
    const differences = report.parity.value.rows.flatMap((r) => r.differences);
    expect(differences.map((d) => d.kind).sort()).toEqual(["missing_from_mcp", "schema_differs"]);
    const missing = report.parity.value.rows.find((r) => r.name === "email_archive_email");
    expect(missing?.mcp).toBeNull();
    expect(missing?.differences[0]?.message).toContain("POST /email_archive_email");
    const schema = differences.find((d) => d.kind === "schema_differs");
    expect(schema?.message).toContain('/properties/name/type: MCP "string", HTTP "integer"');
  });

  it("flags a deliberate output difference byte for byte", async () => {
    const gym = await fake({ mode: "json", tamperMcpOutput: ["company_directory_find_email_address"] });
    const rollout = rolloutOf([
      { name: "company_directory_find_email_address", arguments: '{"name": "carlos"}' },
      {
        name: "email_get_email_information_by_id",
        arguments: '{"email_id": "00000057", "field": "subject"}',
      },
    ]);
    const replay = await replayRollout(
      rollout,
      { baseUrl: gym.url, timeoutMs: 5000 },
      { policy: "contract" },
    );
    expect(replay.calls.map((c) => c.verdict)).toEqual(["differs", "same"]);
    const first = replay.calls[0];
    expect(first?.http?.ok && first.http.answer.body).toBe('{"output":["carlos.rodriguez@atlas.com"]}');
    expect(first?.mcp?.ok && first.mcp.answer.text).toBe('{"output":["carlos.rodriguez@atlas.com"]} ');
  });

  it("shows errors by transport: HTTP 200 with an error text vs MCP isError for a Hermes alias under legacy", async () => {
    const gym = await fake({ mode: "stateless" });
    const rollout = rolloutOf([
      {
        name: "mcp_workplace_assistant_company_directory_find_email_address",
        arguments: '{"name": "carlos"}',
      },
      { name: "company_directory_find_email_address", arguments: "not json" },
    ]);
    const replay = await replayRollout(rollout, { baseUrl: gym.url, timeoutMs: 5000 }, { policy: "legacy" });
    expect(replay.calls.map((c) => c.verdict)).toEqual(["error_by_transport", "skipped"]);
    const call = replay.calls[0];
    expect(call?.name).toBe("mcp_workplace_assistant_company_directory_find_email_address");
    expect(call?.http?.ok && call.http.answer.status).toBe(200);
    expect(call?.mcp?.ok && call.mcp.answer.isError).toBe(true);
    expect(call?.mcp?.ok && call.mcp.answer.text).toMatch(/^Unknown tool: 'mcp_workplace_assistant_company/);
    expect(call?.http?.ok && call.http.answer.body).toContain(
      "Error executing tool 'mcp_workplace_assistant_company",
    );
  });

  it("sends /verify the paired task row with the rollout's response, as gym eval reverify builds it", async () => {
    const gym = await fake({ mode: "stateless" });
    const full = GOLDEN[2];
    if (!isJsonObject(full)) throw new Error("golden line 3 is not an object");
    // The rollout without its task's ground truth; the task row (a materialized input) has it.
    const { ground_truth, ...rollout } = full;
    const { response: _response, reward: _reward, ...input } = full;
    const target = { baseUrl: gym.url, timeoutMs: 5000 };
    const pairing = { paired_by: "index", ambiguous: 0, reason: "Paired with rows.jsonl line 3." } as const;
    const paired = await verifyOnServer(rollout, target, { policy: "contract", input, pairing });
    expect(ground_truth).not.toEqual([]);
    expect([paired.browserReward, paired.serverReward, paired.verdict]).toEqual([1, 1, "agree"]);
    const alone = await verifyOnServer(rollout, target, { policy: "contract" });
    expect(alone.browserReward).toBeNull();
    expect(alone.serverReward).not.toBe(1);
  });

  it("never calls a refusal nothing predicted 'agree', even where the browser has no reward either", async () => {
    const gym = await fake({ mode: "stateless", verifyStatus: 422 });
    const target = { baseUrl: gym.url, timeoutMs: 5000 };
    // Scored here, refused there; and unscored here (no ground truth), refused there.
    const scored = await verifyOnServer(GOLDEN[2], target, { policy: "contract" });
    const full = GOLDEN[2];
    if (!isJsonObject(full)) throw new Error("golden line 3 is not an object");
    const { ground_truth: _g, ...bare } = full;
    const unscored = await verifyOnServer(bare, target, { policy: "contract" });
    for (const verified of [scored, unscored]) {
      expect(verified).toMatchObject({
        verdict: "refused",
        status: 422,
        serverReward: null,
        disagree: false,
      });
      expect(verified.serverError).toContain("Field required");
    }
    expect(unscored.browserReward).toBeNull();
    const tally = emptyTally();
    const check = await checkRollout(GOLDEN[2], 3, target, "contract");
    addToTally(tally, check);
    expect(tally).toMatchObject({ verifyRefused: 1, verifyAgree: 0, verifyDisagree: 0 });
    expect(tallyClean(tally)).toBe(false);
  });

  it("highlights a /verify disagreement", async () => {
    const gym = await fake({ mode: "stateless", verifyReward: 0.5 });
    const verified = await verifyOnServer(
      GOLDEN[2],
      { baseUrl: gym.url, timeoutMs: 5000 },
      { policy: "contract" },
    );
    expect(verified.browserReward).toBe(1);
    expect(verified.serverReward).toBe(0.5);
    expect(verified.disagree).toBe(true);
  });

  it("names a dropped session (HTTP 404) as a transport error, and a fresh session works", async () => {
    const gym = await fake({ mode: "sse" });
    const target = { baseUrl: gym.url, timeoutMs: 5000 };
    const door = await openMcpSession(target);
    expect((await door.callTool("company_directory_find_email_address", { name: "carlos" })).isError).toBe(
      false,
    );
    gym.dropSessions();
    const error = await expectLiveError(
      door.callTool("company_directory_find_email_address", { name: "carlos" }),
    );
    expect(error.kind).toBe("transport_error");
    expect(error.status).toBe(404);
    expect(error.message).toContain("dropped");
    // The server answered (404): a run goes on, and the next rollout's fresh session works.
    expect(noAnswer(describeError(error))).toBe(false);
    expect(noAnswer({ kind: "transport_error", message: "fetch failed" })).toBe(true);
    expect(noAnswer({ kind: "timeout", message: "no answer within 300 ms" })).toBe(true);
    expect(noAnswer({ kind: "protocol_error", message: "JSON-RPC error" })).toBe(false);
    await door.close();
    const fresh = await openMcpSession(target);
    expect((await fresh.callTool("company_directory_find_email_address", { name: "carlos" })).isError).toBe(
      false,
    );
    await fresh.close();
  });

  it.each(["sse", "json"] as const)(
    "answers 25 concurrent calls on one %s session, each its own",
    async (mode) => {
      const gym = await fake({ mode });
      const target = { baseUrl: gym.url, timeoutMs: 10_000 };
      const door = await openMcpSession(target);
      const http = new HttpDoor(gym.url, target);
      await http.seedSession();
      const names = ["carlos", "sam", "chen", "raj", "lena"];
      const calls = Array.from({ length: 25 }, (_, i) => ({
        name: names[i % names.length]!,
        page: 1 + Math.floor(i / names.length),
      }));
      const answers = await Promise.all(
        calls.map((c) => door.callTool("email_search_emails", { query: c.name, page: c.page, page_size: 1 })),
      );
      for (const [i, c] of calls.entries()) {
        const expected = await http.callTool("email_search_emails", {
          query: c.name,
          page: c.page,
          page_size: 1,
        });
        expect(answers[i]?.isError).toBe(false);
        expect(answers[i]?.text).toBe(expected.body);
      }
      expect(new Set(answers.map((a) => a.text)).size).toBeGreaterThan(5);
      await door.close();
    },
  );

  it("sorts a reply that is not MCP as a protocol error", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("hello");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    try {
      const error = await expectLiveError(
        McpDoor.connect(`http://127.0.0.1:${port}/mcp`, {}, { timeoutMs: 2000 }),
      );
      expect(error.kind).toBe("protocol_error");
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("sorts a refused connection as a transport error", async () => {
    const gym = await startFakeGym({ mode: "stateless" });
    await gym.close();
    const report = await connectAndCheck({ baseUrl: gym.url, timeoutMs: 2000 });
    expect(report.seed.ok).toBe(false);
    expect(!report.seed.ok && report.seed.kind).toBe("transport_error");
  });
});
