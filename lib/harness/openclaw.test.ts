import { describe, expect, it } from "vitest";
import { aliasFor, buildAliasMap, identityKey, lookupAlias } from "./index";
import { OPENCLAW_MAX_PREFIX, OPENCLAW_MAX_TOTAL, openclawServerName } from "./openclaw";

describe("OpenClaw worked examples (docs/harness-aliases.md section 3)", () => {
  it.each([
    ["github", "create_issue", "github__create_issue"],
    ["my.server", "get-data", "my-server__get-data"],
    ["My Server", "Query.Run", "My-Server__Query-Run"],
    ["data😀", "lookup", "data--__lookup"],
    ["12306", "2024-query", "mcp-12306__tool-2024-query"],
    [
      "enterprise-database-management",
      "synchronize-all-customer-data-across-multiple-systems",
      "enterprise-database-management__synchronize-all-customer-data-ac",
    ],
  ])("(%s, %s) -> %s", (server, tool, alias) => {
    expect(aliasFor("openclaw", server, tool)).toBe(alias);
    expect(alias.length).toBeLessThanOrEqual(OPENCLAW_MAX_TOTAL);
  });

  it("replaces an emoji per UTF-16 unit with dashes", () => {
    expect(aliasFor("openclaw", "x", "data😀")).toBe("x__data--");
  });

  it("trims whitespace before sanitizing and falls back for blank servers", () => {
    expect(aliasFor("openclaw", "  github ", " create_issue ")).toBe("github__create_issue");
    expect(aliasFor("openclaw", "   ", "x")).toBe("mcp__x");
  });

  it("caps the server fragment at 30", () => {
    const server = "s".repeat(40);
    expect(aliasFor("openclaw", server, "t")).toBe(`${"s".repeat(OPENCLAW_MAX_PREFIX)}__t`);
  });

  it("a reserved built-in name pushes the MCP tool to -2", () => {
    const id = { server: "memory", tool: "status" };
    const map = buildAliasMap("openclaw", [id], { reservedNames: ["memory__status"] });
    expect(map.forward.get(identityKey(id))).toBe("memory__status-2");
    expect(lookupAlias(map, "memory__status-2")).toEqual([id]);
    expect(map.warnings.some((w) => /reserved/.test(w.message))).toBe(true);
  });

  it("reserved names compare case-insensitively", () => {
    const id = { server: "memory", tool: "status" };
    const map = buildAliasMap("openclaw", [id], { reservedNames: ["MEMORY__STATUS", "memory__status-2"] });
    expect(map.forward.get(identityKey(id))).toBe("memory__status-3");
  });

  it("skips a tool whose name is blank", () => {
    const blank = { server: "s", tool: "  " };
    const map = buildAliasMap("openclaw", [blank]);
    expect(map.forward.size).toBe(0);
    expect(map.inverse.size).toBe(0);
    expect(map.warnings[0]?.message).toMatch(/skips/);
  });
});

