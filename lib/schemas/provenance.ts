import { z } from "zod";
import { isJsonObject } from "./rollout";

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
 * The object is checked, never copied: zod's record copy would drop a `"__proto__"` key (JSON.parse makes
 * it an own key), and Gym's dict honours it like any other call_id.
 */
export const ProvenanceMapSchema = z.custom<Readonly<Record<string, unknown>>>(isJsonObject, {
  error: "mcp_tool_call_provenance must be an object of call_id -> {server_name, tool_name}",
});

/**
 * A provenance map built by this project (repair, what-if): a null-prototype object, so a call_id
 * `"__proto__"` becomes an own key like any other instead of setting the prototype.
 */
export function provenanceMapOf(
  entries: Iterable<readonly [string, ProvenanceEntry]>,
): Record<string, ProvenanceEntry> {
  const map: Record<string, ProvenanceEntry> = Object.create(null);
  for (const [callId, entry] of entries) map[callId] = entry;
  return map;
}

/** The strict form Gym's request validation accepts: every entry valid. */
export const StrictProvenanceMapSchema = z.record(z.string(), ProvenanceEntrySchema);
