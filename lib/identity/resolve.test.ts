import { describe, expect, it } from "vitest";
import { readRollout } from "../schemas";
import { asRollout } from "../schemas/test-helpers";
import { provenanceState, readProvenance, resolveRollout, strongestHighlight } from ".";
import { rolloutWith } from "./test-helpers";
import type { CallResolution, RolloutResolution } from "./types";

const S = "workplace_assistant";
const names = (r: RolloutResolution) => r.calls.map((c) => c.verifier_name);
const statuses = (r: RolloutResolution) => r.calls.map((c) => c.status);
const flagNames = (c: CallResolution | undefined) => c?.flags.map((f) => f.name) ?? [];
const readRolloutOk = (line: string) => {
  const read = readRollout(JSON.parse(line));
  if (!read.ok) throw new Error(read.message);
  return read.rollout;
};
const only = (r: RolloutResolution): CallResolution => {
  expect(r.calls).toHaveLength(1);
  return r.calls[0]!;
};

describe("map state", () => {
  it.each([
    ["absent", undefined, "unknown"],
    ["null", null, "unknown"],
    ["empty object", {}, "authoritative"],
    ["object with entries", { c0: { server_name: S, tool_name: "x" } }, "authoritative"],
    ["array", [], "invalid"],
    ["array of entries", [{ server_name: S, tool_name: "x" }], "invalid"],
    ["string", "{}", "invalid"],
    ["number", 0, "invalid"],
    ["boolean", false, "invalid"],
  ])("%s -> %s", (_label, provenance, state) => {
    const rollout = rolloutWith([{ name: "x", call_id: "c0" }], provenance);
    const r = resolveRollout(rollout, { server: S });
    expect(r.map_state).toBe(state);
    // The index reads the state alone: the same decision as reading the whole map.
    expect(provenanceState(rollout)).toBe(state);
    expect(readProvenance(rollout).state).toBe(state);
  });
});

