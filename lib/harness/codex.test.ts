import { describe, expect, it } from "vitest";
import { CODEX_E5_MAX_LENGTH, CODEX_HASH_HEX_LENGTH, codexServerRejection } from "./codex";
import { aliasFor, buildAliasMap, identityKey, lookupAlias } from "./index";
import { sha1Hex } from "./text";

const LONG_SERVER = "enterprise-database-management";
const LONG_TOOL = "synchronize-all-customer-data-across-multiple-systems";

/** The raw identity Codex hashes: server, namespace, connector id, callable name, tool name. */
const rawNamespace = (server: string) => `${server}\0${server}\0`;
const rawTool = (server: string, tool: string) => `${rawNamespace(server)}\0${tool}\0${tool}`;
const h12 = (s: string) => `_${sha1Hex(s).slice(0, CODEX_HASH_HEX_LENGTH)}`;

// docs/harness-aliases.md section 4, worked examples: [server, tool, E2, E3, E4, E5 flattened].
const TABLE: readonly (readonly [string, string, string, string, string, string])[] = [
  [
    "github",
    "create_issue",
    "mcp__github__create_issue",
    "mcp__github__create_issue",
    "mcp__github__create_issue",
    "mcp__github__create_issue",
  ],
  [
    "foo-bar",
    "get-data",
    "mcp__foo-bar__get-data",
    "mcp__foo-bar__get-data",
    "mcp__foo_bar__get_data",
    "mcp__foo_bar__get_data",
  ],
  [
    "fs",
    "read__file",
    "mcp__fs__read__file",
    "mcp__fs__read__file",
    "mcp__fs__read__file",
    "mcp__fs__read__file",
  ],
  [
    "docs",
    "Query.Run",
    "mcp__docs__Query.Run",
    "mcp__docs__Query_Run",
    "mcp__docs__Query_Run",
    "mcp__docs__Query_Run",
  ],
];

describe("Codex worked examples, every era", () => {
  it.each(TABLE)("(%s, %s)", (server, tool, e2, e3, e4, e5) => {
    expect(aliasFor("codex-e2", server, tool)).toBe(e2);
    expect(aliasFor("codex-e3", server, tool)).toBe(e3);
    expect(aliasFor("codex-e4", server, tool)).toBe(e4);
    expect(aliasFor("codex", server, tool)).toBe(e5);
    expect(aliasFor("codex-e6", server, tool)).toBe(e5);
  });

  it("long name: E2/E3 keep 24 chars + full sha1 of the raw name, E4 sanitizes the kept part", () => {
    const hash = "a02126b8b8bd3dfb8771332836325e77578b8721";
    expect(sha1Hex(`mcp__${LONG_SERVER}__${LONG_TOOL}`)).toBe(hash);
    expect(aliasFor("codex-e2", LONG_SERVER, LONG_TOOL)).toBe(`mcp__enterprise-database${hash}`);
    expect(aliasFor("codex-e3", LONG_SERVER, LONG_TOOL)).toBe(`mcp__enterprise-database${hash}`);
    expect(aliasFor("codex-e4", LONG_SERVER, LONG_TOOL)).toBe(`mcp__enterprise_database${hash}`);
  });

  it("long name: E5 truncates the tool part and appends 12 hex of sha1 of the raw identity (64)", () => {
    const alias = aliasFor("codex", LONG_SERVER, LONG_TOOL);
    expect(alias).toBe("mcp__enterprise_database_management__synchronize_al_9b6706630645");
    expect(alias).toHaveLength(CODEX_E5_MAX_LENGTH);
    expect(alias.endsWith(h12(rawTool(LONG_SERVER, LONG_TOOL)))).toBe(true);
  });

  it("long name: the map offers and inverts only the fitted name, with a warning", () => {
    const id = { server: LONG_SERVER, tool: LONG_TOOL };
    const map = buildAliasMap("codex", [id]);
    const fitted = "mcp__enterprise_database_management__synchronize_al_9b6706630645";
    expect(map.forward.get(identityKey(id))).toBe(fitted);
    expect(lookupAlias(map, fitted)).toEqual([id]);
    expect(
      lookupAlias(
        map,
        "mcp__enterprise_database_management__synchronize_all_customer_data_across_multiple_systems",
      ),
    ).toEqual([]);
    expect(map.collisions).toEqual([]);
    expect(map.warnings.map((w) => w.message).join("\n")).toMatch(/does not fit in 64/);
  });

  it("aliasFor still names a tool of a server Codex refuses, from the naming rule alone", () => {
    expect(aliasFor("codex", "my.server", "x")).toBe("mcp__my_server__x");
  });

  it("long name: E6 (128) keeps the full 90-char name", () => {
    expect(aliasFor("codex-e6", LONG_SERVER, LONG_TOOL)).toBe(
      "mcp__enterprise_database_management__synchronize_all_customer_data_across_multiple_systems",
    );
  });

  it("replaces an emoji per code point: one underscore (Rust chars())", () => {
    expect(aliasFor("codex", "data", "data😀")).toBe("mcp__data__data_");
    expect(aliasFor("codex-e3", "data", "data😀")).toBe("mcp__data__data_");
  });

  it("an empty tool name sanitizes to _", () => {
    expect(aliasFor("codex", "s", "")).toBe("mcp__s___");
  });

  it("a server already prefixed mcp__ is not prefixed again", () => {
    expect(aliasFor("codex", "mcp__x", "t")).toBe("mcp__x__t");
  });

  it.each(["my.server", "My Server", "claude.ai X", "data😀"])("rejects server %s at startup", (server) => {
    expect(codexServerRejection(server)).toMatch(/refuses/);
    for (const era of ["codex", "codex-e2", "codex-e3", "codex-e4", "codex-e6"] as const) {
      const map = buildAliasMap(era, [{ server, tool: "x" }]);
      expect(map.forward.size).toBe(0);
      expect(map.inverse.size).toBe(0);
      expect(map.warnings.map((w) => w.message)).toContain(codexServerRejection(server));
    }
  });

  it("accepts valid server names", () => {
    expect(codexServerRejection("foo-bar_1")).toBeNull();
  });
});

