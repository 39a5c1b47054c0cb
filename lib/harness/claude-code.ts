/**
 * Claude Code (docs/harness-aliases.md section 1): `mcp__` + normalize(server) + `__` + normalize(tool).
 * Not modelled: the Agent SDK's CLAUDE_AGENT_SDK_MCP_NO_PREFIX (raw tool names for in-process servers).
 */
import { type AliasRule, firstWins, formatIdentity, providerWarnings } from "./rule";
import type { AliasWarning, ToolIdentity } from "./types";

const CLAUDE_AI_PREFIX = "claude.ai ";

/** normalizeNameForMCP. The regex has no `u` flag on purpose: one astral character becomes two `_`. */
export function normalizeClaudeCodeName(name: string): string {
  let n = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  // claude.ai-hosted connectors ("claude.ai Google Drive") also collapse runs and trim edge underscores.
  if (name.startsWith(CLAUDE_AI_PREFIX)) n = n.replace(/_+/g, "_").replace(/^_|_$/g, "");
  return n;
}

export function claudeCodeAlias(server: string, tool: string): string {
  return `mcp__${normalizeClaudeCodeName(server)}__${normalizeClaudeCodeName(tool)}`;
}

export const claudeCode: AliasRule = {
  id: "claude-code",
  label: "Claude Code",
  pattern: "mcp__{server}__{tool}, [^a-zA-Z0-9_-] -> _ per UTF-16 unit, no length limit",
  collisionPolicy:
    "Claude Code keeps the first tool after a stable sort by name (uniqBy in assembleToolPool), i.e. the first in configuration order, and silently drops the others.",
  collisionKey: (alias) => alias,
  name: claudeCodeAlias,
  assign(identities: readonly ToolIdentity[]) {
    const produced = identities.map((id) => claudeCodeAlias(id.server, id.tool));
    const final = firstWins(produced);
    const warnings: AliasWarning[] = providerWarnings(identities, final, "Claude Code");
    for (const id of identities) {
      // mcpInfoFromString splits at `__`: parts[1] is the server, so a server holding `__` mis-parses.
      if (normalizeClaudeCodeName(id.server).includes("__")) {
        warnings.push({
          identities: [id],
          message: `Claude Code parses ${formatIdentity(id)}'s alias back with the wrong server: its normalized server name contains "__".`,
        });
      }
    }
    return { produced, final, warnings };
  },
};
