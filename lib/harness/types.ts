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

/**
 * Other eras of the same harnesses, for tests and what-if comparisons. The UI iterates HarnessId only.
 * Hermes A/C, Codex E2/E3/E4/E6 (see docs/harness-aliases.md, sections 2 and 4).
 */
export type HarnessEraId = "hermes-a" | "hermes-c" | "codex-e2" | "codex-e3" | "codex-e4" | "codex-e6";

/** Any alias rule this library implements. */
export type AliasRuleId = HarnessId | HarnessEraId;

export interface ToolIdentity {
  readonly server: string;
  readonly tool: string;
}

/** Aliases produced by 2+ distinct identities, and what the harness does about it. */
export interface AliasCollision {
  readonly alias: string;
  readonly identities: readonly ToolIdentity[];
  readonly resolution: string;
}

/** Something about a configuration that is not a collision but changes or breaks an alias. */
export interface AliasWarning {
  readonly identities: readonly ToolIdentity[];
  readonly message: string;
}

export interface AliasMap<H extends AliasRuleId = HarnessId> {
  readonly harness: H;
  /** alias of each identity that gets one (harness order/collision rules applied), keyed by identityKey(). */
  readonly forward: ReadonlyMap<string, string>;
  /**
   * alias -> every identity that produces it before the harness drops or renames any; for harnesses that
   * rename (OpenClaw `-2`, Codex hashes) the final alias of a renamed identity is listed too.
   */
  readonly inverse: ReadonlyMap<string, readonly ToolIdentity[]>;
  /** aliases produced by 2+ distinct identities, and what the harness does about it. */
  readonly collisions: readonly AliasCollision[];
  /** renames without a collision, rejected servers, names a provider would refuse. */
  readonly warnings: readonly AliasWarning[];
}

export interface AliasMapOptions {
  /**
   * Names the harness already uses (built-in tools). Only OpenClaw takes them into account when
   * naming (`memory__status` reserved gives `memory__status-2`); other harnesses' built-ins never
   * share the MCP prefix.
   */
  readonly reservedNames?: readonly string[];
}