describe("Codex collisions", () => {
  it("E3: (docs, a.b) and (docs, a_b) -> the second is dropped; E4 adds a-b to the group", () => {
    const ids = ["a.b", "a_b", "a-b"].map((tool) => ({ server: "docs", tool }));
    const e3 = buildAliasMap("codex-e3", ids);
    expect([...e3.forward.entries()]).toEqual([
      [identityKey(ids[0]!), "mcp__docs__a_b"],
      [identityKey(ids[2]!), "mcp__docs__a-b"],
    ]);
    expect(e3.collisions[0]?.identities).toEqual([ids[0], ids[1]]);
    const e4 = buildAliasMap("codex-e4", ids);
    expect([...e4.forward.keys()]).toEqual([identityKey(ids[0]!)]);
    expect(e4.collisions[0]?.identities).toEqual(ids);
    expect(e4.collisions[0]?.resolution).toMatch(/first/);
  });

  it("E5: (foo-bar, search) and (foo_bar, search) -> both namespaces hashed, independent of order", () => {
    const a = { server: "foo-bar", tool: "search" };
    const b = { server: "foo_bar", tool: "search" };
    for (const order of [
      [a, b],
      [b, a],
    ]) {
      const map = buildAliasMap("codex", order);
      expect(map.forward.get(identityKey(a))).toBe("mcp__foo_bar_931946a43e34__search");
      expect(map.forward.get(identityKey(b))).toBe("mcp__foo_bar_e0f6b7fd4292__search");
      expect(lookupAlias(map, "mcp__foo_bar__search")).toHaveLength(2);
      expect(lookupAlias(map, "mcp__foo_bar_931946a43e34__search")).toEqual([a]);
    }
    expect(h12(rawNamespace("foo-bar"))).toBe("_931946a43e34");
  });

  it("E5: (files, read-file) and (files, read_file) -> both tool names hashed", () => {
    const a = { server: "files", tool: "read-file" };
    const b = { server: "files", tool: "read_file" };
    const map = buildAliasMap("codex", [a, b]);
    expect(map.forward.get(identityKey(a))).toBe("mcp__files__read_file_1c6171b30e4e");
    expect(map.forward.get(identityKey(b))).toBe("mcp__files__read_file_9862e773611f");
    expect(h12(rawTool("files", "read-file"))).toBe("_1c6171b30e4e");
    expect(map.collisions[0]?.resolution).toMatch(/independent of order/);
  });

  it("E5: (a__b, c) and (a, b__c) are not detected; both flatten to mcp__a__b__c", () => {
    const a = { server: "a__b", tool: "c" };
    const b = { server: "a", tool: "b__c" };
    const map = buildAliasMap("codex", [a, b]);
    expect(map.forward.get(identityKey(a))).toBe("mcp__a__b__c");
    expect(map.forward.get(identityKey(b))).toBe("mcp__a__b__c");
    expect(map.collisions[0]?.identities).toEqual([a, b]);
    expect(map.warnings.some((w) => /flatten/.test(w.message))).toBe(true);
  });

  it("E5: two long names hashed to fit never share an alias", () => {
    const ids = [`${LONG_TOOL}_one`, `${LONG_TOOL}_two`].map((tool) => ({ server: LONG_SERVER, tool }));
    const map = buildAliasMap("codex", ids);
    const aliases = [...map.forward.values()];
    expect(new Set(aliases).size).toBe(2);
    for (const alias of aliases) expect(alias).toHaveLength(CODEX_E5_MAX_LENGTH);
  });

  it("E5: a very long namespace is cut and the hash becomes the whole function name", () => {
    const server = "s".repeat(70);
    const alias = aliasFor("codex", server, "t");
    const suffix = h12(rawTool(server, "t"));
    expect(alias).toBe(`mcp__${"s".repeat(CODEX_E5_MAX_LENGTH - suffix.length - 2 - 5)}__${suffix}`);
    expect(alias).toHaveLength(CODEX_E5_MAX_LENGTH);
  });
});
