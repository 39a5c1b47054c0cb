import { formatIssues, PROVENANCE_KEY, ProvenanceEntrySchema, ProvenanceMapSchema } from "../schemas";
import type { MapState, ProvenanceIdentity } from "./types";

/** An entry as the contract sees it: valid (with its identity) or malformed (with the reasons). */
export type EntryReading =
  | { readonly valid: true; readonly identity: ProvenanceIdentity }
  | { readonly valid: false; readonly reasons: readonly string[] };

export interface ProvenanceReading {
  readonly state: MapState;
  /** For an authoritative map: every key with its reading, in key order. Empty otherwise. */
  readonly entries: ReadonlyMap<string, EntryReading>;
  /** For an invalid map: what it is instead of an object ("an array", "a string", ...). */
  readonly invalid_kind: string | null;
}

function describeKind(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "a boolean";
  return `a ${typeof value}`;
}

/** Reads one entry by the contract's string rules; extra keys inside it are ignored. */
export function readEntry(value: unknown): EntryReading {
  const parsed = ProvenanceEntrySchema.safeParse(value);
  if (parsed.success) {
    return {
      valid: true,
      identity: { server_name: parsed.data.server_name, tool_name: parsed.data.tool_name },
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return {
      valid: false,
      reasons: [`the entry is ${value === null ? "null" : describeKind(value)}, not an object`],
    };
  }
  return { valid: false, reasons: formatIssues(parsed.error.issues) };
}

function mapValue(container: Readonly<Record<string, unknown>>): unknown {
  return Object.hasOwn(container, PROVENANCE_KEY) ? container[PROVENANCE_KEY] : undefined;
}

/**
 * The map's state alone, as readProvenance decides it, without reading its entries: the list's index shows
 * the state before the rewards pass reads the entries (one zod pass each, and a 100k-entry map in a long
 * rollout).
 */
export function provenanceState(container: Readonly<Record<string, unknown>>): MapState {
  const value = mapValue(container);
  if (value === undefined || value === null) return "unknown";
  return ProvenanceMapSchema.safeParse(value).success ? "authoritative" : "invalid";
}

/**
 * Map state (contract, "Map state"): absent or null -> unknown; any object, even `{}` -> authoritative;
 * anything else -> invalid. `container` is the rollout (or verify request) holding the key.
 */
export function readProvenance(container: Readonly<Record<string, unknown>>): ProvenanceReading {
  const value = mapValue(container);
  if (value === undefined || value === null)
    return { state: "unknown", entries: new Map(), invalid_kind: null };
  const known = typeof value === "object" ? readings.get(value) : undefined;
  if (known !== undefined) return known;
  const map = ProvenanceMapSchema.safeParse(value);
  if (!map.success) return { state: "invalid", entries: new Map(), invalid_kind: describeKind(value) };
  const entries = new Map<string, EntryReading>();
  // Keys, not Object.entries: a 100k-entry map's pairs were a tenth of a long rollout's open.
  const data = map.data;
  for (const callId of Object.keys(data)) entries.set(callId, readEntry(data[callId]));
  const reading: ProvenanceReading = { state: "authoritative", entries, invalid_kind: null };
  if (typeof value === "object") readings.set(value, reading);
  return reading;
}

/**
 * Readings by map object: both policies, the index and the verify request read the same map of one rollout
 * (100k entries in a long one). Rollouts are never mutated (lib/schemas memoizes their calls the same way).
 */
const readings = new WeakMap<object, ProvenanceReading>();
