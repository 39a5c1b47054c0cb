import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ALIAS_PATTERNS,
  aliasFor,
  buildAliasMap,
  HARNESS_ERA_LABELS,
  HARNESS_ERAS,
  HARNESS_LABELS,
  HARNESSES,
  identityKey,
  isAliasRuleId,
  isHarnessId,
  lookupAlias,
} from "./index";
import type { AliasRuleId, ToolIdentity } from "./types";

const ALL_RULES: readonly AliasRuleId[] = [...HARNESSES, ...HARNESS_ERAS];
const WA = "workplace_assistant";

describe("harness registry", () => {
  it("lists the six UI harnesses with labels", () => {
    expect(HARNESSES).toEqual(["claude-code", "hermes-legacy", "hermes", "openclaw", "codex", "gemini-cli"]);
    expect(Object.keys(HARNESS_LABELS).sort()).toEqual([...HARNESSES].sort());
    expect(HARNESS_LABELS["hermes-legacy"]).toBe("Hermes (Gym pin, era B)");
    expect(Object.keys(HARNESS_ERA_LABELS).sort()).toEqual([...HARNESS_ERAS].sort());
    for (const id of ALL_RULES) expect(ALIAS_PATTERNS[id]).toMatch(/\w/);
  });

  it("isHarnessId accepts the six and nothing else", () => {
    for (const id of HARNESSES) expect(isHarnessId(id)).toBe(true);
    for (const id of [...HARNESS_ERAS, "", "Claude-Code", "toString", "__proto__"])
      expect(isHarnessId(id)).toBe(false);
    expect(isAliasRuleId("codex-e3")).toBe(true);
    expect(isAliasRuleId("toString")).toBe(false);
  });

  it("identityKey is unambiguous where naive joins are not", () => {
    expect(identityKey({ server: "a__b", tool: "c" })).not.toBe(identityKey({ server: "a", tool: "b__c" }));
    expect(identityKey({ server: 'a","b', tool: "" })).not.toBe(identityKey({ server: "a", tool: 'b","' }));
  });
});

describe("docs section 0: UTF-16 units in JS harnesses, code points in Python and Rust", () => {
  // The doc's summary sentence says `data__` for OpenClaw too; OpenClaw replaces with `-` (its own section 3
  // table and source), so it gives two dashes.
  it.each([
    ["claude-code", "mcp__x__data__"],
    ["gemini-cli", "mcp_x_data__"],
    ["openclaw", "x__data--"],
    ["hermes-legacy", "mcp_x_data_"],
    ["hermes", "mcp__x__data_"],
    ["codex", "mcp__x__data_"],
  ] as const)("%s: (x, data😀) -> %s", (harness, alias) => {
    expect(aliasFor(harness, "x", "data😀")).toBe(alias);
  });
});

describe("the project's own case: workplace_assistant tools", () => {
  it.each([
    ["claude-code", "mcp__workplace_assistant__email_reply_email"],
    ["hermes-legacy", "mcp_workplace_assistant_email_reply_email"],
    ["hermes", "mcp__workplace_assistant__email_reply_email"],
    ["openclaw", "workplace_assistant__email_reply_email"],
    ["codex", "mcp__workplace_assistant__email_reply_email"],
    ["gemini-cli", "mcp_workplace_assistant_email_reply_email"],
  ] as const)("%s -> %s", (harness, alias) => {
    expect(aliasFor(harness, WA, "email_reply_email")).toBe(alias);
    const map = buildAliasMap(harness, [{ server: WA, tool: "email_reply_email" }]);
    expect(lookupAlias(map, alias)).toEqual([{ server: WA, tool: "email_reply_email" }]);
    expect(lookupAlias(map, "email_reply_email")).toEqual([]);
  });

  it("workplace-assistant collides with workplace_assistant under Hermes, not under Claude Code", () => {
    const real = { server: WA, tool: "email_send_email" };
    const dashed = { server: "workplace-assistant", tool: "email_send_email" };
    const spaced = { server: "Workplace Assistant", tool: "email_send_email" };
    for (const h of ["hermes-legacy", "hermes", "codex"] as const) {
      const map = buildAliasMap(h, [real, dashed, spaced]);
      expect(map.collisions.map((c) => c.identities)).toEqual([[real, dashed]]);
    }
    for (const h of ["claude-code", "gemini-cli"] as const) {
      expect(buildAliasMap(h, [real, dashed, spaced]).collisions).toEqual([]);
    }
    // OpenClaw compares case-insensitively: "Workplace Assistant" -> "Workplace-Assistant" meets the dashed one.
    const claw = buildAliasMap("openclaw", [real, dashed, spaced]);
    expect(claw.collisions.map((c) => c.identities)).toEqual([[dashed, spaced]]);
    expect(claw.forward.get(identityKey(spaced))).toBe("Workplace-Assistant-2__email_send_email");
    // Elsewhere case is preserved, so "Workplace Assistant" never meets the real server.
    expect(aliasFor("hermes-legacy", spaced.server, spaced.tool)).toBe(
      "mcp_Workplace_Assistant_email_send_email",
    );
  });
});

