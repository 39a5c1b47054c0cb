export { type AliasFlagContext, aliasFlagger } from "./alias-flags";
export {
  type EntryReading,
  type ProvenanceReading,
  provenanceState,
  readEntry,
  readProvenance,
} from "./provenance-map";
export {
  DEFAULT_POLICY,
  FLAG_HIGHLIGHT,
  HIGHLIGHT_SEVERITY,
  type RolloutResolver,
  resolveRollout,
  rolloutResolver,
  STATUS_HIGHLIGHT,
  strongestHighlight,
} from "./resolve";
export { isServerNearMiss, legacyPrefix, nearMissKey } from "./server-name";
export type * from "./types";