describe("status, policy contract", () => {
  it("legacy: map unknown and the name is mcp__<S>__<rest>", () => {
    const r = resolveRollout(
      rolloutWith([
        { name: `mcp__${S}__email_send_email`, call_id: "a" },
        { name: `mcp__${S}__ns__tool`, call_id: "b" },
      ]),
      { server: S },
    );
    expect(statuses(r)).toEqual(["legacy", "legacy"]);
    expect(names(r)).toEqual(["email_send_email", "ns__tool"]);
  });

  it("bare: map unknown, any other name (prefix alone, other server, other case, Hermes form)", () => {
    const emitted = [
      `mcp__${S}__`,
      "mcp__other__tool",
      `mcp__${S.toUpperCase()}__x`,
      `mcp_${S}_email_send_email`,
      `${S}__email_send_email`,
      "email_send_email",
      `xmcp__${S}__y`,
    ];
    const r = resolveRollout(
      rolloutWith(
        emitted.map((name, i) => ({ name, call_id: `c${i}` })),
        null,
      ),
      {
        server: S,
      },
    );
    expect(statuses(r)).toEqual(emitted.map(() => "bare"));
    expect(names(r)).toEqual(emitted);
  });

  it("legacy prefix matching is byte for byte on S, including spaces", () => {
    const r = resolveRollout(rolloutWith([{ name: "mcp__team store__append", call_id: "c" }]), {
      server: "team store",
    });
    expect(only(r)).toMatchObject({ status: "legacy", verifier_name: "append" });
  });

  it.each([
    ["missing", {}, null],
    ["a number", { call_id: 7 }, null],
    ["null", { call_id: null }, null],
    ["empty", { call_id: "" }, ""],
  ])("uncorrelated: call_id %s, even when an entry would name S", (_label, extra, recorded) => {
    const r = resolveRollout(
      rolloutWith([{ name: `mcp__${S}__x`, ...extra }], { "": { server_name: S, tool_name: "x" } }),
      {
        server: S,
      },
    );
    const c = only(r);
    expect(c).toMatchObject({
      status: "uncorrelated",
      verifier_name: `mcp__${S}__x`,
      highlight: "ambiguous",
    });
    expect(c.call_id).toBe(recorded);
  });

  it("duplicate: the same call_id on two function_calls fails closed even for an entry naming S", () => {
    const r = resolveRollout(
      rolloutWith(
        [
          { name: "alias_a", call_id: "dup" },
          { name: "alias_b", call_id: "dup" },
          { name: "alias_c", call_id: "once" },
        ],
        { dup: { server_name: S, tool_name: "x" }, once: { server_name: S, tool_name: "y" } },
      ),
      { server: S },
    );
    expect(statuses(r)).toEqual(["duplicate", "duplicate", "canonical"]);
    expect(names(r)).toEqual(["alias_a", "alias_b", "y"]);
    expect(r.calls[0]?.highlight).toBe("ambiguous");
    expect(r.calls[0]?.provenance).toEqual({ server_name: S, tool_name: "x" });
  });

  it("non_mcp: authoritative map without the call_id, including the empty map", () => {
    for (const map of [{}, { other: { server_name: S, tool_name: "x" } }]) {
      const c = only(
        resolveRollout(rolloutWith([{ name: `mcp__${S}__x`, call_id: "c0" }], map), { server: S }),
      );
      expect(c).toMatchObject({ status: "non_mcp", verifier_name: `mcp__${S}__x`, highlight: "none" });
    }
  });

  it.each([
    ["a string", "x"],
    ["null", null],
    ["an array", [S, "x"]],
    ["missing tool_name", { server_name: S }],
    ["empty server_name", { server_name: "", tool_name: "x" }],
    ["whitespace tool_name", { server_name: S, tool_name: " \t\n" }],
    ["numeric tool_name", { server_name: S, tool_name: 3 }],
  ])("malformed: entry is %s", (_label, entry) => {
    const c = only(resolveRollout(rolloutWith([{ name: "x", call_id: "c0" }], { c0: entry }), { server: S }));
    expect(c).toMatchObject({
      status: "malformed",
      verifier_name: "x",
      highlight: "mismatched",
      provenance: null,
    });
  });

  it.each([
    ["an array", []],
    ["a string", "c0"],
    ["a number", 1],
    ["a boolean", true],
  ])("malformed: every call when the map is %s, with no legacy fallback", (_label, map) => {
    const r = resolveRollout(
      rolloutWith(
        [{ name: `mcp__${S}__x`, call_id: "c0" }, { name: "y", call_id: "c1" }, { name: "z" }],
        map,
      ),
      { server: S },
    );
    expect(r.map_state).toBe("invalid");
    expect(statuses(r)).toEqual(["malformed", "malformed", "malformed"]);
    expect(names(r)).toEqual([`mcp__${S}__x`, "y", "z"]);
  });

  it("external: a valid entry naming another server keeps the emitted name", () => {
    const c = only(
      resolveRollout(
        rolloutWith([{ name: "mcp__github__x", call_id: "c0" }], {
          c0: { server_name: "github", tool_name: "x" },
        }),
        {
          server: S,
        },
      ),
    );
    expect(c).toMatchObject({ status: "external", verifier_name: "mcp__github__x", highlight: "external" });
    expect(c.provenance).toEqual({ server_name: "github", tool_name: "x" });
  });

  it("canonical: a valid entry naming S gives its tool_name; extra keys in the entry are ignored", () => {
    const c = only(
      resolveRollout(
        rolloutWith([{ name: "anything at all", call_id: "c0" }], {
          c0: { server_name: S, tool_name: "email_send_email", transport: "mcp", extra: [1] },
        }),
        { server: S },
      ),
    );
    expect(c).toMatchObject({ status: "canonical", verifier_name: "email_send_email", highlight: "none" });
    expect(c.provenance).toEqual({ server_name: S, tool_name: "email_send_email" });
  });

  it('a call_id "__proto__" is a key like any other, as in Gym\'s dict (the line read by JSON.parse)', () => {
    const line = JSON.stringify({
      response: {
        output: [{ type: "function_call", name: "mcp_x", call_id: "__proto__", arguments: "{}" }],
      },
    }).replace(
      /}$/,
      ',"mcp_tool_call_provenance":{"__proto__":{"server_name":"workplace_assistant","tool_name":"email_send_email"}}}',
    );
    const c = only(resolveRollout(readRolloutOk(line), { server: S }));
    expect(c).toMatchObject({ status: "canonical", verifier_name: "email_send_email" });
    const other = only(
      resolveRollout(readRolloutOk(line.replace('"call_id":"__proto__"', '"call_id":"c1"')), { server: S }),
    );
    expect(other.status).toBe("non_mcp");
  });

  it("canonical keeps the tool_name exactly, whitespace and all", () => {
    const c = only(
      resolveRollout(
        rolloutWith([{ name: "x", call_id: "c0" }], { c0: { server_name: S, tool_name: " t " } }),
        { server: S },
      ),
    );
    expect(c.verifier_name).toBe(" t ");
  });

  it("records index, output_index, call_id and emitted name for each call", () => {
    const r = resolveRollout(
      rolloutWith([
        { name: "a", call_id: "c0" },
        { name: "b", call_id: 5 },
      ]),
      { server: S },
    );
    expect(
      r.calls.map(({ index, output_index, call_id, emitted }) => ({ index, output_index, call_id, emitted })),
    ).toEqual([
      { index: 0, output_index: 1, call_id: "c0", emitted: "a" },
      { index: 1, output_index: 3, call_id: null, emitted: "b" },
    ]);
  });

  it("every call gets one explanation sentence", () => {
    const r = resolveRollout(
      rolloutWith(
        [
          { name: "a", call_id: "c0" },
          { name: "b" },
          { name: "c", call_id: "c2" },
          { name: "d", call_id: "c3" },
        ],
        { c0: { server_name: S, tool_name: "t" }, c2: { server_name: "gh", tool_name: "t" }, c3: 5 },
      ),
      { server: S },
    );
    for (const call of r.calls) {
      expect(call.explanation).toMatch(/^[A-Z].*\.$/);
      expect(call.explanation.includes(". ")).toBe(false);
    }
  });
});

