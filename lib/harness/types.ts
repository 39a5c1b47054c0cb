/**
 * A harness projects an MCP (server, tool) identity into one model-facing name (the alias).
 * Rules per harness and era: shared reference `harness-aliases.md`, copied into docs/harness-aliases.md.
 */

/** One alias rule: a harness at a given era. Keys are stable: they appear in URLs and CLI flags. */
export type HarnessId =
  | "claude-code"
  /** Hermes era B, the fork NeMo Gym pins (`mcp_{S}_{T}`). */
  | "hermes-legacy"
  /** Hermes era D, current upstream (`mcp__{S}__{T}` with the 64-char sha256 clamp). */
  | "hermes"
  | "openclaw"
  /** Codex E5 flattened namespace rule, 64-char budget. */
  | "codex"
  | "gemini-cli";

export interface ToolIdentity {
  readonly server: string;
  readonly tool: string;
}
