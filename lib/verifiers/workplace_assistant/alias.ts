/**
 * A hint for a call name that is not a workplace tool but embeds one, such as the harness aliases
 * `mcp__workplace_assistant__email_reply_email` (Claude Code), `mcp_workplace_assistant_email_reply_email`
 * (Hermes) or `workplace_assistant__email_reply_email` (OpenClaw). It only explains a score; it never
 * changes which tool a call runs.
 */

export interface AliasHint {
  /** The tool the name most likely meant. */
  readonly tool: string;
  /** What precedes the tool name in the emitted name (e.g. "mcp__workplace_assistant__"). */
  readonly prefix: string;
  /** A server named by an `mcp__<server>__` or `<server>__` prefix, when there is one. */
  readonly server?: string;
  readonly message: string;
}

/** The longest known tool name the emitted name ends with (after a `_` boundary), else one it contains. */
export function aliasHint(
  name: string,
  tools: readonly string[],
  verifyingServer: string,
): AliasHint | undefined {
  let best: string | undefined;
  let bestAt = -1;
  for (const tool of tools) {
    if (tool === name) return undefined;
    const at = name.endsWith(tool) ? name.length - tool.length : name.indexOf(tool);
    if (at <= 0 || name[at - 1] !== "_") continue;
    const endsWith = at + tool.length === name.length;
    const bestEndsWith = best !== undefined && bestAt + best.length === name.length;
    if (
      best === undefined ||
      (endsWith && !bestEndsWith) ||
      (endsWith === bestEndsWith && tool.length > best.length)
    ) {
      best = tool;
      bestAt = at;
    }
  }
  if (best === undefined) return undefined;
  const prefix = name.slice(0, bestAt);
  const server = serverOf(prefix);
  const otherServer = server !== undefined && server !== verifyingServer;
  const trailing =
    bestAt + best.length < name.length ? ` followed by "${name.slice(bestAt + best.length)}"` : "";
  const fix =
    `recording mcp_tool_call_provenance for the call (or canonicalizing its name to "${best}") ` +
    `would let the verifier run it`;
  const message = otherServer
    ? `It embeds the ${verifyingServer} tool "${best}"${trailing} but its prefix names the server "${server}": ` +
      `if the call was meant for ${verifyingServer}, ${fix}; otherwise skipping it is right.`
    : `It likely meant "${best}"${trailing}: the name looks like an uncanonicalized harness alias, and ${fix}.`;
  return { tool: best, prefix, ...(server === undefined ? {} : { server }), message };
}

function serverOf(prefix: string): string | undefined {
  const claude = /^mcp__(.+?)__$/.exec(prefix);
  if (claude) return claude[1];
  const openclaw = /^(.+?)__$/.exec(prefix);
  if (openclaw && !prefix.startsWith("mcp_")) return openclaw[1];
  const hermes = /^mcp_(.+)_$/.exec(prefix);
  if (hermes) return hermes[1];
  return undefined;
}