describe("buildAliasMap", () => {
  it("ignores repeated identities", () => {
    const id = { server: "s", tool: "t" };
    const map = buildAliasMap("claude-code", [id, { ...id }]);
    expect(map.collisions).toEqual([]);
    expect(lookupAlias(map, "mcp__s__t")).toEqual([id]);
  });

  it("records the harness", () => {
    expect(buildAliasMap("openclaw", []).harness).toBe("openclaw");
  });

  const identity = fc.record({
    server: fc.constantFrom("s", "s-1", "s_1", "s.1", "S", "a__b", "a", "data😀", "x".repeat(40)),
    tool: fc.constantFrom("t", "t-1", "t_1", "t.1", "T", "b__c", "c", "", " ", "y".repeat(70)),
  });

  it.each(ALL_RULES)("%s: forward, inverse and collisions agree on arbitrary configurations", (rule) => {
    fc.assert(
      fc.property(fc.array(identity, { maxLength: 12 }), (ids: ToolIdentity[]) => {
        const map = buildAliasMap(rule, ids);
        const keys = new Set(ids.map(identityKey));
        // Every alias offered can be looked up and leads back to its identity.
        for (const [key, alias] of map.forward) {
          expect(keys.has(key)).toBe(true);
          expect(lookupAlias(map, alias).map(identityKey)).toContain(key);
        }
        // Inverse lists identities from the configuration, each once.
        for (const list of map.inverse.values()) {
          const listKeys = list.map(identityKey);
          expect(new Set(listKeys).size).toBe(listKeys.length);
          for (const k of listKeys) expect(keys.has(k)).toBe(true);
        }
        // Each collision names 2+ distinct identities and says who got what.
        for (const c of map.collisions) {
          expect(new Set(c.identities.map(identityKey)).size).toBeGreaterThanOrEqual(2);
          expect(c.resolution.length).toBeGreaterThan(0);
        }
        // Outside Codex's undetected flat collisions, no two identities are offered the same alias.
        if (!rule.startsWith("codex-e6") && rule !== "codex") {
          const aliases = [...map.forward.values()];
          expect(new Set(aliases).size).toBe(aliases.length);
        }
      }),
    );
  });

  it.each(ALL_RULES)("%s: a lone identity's alias is aliasFor", (rule) => {
    fc.assert(
      fc.property(identity, (id) => {
        const alias = buildAliasMap(rule, [id]).forward.get(identityKey(id));
        if (alias !== undefined) expect(alias).toBe(aliasFor(rule, id.server, id.tool));
      }),
    );
  });

  it.each(ALL_RULES)("%s: an alias shared by two identities is always reported as a collision", (rule) => {
    fc.assert(
      fc.property(fc.array(identity, { maxLength: 8 }), (ids: ToolIdentity[]) => {
        const map = buildAliasMap(rule, ids);
        const collided = new Set(map.collisions.flatMap((c) => c.identities.map(identityKey)));
        for (const list of map.inverse.values()) {
          if (list.length > 1) for (const id of list) expect(collided.has(identityKey(id))).toBe(true);
        }
      }),
    );
  });
});
