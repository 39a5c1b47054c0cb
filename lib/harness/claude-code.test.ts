import { describe, expect, it } from "vitest";
import { aliasFor, buildAliasMap, identityKey, lookupAlias } from "./index";

const LONG_SERVER = "enterprise-database-management";
const LONG_TOOL = "synchronize-all-customer-data-across-multiple-systems";

describe("Claude Code worked examples (docs/harness-aliases.md section 1)", () => {
  it.each([
    ["github", "create_issue", "mcp__github__create_issue"],
    ["my.server", "get-data", "mcp__my_server__get-data"],
    ["My Server", "Query.Run", "mcp__My_Server__Query_Run"],
    ["café", "résumé", "mcp__caf___r_sum_"],
    ["data😀", "lookup", "mcp__data____lookup"],
    ["claude.ai Google Drive", "search", "mcp__claude_ai_Google_Drive__search"],
    ["plugin:claude-mem:mem-search", "search", "mcp__plugin_claude-mem_mem-search__search"],
    ["fs", "read__file", "mcp__fs__read__file"],
  ])("(%s, %s) -> %s", (server, tool, alias) => {
    expect(aliasFor("claude-code", server, tool)).toBe(alias);
  });

  it("replaces an emoji per UTF-16 unit: two underscores", () => {
    expect(aliasFor("claude-code", "data😀", "x")).toBe("mcp__data____x");
    expect(aliasFor("claude-code", "x", "data😀")).toBe("mcp__x__data__");
  });

  it("collapses and trims underscores only for claude.ai connectors", () => {
    expect(aliasFor("claude-code", "claude.ai  Drive!", "s")).toBe("mcp__claude_ai_Drive__s");
    expect(aliasFor("claude-code", "a  Drive!", "s")).toBe("mcp__a__Drive___s");
  });

  it("sends a 90-char name unshortened and warns that the API rejects it", () => {
    const alias = aliasFor("claude-code", LONG_SERVER, LONG_TOOL);
    expect(alias).toBe(`mcp__${LONG_SERVER}__${LONG_TOOL}`);
    expect(alias.length).toBe(90);
    const map = buildAliasMap("claude-code", [{ server: LONG_SERVER, tool: LONG_TOOL }]);
    expect(map.warnings.map((w) => w.message).join("\n")).toMatch(/90 chars/);
  });
});

describe("Claude Code collisions: first wins, silently", () => {
  it.each([
    [{ server: "a__b", tool: "c" }, { server: "a", tool: "b__c" }, "mcp__a__b__c"],
    [{ server: "my.server", tool: "x" }, { server: "my_server", tool: "x" }, "mcp__my_server__x"],
    [{ server: "My Server", tool: "x" }, { server: "My_Server", tool: "x" }, "mcp__My_Server__x"],
    [{ server: "café", tool: "x" }, { server: "caf_", tool: "x" }, "mcp__caf___x"],
  ])("%o and %o share %s; the first keeps it", (first, second, alias) => {
    const map = buildAliasMap("claude-code", [first, second]);
    expect(map.forward.get(identityKey(first))).toBe(alias);
    expect(map.forward.has(identityKey(second))).toBe(false);
    expect(lookupAlias(map, alias)).toEqual([first, second]);
    expect(map.collisions).toHaveLength(1);
    expect(map.collisions[0]?.alias).toBe(alias);
    expect(map.collisions[0]?.resolution).toMatch(/first/);
    expect(map.collisions[0]?.resolution).toContain("dropped");
  });

  it("reversed order flips the winner", () => {
    const a = { server: "my.server", tool: "x" };
    const b = { server: "my_server", tool: "x" };
    const map = buildAliasMap("claude-code", [b, a]);
    expect(map.forward.get(identityKey(b))).toBe("mcp__my_server__x");
    expect(map.forward.has(identityKey(a))).toBe(false);
  });

  it("foo-bar and foo_bar do not collide: the dash is kept", () => {
    const map = buildAliasMap("claude-code", [
      { server: "foo-bar", tool: "x" },
      { server: "foo_bar", tool: "x" },
    ]);
    expect(map.collisions).toEqual([]);
    expect([...map.forward.values()]).toEqual(["mcp__foo-bar__x", "mcp__foo_bar__x"]);
  });

  it("warns that a server holding __ parses back wrongly", () => {
    const map = buildAliasMap("claude-code", [{ server: "a__b", tool: "c" }]);
    expect(map.warnings.some((w) => /parses/.test(w.message))).toBe(true);
  });
});
