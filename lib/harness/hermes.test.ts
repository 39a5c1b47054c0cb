import { describe, expect, it } from "vitest";
import { HERMES_HASH_HEX_LENGTH, HERMES_MAX_NAME_LENGTH } from "./hermes";
import { aliasFor, buildAliasMap, identityKey, lookupAlias } from "./index";
import { sha256Hex } from "./text";

const LONG_SERVER = "enterprise-database-management";
const LONG_TOOL = "synchronize-all-customer-data-across-multiple-systems";

// docs/harness-aliases.md section 2, worked examples: [server, tool, era A, era B, era C, era D].
const TABLE: readonly (readonly [string, string, string, string, string, string])[] = [
  [
    "github",
    "create_issue",
    "mcp_github_create_issue",
    "mcp_github_create_issue",
    "mcp__github__create_issue",
    "mcp__github__create_issue",
  ],
  [
    "my.server",
    "get-data",
    "mcp_my_server_get_data",
    "mcp_my_server_get_data",
    "mcp__my_server__get_data",
    "mcp__my_server__get_data",
  ],
  [
    "My Server",
    "Query.Run",
    "mcp_My Server_Query_Run",
    "mcp_My_Server_Query_Run",
    "mcp__My_Server__Query_Run",
    "mcp__My_Server__Query_Run",
  ],
  ["data😀", "lookup", "mcp_data😀_lookup", "mcp_data__lookup", "mcp__data___lookup", "mcp__data___lookup"],
  [
    "12306",
    "query-tickets",
    "mcp_12306_query_tickets",
    "mcp_12306_query_tickets",
    "mcp__12306__query_tickets",
    "mcp__12306__query_tickets",
  ],
];

describe("Hermes worked examples, every era", () => {
  it.each(TABLE)("(%s, %s)", (server, tool, a, b, c, d) => {
    expect(aliasFor("hermes-a", server, tool)).toBe(a);
    expect(aliasFor("hermes-legacy", server, tool)).toBe(b);
    expect(aliasFor("hermes-c", server, tool)).toBe(c);
    expect(aliasFor("hermes", server, tool)).toBe(d);
  });

  it("replaces an emoji per code point: one underscore (Python re.sub)", () => {
    expect(aliasFor("hermes-legacy", "data😀", "x")).toBe("mcp_data__x");
    expect(aliasFor("hermes", "x", "data😀")).toBe("mcp__x__data_");
  });

  it("keeps empty components and inner __", () => {
    expect(aliasFor("hermes", "x", "")).toBe("mcp__x__");
    expect(aliasFor("hermes", "a__b", "c")).toBe("mcp__a__b__c");
  });

  it("long name: 88 chars in eras A/B, 90 in C, clamped to 64 with the documented sha256 suffix in D", () => {
    expect(aliasFor("hermes-a", LONG_SERVER, LONG_TOOL)).toHaveLength(88);
    expect(aliasFor("hermes-legacy", LONG_SERVER, LONG_TOOL)).toHaveLength(88);
    const full = aliasFor("hermes-c", LONG_SERVER, LONG_TOOL);
    expect(full).toHaveLength(90);
    const clamped = aliasFor("hermes", LONG_SERVER, LONG_TOOL);
    expect(clamped).toBe("mcp__enterprise_database_management__synchronize_all_cu_96fb0d6d");
    expect(clamped).toHaveLength(HERMES_MAX_NAME_LENGTH);
    // The documented hash is sha256 of the full era-C name, as the rule says.
    expect(clamped.endsWith(`_${sha256Hex(full).slice(0, HERMES_HASH_HEX_LENGTH)}`)).toBe(true);
  });

  it("era D: two long names sharing the first 56 chars still differ", () => {
    const a = aliasFor("hermes", LONG_SERVER, `${LONG_TOOL}_one`);
    const b = aliasFor("hermes", LONG_SERVER, `${LONG_TOOL}_two`);
    expect(a.slice(0, 56)).toBe(b.slice(0, 56));
    expect(a).not.toBe(b);
  });

  it("era D leaves a name of exactly 64 alone", () => {
    const tool = "t".repeat(HERMES_MAX_NAME_LENGTH - "mcp__s__".length);
    expect(aliasFor("hermes", "s", tool)).toBe(`mcp__s__${tool}`);
  });
});