describe("reference vectors (contract)", () => {
  it("team store vectors from the Gym branch tests", () => {
    const emitted = [
      "team-store__append",
      "team-store__built_in_collision",
      "team-store__append",
      "raw_step",
      "team-store__append",
      "team-store__ns__tool",
    ];
    const provenance = {
      c0: { server_name: "team store", tool_name: "append" },
      c2: { server_name: "team-store", tool_name: "append" },
      c4: { server_name: "team store", tool_name: "append" },
      c5: { server_name: "team store", tool_name: "ns__tool" },
    };
    const r = resolveRollout(
      rolloutWith(
        emitted.map((name, i) => ({ name, call_id: `c${i}` })),
        provenance,
      ),
      {
        server: "team store",
      },
    );
    expect(names(r)).toEqual([
      "append",
      "team-store__built_in_collision",
      "team-store__append",
      "raw_step",
      "append",
      "ns__tool",
    ]);
    expect(statuses(r)).toEqual(["canonical", "non_mcp", "external", "non_mcp", "canonical", "canonical"]);
    expect(flagNames(r.calls[2])).toEqual(["server_near_miss"]);
    expect(r.calls[2]?.highlight).toBe("mismatched");
    expect(r.findings).toEqual([]);
  });

  it("Gym HEAD legacy vector, S = store, map unknown", () => {
    const emitted = ["mcp__store__append", "raw_step", "mcp__other__tool"];
    const r = resolveRollout(rolloutWith(emitted.map((name, i) => ({ name, call_id: `c${i}` }))), {
      server: "store",
    });
    expect(r.map_state).toBe("unknown");
    expect(names(r)).toEqual(["append", "raw_step", "mcp__other__tool"]);
    expect(statuses(r)).toEqual(["legacy", "bare", "bare"]);
  });
});

describe("policy legacy", () => {
  it("ignores the map entirely: only the first two rows apply", () => {
    const calls = [
      { name: `mcp__${S}__a`, call_id: "c0" },
      { name: "hermes_alias", call_id: "c1" },
      { name: `mcp__${S}__b` },
      { name: `mcp__${S}__c`, call_id: "dup" },
      { name: "x", call_id: "dup" },
    ];
    for (const map of [
      undefined,
      null,
      {},
      { c0: { server_name: "github", tool_name: "zzz" }, c1: { server_name: S, tool_name: "t" }, dup: "bad" },
      [],
      "nope",
    ]) {
      const r = resolveRollout(rolloutWith(calls, map), { server: S, policy: "legacy" });
      expect(r.policy).toBe("legacy");
      expect(statuses(r)).toEqual(["legacy", "bare", "legacy", "legacy", "bare"]);
      expect(names(r)).toEqual(["a", "hermes_alias", "b", "c", "x"]);
      expect(r.calls.every((c) => c.provenance === null)).toBe(true);
      expect(r.findings.filter((f) => f.kind === "orphan_provenance")).toEqual([]);
    }
  });

  it("still reports the observed map state", () => {
    expect(resolveRollout(rolloutWith([], {}), { server: S, policy: "legacy" }).map_state).toBe(
      "authoritative",
    );
  });
});

