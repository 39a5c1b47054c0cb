import { describe, expect, it } from "vitest";
import { GEMINI_MAX_NAME_LENGTH } from "./gemini-cli";
import { aliasFor, buildAliasMap, identityKey, lookupAlias } from "./index";

describe("Gemini CLI worked examples (docs/harness-aliases.md section 5)", () => {
  it.each([
    ["github", "create_issue", "mcp_github_create_issue"],
    ["my.server", "get-data", "mcp_my.server_get-data"],
    ["My Server", "Query.Run", "mcp_My_Server_Query.Run"],
    ["data😀", "lookup", "mcp_data___lookup"],
    ["plugin:claude-mem:mem-search", "search", "mcp_plugin:claude-mem:mem-search_search"],
    [
      "enterprise-database-management",
      "synchronize-all-customer-data-across-multiple-systems",
      "mcp_enterprise-database-manage...r-data-across-multiple-systems",
    ],
  ])("(%s, %s) -> %s", (server, tool, alias) => {
    expect(aliasFor("gemini-cli", server, tool)).toBe(alias);
  });

  it("shortens to exactly 63", () => {
    expect(aliasFor("gemini-cli", "enterprise-database-management", "x".repeat(60))).toHaveLength(
      GEMINI_MAX_NAME_LENGTH,
    );
  });

  it("replaces an emoji per UTF-16 unit: two underscores", () => {
    expect(aliasFor("gemini-cli", "x", "data😀")).toBe("mcp_x_data__");
  });

  it("does not double the prefix for a server named mcp or mcp_x", () => {
    expect(aliasFor("gemini-cli", "mcp", "github_x")).toBe("mcp_github_x");
    expect(aliasFor("gemini-cli", "mcp_github", "x")).toBe("mcp_github_x");
  });

  it("warns that dots and colons are legal only on Gemini", () => {
    const map = buildAliasMap("gemini-cli", [{ server: "my.server", tool: "get-data" }]);
    expect(map.warnings.some((w) => /outside/.test(w.message))).toBe(true);
  });
});

describe("Gemini CLI collisions: last registered wins", () => {
  it("(mcp, github_x), (github, x) and (mcp_github, x) all give mcp_github_x", () => {
    const ids = [
      { server: "mcp", tool: "github_x" },
      { server: "github", tool: "x" },
      { server: "mcp_github", tool: "x" },
    ];
    const map = buildAliasMap("gemini-cli", ids);
    expect(map.collisions).toHaveLength(1);
    expect(map.collisions[0]?.alias).toBe("mcp_github_x");
    expect(lookupAlias(map, "mcp_github_x")).toEqual(ids);
    expect([...map.forward.entries()]).toEqual([[identityKey(ids[2]!), "mcp_github_x"]]);
    expect(map.collisions[0]?.resolution).toMatch(/last wins/);
  });

  it.each([
    [
      { server: "my_server", tool: "query" },
      { server: "my", tool: "server_query" },
    ],
    [
      { server: "My Server", tool: "x" },
      { server: "My_Server", tool: "x" },
    ],
    [
      { server: "enterprise-database-management", tool: `a-${"m".repeat(40)}-data-across-multiple-systems` },
      { server: "enterprise-database-management", tool: `b-${"m".repeat(40)}-data-across-multiple-systems` },
    ],
  ])("%o and %o collide", (a, b) => {
    const map = buildAliasMap("gemini-cli", [a, b]);
    expect(map.collisions[0]?.identities).toEqual([a, b]);
    expect(map.forward.has(identityKey(a))).toBe(false);
    expect(map.forward.has(identityKey(b))).toBe(true);
  });

  it("foo-bar and foo_bar do not collide", () => {
    const map = buildAliasMap("gemini-cli", [
      { server: "foo-bar", tool: "x" },
      { server: "foo_bar", tool: "x" },
    ]);
    expect(map.collisions).toEqual([]);
  });
});