describe("Hermes collisions", () => {
  const fooDash = { server: "foo-bar", tool: "search" };
  const fooUnder = { server: "foo_bar", tool: "search" };

  it.each(["hermes-a", "hermes-legacy", "hermes-c", "hermes"] as const)(
    "%s: (foo-bar, search) and (foo_bar, search) collide",
    (era) => {
      const map = buildAliasMap(era, [fooDash, fooUnder]);
      expect(map.collisions).toHaveLength(1);
      expect(lookupAlias(map, map.collisions[0]!.alias)).toEqual([fooDash, fooUnder]);
    },
  );

  it("one server: read-file, read_file and read.file collide in every era", () => {
    const ids = ["read-file", "read_file", "read.file"].map((tool) => ({ server: "files", tool }));
    for (const era of ["hermes-a", "hermes-legacy", "hermes-c", "hermes"] as const) {
      const map = buildAliasMap(era, ids);
      expect(map.collisions).toHaveLength(1);
      expect(map.collisions[0]?.identities).toEqual(ids);
    }
  });

  it("legacy (era B): the last registration wins", () => {
    const map = buildAliasMap("hermes-legacy", [fooDash, fooUnder]);
    expect(map.forward.has(identityKey(fooDash))).toBe(false);
    expect(map.forward.get(identityKey(fooUnder))).toBe("mcp_foo_bar_search");
    expect(map.collisions[0]?.resolution).toMatch(/last wins/);
  });

  it("single-underscore eras: (my_server, query) and (my, server_query) collide; eras C/D do not", () => {
    const ids = [
      { server: "my_server", tool: "query" },
      { server: "my", tool: "server_query" },
    ];
    expect(buildAliasMap("hermes-legacy", ids).collisions[0]?.alias).toBe("mcp_my_server_query");
    expect(buildAliasMap("hermes-a", ids).collisions).toHaveLength(1);
    expect(buildAliasMap("hermes", ids).collisions).toEqual([]);
  });

  it("eras C/D: (a__b, c) and (a, b__c) collide", () => {
    const ids = [
      { server: "a__b", tool: "c" },
      { server: "a", tool: "b__c" },
    ];
    expect(buildAliasMap("hermes-c", ids).collisions[0]?.alias).toBe("mcp__a__b__c");
    expect(buildAliasMap("hermes", ids).collisions[0]?.alias).toBe("mcp__a__b__c");
  });

  it("era D fails closed within a server: every member is skipped", () => {
    const ids = [
      { server: "files", tool: "read-file" },
      { server: "files", tool: "read_file" },
      { server: "files", tool: "write" },
    ];
    const map = buildAliasMap("hermes", ids);
    expect(map.forward.has(identityKey(ids[0]!))).toBe(false);
    expect(map.forward.has(identityKey(ids[1]!))).toBe(false);
    expect(map.forward.get(identityKey(ids[2]!))).toBe("mcp__files__write");
    expect(map.collisions[0]?.resolution).toMatch(/fails closed/);
  });

  it("era D across servers: the existing owner keeps the name", () => {
    const map = buildAliasMap("hermes", [fooDash, fooUnder]);
    expect(map.forward.get(identityKey(fooDash))).toBe("mcp__foo_bar__search");
    expect(map.forward.has(identityKey(fooUnder))).toBe(false);
  });

  it("era D: when a server's own members are skipped, a later server becomes the owner", () => {
    const ids = [
      { server: "x-y", tool: "a-b" },
      { server: "x-y", tool: "a.b" },
      { server: "x.y", tool: "a_b" },
    ];
    // All three produce mcp__x_y__a_b. Reading of the doc: nothing of x-y registers, so no owner exists yet.
    const map = buildAliasMap("hermes", ids);
    expect([...map.forward.entries()]).toEqual([[identityKey(ids[2]!), "mcp__x_y__a_b"]]);
    expect(map.collisions[0]?.identities).toEqual(ids);
  });

  it("era A warns that spaces and emoji make an invalid provider name", () => {
    const map = buildAliasMap("hermes-a", [{ server: "My Server", tool: "Query.Run" }]);
    expect(map.warnings.some((w) => /outside/.test(w.message))).toBe(true);
  });
});