describe("flags computed from S and its tools", () => {
  const tools = ["email_send_email", "calendar_create_event"];

  it.each([
    ["team-store", "team store"],
    ["Team Store", "team store"],
    ["team__store", "team store"],
    ["TEAM.STORE", "team-store"],
  ])("server_near_miss: %s vs S=%s", (entryServer, server) => {
    const c = only(
      resolveRollout(
        rolloutWith([{ name: "x", call_id: "c" }], { c: { server_name: entryServer, tool_name: "t" } }),
        { server },
      ),
    );
    expect(c.status).toBe("external");
    expect(flagNames(c)).toEqual(["server_near_miss"]);
    expect(c.highlight).toBe("mismatched");
    expect(c.verifier_name).toBe("x");
  });

  it.each([
    ["teamstore", "team store"],
    ["team store 2", "team store"],
    ["github", "team store"],
  ])("no server_near_miss: %s vs S=%s", (entryServer, server) => {
    const c = only(
      resolveRollout(
        rolloutWith([{ name: "x", call_id: "c" }], { c: { server_name: entryServer, tool_name: "t" } }),
        { server },
      ),
    );
    expect(c.status).toBe("external");
    expect(flagNames(c)).toEqual([]);
    expect(c.highlight).toBe("external");
  });

  it("unknown_tool: canonical or legacy verifier names that are not tools of S", () => {
    const r = resolveRollout(
      rolloutWith(
        [
          { name: "a", call_id: "c0" },
          { name: "b", call_id: "c1" },
        ],
        {
          c0: { server_name: S, tool_name: "email_sendemail" },
          c1: { server_name: S, tool_name: "email_send_email" },
        },
      ),
      { server: S, tools },
    );
    expect(r.calls.map(flagNames)).toEqual([["unknown_tool"], []]);
    expect(r.calls[0]?.highlight).toBe("mismatched");
    const legacy = resolveRollout(
      rolloutWith([
        { name: `mcp__${S}__nope`, call_id: "c" },
        { name: `mcp__${S}__email_send_email`, call_id: "d" },
      ]),
      {
        server: S,
        tools,
      },
    );
    expect(legacy.calls.map(flagNames)).toEqual([["unknown_tool"], []]);
  });

  it("unknown_tool needs the tool list and never applies to other statuses", () => {
    const without = resolveRollout(rolloutWith([{ name: `mcp__${S}__nope`, call_id: "c" }]), { server: S });
    expect(flagNames(only(without))).toEqual([]);
    const bare = resolveRollout(rolloutWith([{ name: "nope", call_id: "c" }]), { server: S, tools });
    expect(flagNames(only(bare))).toEqual([]);
    const external = resolveRollout(
      rolloutWith([{ name: "x", call_id: "c" }], { c: { server_name: "gh", tool_name: "nope" } }),
      { server: S, tools },
    );
    expect(flagNames(only(external))).toEqual([]);
  });

  it("flags never change the verifier name", () => {
    const flagged = resolveRollout(
      rolloutWith([{ name: "a", call_id: "c0" }], { c0: { server_name: S, tool_name: "nope" } }),
      { server: S, tools },
    );
    const plain = resolveRollout(
      rolloutWith([{ name: "a", call_id: "c0" }], { c0: { server_name: S, tool_name: "nope" } }),
      { server: S },
    );
    expect(names(flagged)).toEqual(names(plain));
    expect(statuses(flagged)).toEqual(statuses(plain));
  });
});

describe("highlight severity", () => {
  it("mismatched > ambiguous > external > none", () => {
    expect(strongestHighlight(["external", "ambiguous"])).toBe("ambiguous");
    expect(strongestHighlight(["ambiguous", "mismatched", "external"])).toBe("mismatched");
    expect(strongestHighlight(["none", "external"])).toBe("external");
    expect(strongestHighlight([])).toBe("none");
  });
});

