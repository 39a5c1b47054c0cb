import type { HarnessId } from "../harness/types";

/** `contract` follows provenance; `legacy` reproduces Gym before provenance (the map is ignored). */
export type Policy = "contract" | "legacy";

/** State of `mcp_tool_call_provenance` on a rollout (contract, "Map state"). */
export type MapState = "unknown" | "authoritative" | "invalid";

/** Per-call status (contract, "Per-call status"). */
export type CallStatus =
  | "legacy"
  | "bare"
  | "uncorrelated"
  | "duplicate"
  | "non_mcp"
  | "malformed"
  | "external"
  | "canonical";

/** Diagnostic flags: they never change the verifier name. */
export type FlagName =
  | "server_near_miss"
  | "unknown_tool"
  | "alias_disagrees"
  | "alias_guess"
  | "alias_collision";

export type Highlight = "ambiguous" | "mismatched" | "external" | "none";

export interface ProvenanceIdentity {
  readonly server_name: string;
  readonly tool_name: string;
}

export interface Flag {
  readonly name: FlagName;
  /** The highlight this flag raises (contract, "Diagnostic flags"). */
  readonly highlight: Highlight;
  /** One sentence a researcher can act on. */
  readonly message: string;
  /** alias_guess: every (harness, tool) whose alias equals the emitted name. */
  readonly candidates?: readonly { readonly harness: HarnessId; readonly tool: string }[];
  /** alias_disagrees: what the chosen harness would have emitted for the provenance identity. */
  readonly expected_alias?: string;
  /** alias_collision: the distinct identities that share the emitted name under the chosen harness. */
  readonly identities?: readonly { readonly server: string; readonly tool: string }[];
}

/** A flag before resolve attaches its highlight (FLAG_HIGHLIGHT, one place). */
export type FlagDraft = Omit<Flag, "highlight">;

export interface CallResolution {
  /** 0-based position among this rollout's function_calls. */
  readonly index: number;
  /** Position of the item in `response.output`. */
  readonly output_index: number;
  /** The call_id when it is a string (possibly empty); null when missing or not a string. */
  readonly call_id: string | null;
  /** `function_call.name` exactly as the harness emitted it. */
  readonly emitted: string;
  /** The valid provenance entry for this call, if any (under policy `contract`). */
  readonly provenance: ProvenanceIdentity | null;
  readonly status: CallStatus;
  readonly verifier_name: string;
  readonly flags: readonly Flag[];
  readonly highlight: Highlight;
  /** One sentence: why this status. */
  readonly explanation: string;
}

export type RolloutFinding =
  | { readonly kind: "orphan_provenance"; readonly call_ids: readonly string[]; readonly message: string }
  | { readonly kind: "gym_would_reject"; readonly reasons: readonly string[]; readonly message: string };

export interface RolloutResolution {
  readonly server: string;
  readonly policy: Policy;
  readonly map_state: MapState;
  readonly calls: readonly CallResolution[];
  readonly findings: readonly RolloutFinding[];
}

export interface ResolveOptions {
  /** The verifying server S. Compared byte for byte with provenance `server_name`. */
  readonly server: string;
  readonly policy?: Policy;
  /** The harness that produced the rollout, when known (enables alias_disagrees and alias_collision). */
  readonly harness?: HarnessId;
  /** S's tool list, when known (enables unknown_tool and alias_guess). */
  readonly tools?: readonly string[];
}
