import { describe, expect, it } from "vitest";
import { emptyRepairSummary, repairJsonl, splitSourceLines } from "../export";
import { narrowing } from "../schemas/test-helpers";
import { DERIVED_KEY, repairRollout as repairRolloutTyped } from "./repair";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const repairRollout = narrowing(repairRolloutTyped);

const S = "workplace_assistant";
const TOOLS = ["email_reply_email", "email_search_emails", "calendar_update_event"];
const servers = [{ name: S, tools: TOOLS }];

function rollout(
  calls: { name: string; call_id?: unknown }[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    _ng_task_index: 0,
    responses_create_params: { input: [] },
    response: {
      output: calls.map((c) => ({ type: "function_call", arguments: "{}", ...c })),
    },
    reward: 0.0,
    ...extra,
  };
}

function prop(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

function keysOf(value: unknown): string[] {
  return typeof value === "object" && value !== null ? Object.keys(value) : [];
}

describe("repairRollout", () => {
  it.each([
    ["hermes-legacy", "mcp_workplace_assistant_email_reply_email"],
    ["openclaw", "workplace_assistant__email_reply_email"],
    ["claude-code", "mcp__workplace_assistant__email_reply_email"],
    ["hermes", "mcp__workplace_assistant__email_reply_email"],
  ] as const)("derives provenance from the %s alias", (harness, emitted) => {
    const r = repairRollout(rollout([{ name: emitted, call_id: "c0" }]), { harness, servers });
    expect(r.status).toBe("repaired");
    expect(r.derived).toEqual([
      { index: 0, call_id: "c0", emitted, server_name: S, tool_name: "email_reply_email" },
    ]);
    expect(r.set[0]).toEqual({
      key: "mcp_tool_call_provenance",
      value: { c0: { server_name: S, tool_name: "email_reply_email" } },
    });
    expect(prop(r.rollout, "mcp_tool_call_provenance")).toEqual(r.set[0]?.value);
    expect(prop(r.rollout, DERIVED_KEY)).toMatchObject({ harness, derived_call_ids: ["c0"], unresolved: [] });
  });

  it("does not accept another harness's alias", () => {
    const r = repairRollout(
      rollout([{ name: "mcp__workplace_assistant__email_reply_email", call_id: "c0" }]),
      {
        harness: "hermes-legacy",
        servers,
      },
    );
    expect(r.status).toBe("unchanged");
    expect(r.unresolved.map((u) => u.reason)).toEqual(["no_match"]);
    expect(r.rollout).toEqual(
      rollout([{ name: "mcp__workplace_assistant__email_reply_email", call_id: "c0" }]),
    );
  });

  it("keeps collisions and unknown names out of the map and lists them", () => {
    // Hermes era B joins with a single "_": (my_server, query) and (my, server_query) share an alias.
    const r = repairRollout(
      rollout([
        { name: "mcp_my_server_query", call_id: "c0" },
        { name: "raw_step", call_id: "c1" },
        { name: "mcp_other_tool", call_id: "c2" },
      ]),
      {
        harness: "hermes-legacy",
        servers: [
          { name: "my_server", tools: ["query"] },
          { name: "my", tools: ["server_query"] },
          { name: "other", tools: ["tool"] },
        ],
      },
    );
    expect(r.status).toBe("repaired");
    expect(r.derived.map((d) => [d.call_id, d.server_name, d.tool_name])).toEqual([["c2", "other", "tool"]]);
    expect(r.unresolved.map((u) => [u.call_id, u.reason])).toEqual([
      ["c0", "collision"],
      ["c1", "no_match"],
    ]);
    expect(r.unresolved[0]?.identities).toEqual([
      { server: "my_server", tool: "query" },
      { server: "my", tool: "server_query" },
    ]);
    expect(r.collisions.map((c) => c.alias)).toEqual(["mcp_my_server_query"]);
    const label = prop(r.rollout, DERIVED_KEY);
    expect(label).toMatchObject({
      derived_call_ids: ["c2"],
      unresolved: [
        { call_id: "c0", emitted: "mcp_my_server_query", reason: "collision" },
        { call_id: "c1", emitted: "raw_step", reason: "no_match" },
      ],
    });
    expect(keysOf(prop(r.rollout, "mcp_tool_call_provenance"))).toEqual(["c2"]);
  });

  it("Claude Code: servers that sanitize to the same name collide and stay out", () => {
    const r = repairRollout(rollout([{ name: "mcp__my_server__x", call_id: "c" }]), {
      harness: "claude-code",
      servers: [
        { name: "my.server", tools: ["x"] },
        { name: "my_server", tools: ["x"] },
      ],
    });
    expect(r.status).toBe("unchanged");
    expect(r.unresolved).toMatchObject([{ call_id: "c", reason: "collision" }]);
    expect(r.unresolved[0]?.identities).toEqual([
      { server: "my.server", tool: "x" },
      { server: "my_server", tool: "x" },
    ]);
  });

  it("OpenClaw: a renamed alias (-2) is exact, the contested base name stays out", () => {
    // foo-bar and foo:bar both produce "foo-bar"; OpenClaw renames the second server "foo-bar-2".
    const r = repairRollout(
      rollout([
        { name: "foo-bar__t", call_id: "a" },
        { name: "foo-bar-2__t", call_id: "b" },
      ]),
      {
        harness: "openclaw",
        servers: [
          { name: "foo-bar", tools: ["t"] },
          { name: "foo:bar", tools: ["t"] },
        ],
      },
    );
    expect(r.derived.map((d) => [d.call_id, d.server_name, d.tool_name])).toEqual([["b", "foo:bar", "t"]]);
    expect(r.unresolved.map((u) => [u.call_id, u.reason])).toEqual([["a", "collision"]]);
  });

  it("lists calls without a usable or unique call_id", () => {
    const name = "mcp__workplace_assistant__email_reply_email";
    const r = repairRollout(
      rollout([
        { name },
        { name, call_id: "" },
        { name, call_id: "dup" },
        { name, call_id: "dup" },
        { name, call_id: "ok" },
      ]),
      { harness: "claude-code", servers },
    );
    expect(r.unresolved.map((u) => [u.index, u.reason])).toEqual([
      [0, "no_call_id"],
      [1, "no_call_id"],
      [2, "duplicate_call_id"],
      [3, "duplicate_call_id"],
    ]);
    expect(r.derived.map((d) => d.call_id)).toEqual(["ok"]);
  });

  it("attributes a call to another configured server when its alias says so", () => {
    const r = repairRollout(
      rollout([
        { name: "mcp__github__create_issue", call_id: "g" },
        { name: "mcp__workplace_assistant__email_search_emails", call_id: "w" },
      ]),
      { harness: "claude-code", servers: [...servers, { name: "github", tools: ["create_issue"] }] },
    );
    expect(r.derived.map((d) => [d.call_id, d.server_name, d.tool_name])).toEqual([
      ["g", "github", "create_issue"],
      ["w", S, "email_search_emails"],
    ]);
  });

  it("skips a rollout that already has a map, repairs one whose map is null", () => {
    const name = "mcp__workplace_assistant__email_reply_email";
    for (const existing of [{}, { c0: { server_name: S, tool_name: "x" } }, [], "x"]) {
      const input = rollout([{ name, call_id: "c0" }], { mcp_tool_call_provenance: existing });
      const r = repairRollout(input, { harness: "claude-code", servers });
      expect(r.status).toBe("skipped");
      expect(r.rollout).toBe(input);
      expect(r.set).toEqual([]);
    }
    const nullMap = rollout([{ name, call_id: "c0" }], { mcp_tool_call_provenance: null });
    const r = repairRollout(nullMap, { harness: "claude-code", servers });
    expect(r.status).toBe("repaired");
    expect(keysOf(r.rollout)).toEqual(Object.keys(nullMap).concat(DERIVED_KEY));
    expect(nullMap.mcp_tool_call_provenance).toBeNull();
  });

  it("counts a line that is not a rollout as invalid and writes it unchanged (lossless export)", async () => {
    const summary = emptyRepairSummary("claude-code");
    const text = '[1,2]\n{"response":3}\n';
    const written = [];
    const lines = splitSourceLines(new TextEncoder().encode(text));
    for await (const line of repairJsonl(lines, { harness: "claude-code", servers }, summary))
      written.push(new TextDecoder().decode(line.bytes));
    expect(written.join("")).toBe(text);
    expect(summary.invalid).toBe(2);
    expect(summary.details?.map((d) => d.message)).toEqual([
      "not a rollout: the line is not a JSON object",
      "not a rollout: response: expected a Responses object with an output array",
    ]);
  });

  it('derives an entry for a call_id "__proto__" as an own key, written out and read back', async () => {
    const text = `${JSON.stringify(rollout([{ name: "mcp__workplace_assistant__email_reply_email", call_id: "__proto__" }]))}\n`;
    const written: string[] = [];
    const lines = splitSourceLines(new TextEncoder().encode(text));
    for await (const line of repairJsonl(lines, { harness: "claude-code", servers }))
      written.push(new TextDecoder().decode(line.bytes));
    const map = prop(JSON.parse(written.join("")), "mcp_tool_call_provenance");
    expect(keysOf(map)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(map, "__proto__")?.value).toEqual({
      server_name: S,
      tool_name: "email_reply_email",
    });
  });
});