describe("OpenClaw collisions: -2 suffixes, every tool kept", () => {
  it("servers foo-bar and foo:bar in that order -> foo-bar and foo-bar-2", () => {
    const a = { server: "foo-bar", tool: "x" };
    const b = { server: "foo:bar", tool: "x" };
    const map = buildAliasMap("openclaw", [a, b]);
    expect(map.forward.get(identityKey(a))).toBe("foo-bar__x");
    expect(map.forward.get(identityKey(b))).toBe("foo-bar-2__x");
    expect(lookupAlias(map, "foo-bar__x")).toEqual([a, b]);
    expect(lookupAlias(map, "foo-bar-2__x")).toEqual([b]);
    expect(map.collisions[0]?.resolution).toContain('becomes "foo-bar-2__x"');
  });

  it("server order decides: foo:bar first takes foo-bar", () => {
    const a = { server: "foo-bar", tool: "x" };
    const b = { server: "foo:bar", tool: "x" };
    const map = buildAliasMap("openclaw", [b, a]);
    expect(map.forward.get(identityKey(b))).toBe("foo-bar__x");
    expect(map.forward.get(identityKey(a))).toBe("foo-bar-2__x");
  });

  it("a server rename applies to tools that do not collide, with a warning", () => {
    const map = buildAliasMap("openclaw", [
      { server: "foo-bar", tool: "x" },
      { server: "foo:bar", tool: "y" },
    ]);
    expect(map.forward.get(identityKey({ server: "foo:bar", tool: "y" }))).toBe("foo-bar-2__y");
    expect(map.collisions).toEqual([]);
    expect(map.warnings[0]?.message).toMatch(/renames server/);
  });

  it("servers GitHub and github -> GitHub and github-2 (case-insensitive)", () => {
    const a = { server: "GitHub", tool: "x" };
    const b = { server: "github", tool: "x" };
    const map = buildAliasMap("openclaw", [a, b]);
    expect(map.forward.get(identityKey(a))).toBe("GitHub__x");
    expect(map.forward.get(identityKey(b))).toBe("github-2__x");
    expect(map.collisions).toHaveLength(1);
    expect(map.collisions[0]?.identities).toEqual([a, b]);
  });

  it("tools read.file and read-file on one server: sorted, read-file keeps the name", () => {
    const dot = { server: "files", tool: "read.file" };
    const dash = { server: "files", tool: "read-file" };
    for (const order of [
      [dot, dash],
      [dash, dot],
    ]) {
      const map = buildAliasMap("openclaw", order);
      expect(map.forward.get(identityKey(dash))).toBe("files__read-file");
      expect(map.forward.get(identityKey(dot))).toBe("files__read-file-2");
    }
  });

  it("(a__b, c) and (a, b__c) -> a__b__c and a__b__c-2", () => {
    // The doc lists the pair without saying which gets which. OpenClaw sorts by safe server name with
    // localeCompare, and "a" sorts before "a__b", so (a, b__c) keeps the clean name in either config order.
    const ab = { server: "a__b", tool: "c" };
    const a = { server: "a", tool: "b__c" };
    for (const order of [
      [ab, a],
      [a, ab],
    ]) {
      const map = buildAliasMap("openclaw", order);
      expect(map.forward.get(identityKey(a))).toBe("a__b__c");
      expect(map.forward.get(identityKey(ab))).toBe("a__b__c-2");
    }
  });

  it("foo-bar and foo_bar do not collide", () => {
    const map = buildAliasMap("openclaw", [
      { server: "foo-bar", tool: "x" },
      { server: "foo_bar", tool: "x" },
    ]);
    expect(map.collisions).toEqual([]);
    expect([...map.forward.values()]).toEqual(["foo-bar__x", "foo_bar__x"]);
  });

  it("adding a server can rename another server's tools", () => {
    const b = { server: "foo:bar", tool: "x" };
    expect(buildAliasMap("openclaw", [b]).forward.get(identityKey(b))).toBe("foo-bar__x");
    expect(buildAliasMap("openclaw", [{ server: "foo-bar", tool: "z" }, b]).forward.get(identityKey(b))).toBe(
      "foo-bar-2__x",
    );
  });

  it("-N suffixes stay within 30 for servers and 64 in total", () => {
    const used = new Set<string>();
    const long = "s".repeat(40);
    expect(openclawServerName(long, used)).toBe("s".repeat(30));
    expect(openclawServerName(`${long}!`, used)).toBe(`${"s".repeat(28)}-2`);
    const ids = [0, 1, 2].map(() => ({ server: "srv", tool: "t".repeat(80) }));
    ids[1] = { server: "srv", tool: `${"t".repeat(80)}.` };
    ids[2] = { server: "srv", tool: `${"t".repeat(80)}:` };
    const map = buildAliasMap("openclaw", ids);
    for (const alias of map.forward.values()) expect(alias.length).toBeLessThanOrEqual(OPENCLAW_MAX_TOTAL);
    expect(new Set(map.forward.values()).size).toBe(3);
  });
});