describe("rollout findings", () => {
  it("orphan_provenance lists map keys that match no function_call call_id", () => {
    const r = resolveRollout(
      rolloutWith([{ name: "a", call_id: "c0" }], {
        c0: { server_name: S, tool_name: "t" },
        ghost: { server_name: S, tool_name: "t" },
        "": { server_name: S, tool_name: "t" },
      }),
      { server: S },
    );
    const orphan = r.findings.find((f) => f.kind === "orphan_provenance");
    expect(orphan).toMatchObject({ kind: "orphan_provenance", call_ids: ["ghost", ""] });
  });

  it("a call whose call_id is the empty string claims the entry keyed by it (not an orphan)", () => {
    const r = resolveRollout(
      rolloutWith([{ name: "a", call_id: "" }], { "": { server_name: S, tool_name: "t" } }),
      { server: S },
    );
    expect(r.findings.find((f) => f.kind === "orphan_provenance")).toBeUndefined();
  });

  it("no orphan finding when every key matches a call", () => {
    const r = resolveRollout(
      rolloutWith([{ name: "a", call_id: "c0" }], { c0: { server_name: S, tool_name: "t" } }),
      { server: S },
    );
    expect(r.findings).toEqual([]);
  });

  it("gym_would_reject: invalid map", () => {
    const r = resolveRollout(rolloutWith([{ name: "a", call_id: "c0" }], ["c0"]), { server: S });
    const reject = r.findings.find((f) => f.kind === "gym_would_reject");
    expect(reject?.kind === "gym_would_reject" && reject.reasons).toEqual([
      "mcp_tool_call_provenance is an array, not an object",
    ]);
  });

  it("gym_would_reject: malformed entries (orphans too) and function_calls without a string call_id", () => {
    const r = resolveRollout(
      rolloutWith([{ name: "a", call_id: "c0" }, { name: "b" }, { name: "c", call_id: 3 }], {
        c0: { server_name: " ", tool_name: "t" },
        orphan: "bad",
      }),
      { server: S },
    );
    const reject = r.findings.find((f) => f.kind === "gym_would_reject");
    expect(reject?.kind).toBe("gym_would_reject");
    const reasons = reject?.kind === "gym_would_reject" ? reject.reasons : [];
    expect(reasons).toHaveLength(4);
    expect(reasons[0]).toMatch(/"c0" is malformed: server_name: must contain a non-whitespace character/);
    expect(reasons[1]).toMatch(/"orphan" is malformed: the entry is a string/);
    expect(reasons[2]).toBe("function_call #1 (response.output[3]) has no string call_id");
    expect(reasons[3]).toBe("function_call #2 (response.output[5]) has no string call_id");
  });

  it("gym_would_reject under policy legacy: only the call_id rule (old Gym never reads the map)", () => {
    const r = resolveRollout(rolloutWith([{ name: "a", call_id: "c0" }, { name: "b" }], "bad"), {
      server: S,
      policy: "legacy",
    });
    const reject = r.findings.find((f) => f.kind === "gym_would_reject");
    expect(reject?.kind === "gym_would_reject" && reject.reasons).toEqual([
      "function_call #1 (response.output[3]) has no string call_id",
    ]);
  });

  it("no findings for a clean rollout without a map", () => {
    expect(resolveRollout(rolloutWith([{ name: "a", call_id: "c0" }]), { server: S }).findings).toEqual([]);
  });
});

describe("unreadable input", () => {
  it.each([
    ["null", null, "not_an_object"],
    ["an array", [], "not_an_object"],
    ["no response", { reward: 1 }, "not_a_rollout"],
    ["no output", { response: {} }, "not_a_rollout"],
    ["output not an array", { response: { output: {} } }, "not_a_rollout"],
    [
      "function_call without a name",
      { response: { output: [{ type: "function_call", call_id: "c" }] } },
      "not_a_rollout",
    ],
  ])("%s never reaches resolveRollout: the edge gives a line error with a kind", (_label, value, kind) => {
    const read = readRollout(value);
    expect(read).toMatchObject({ ok: false, kind });
    expect(read.ok ? "" : read.message).toMatch(/^not a rollout: .+/);
  });

  it("an empty output is readable and has no calls", () => {
    expect(resolveRollout(asRollout({ response: { output: [] } }), { server: S })).toMatchObject({
      calls: [],
      findings: [],
    });
  });
});
