import { z } from "zod";

/** The top-level rollout key holding the MCP provenance map (contract, "provenance map"). */
export const PROVENANCE_KEY = "mcp_tool_call_provenance";

/** Non-empty and holding at least one non-whitespace character (Gym: `min_length=1, pattern r"\S"`). */
const ProvenanceName = z
  .string({ error: "expected a string" })
  .min(1, { error: "must not be empty" })
  .regex(/\S/, { error: "must contain a non-whitespace character" });

/**
 * One provenance entry: the raw MCP identity of a call. Extra keys are ignored but kept, so an export
 * writes the entry back as it came.
 */
export const ProvenanceEntrySchema = z.looseObject({
  server_name: ProvenanceName,
  tool_name: ProvenanceName,
});
export type ProvenanceEntry = z.infer<typeof ProvenanceEntrySchema>;

/**
 * The provenance map as an object of call_id -> entry, entries left unvalidated: the contract decides per
 * call what a bad entry means (status `malformed`), so one bad entry must not hide the others.
 * Note: zod drops a `__proto__` key when it copies an object, so such a call_id reads as absent (the call
 * then keeps its emitted name, which fails closed).
 */
export const ProvenanceMapSchema = z.record(z.string(), z.unknown(), {
  error: "mcp_tool_call_provenance must be an object of call_id -> {server_name, tool_name}",
});

/** The strict form Gym's request validation accepts: every entry valid. */
export const StrictProvenanceMapSchema = z.record(z.string(), ProvenanceEntrySchema);
