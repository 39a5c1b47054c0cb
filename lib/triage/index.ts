export { type CallOutcome, readCallOutcomes, readTableDiffs, type TableState } from "./details";
export {
  type IdentityBasis,
  isZeroReward,
  type RolloutTriage,
  type RunTriage,
  summarizeTriage,
  type TriagedLine,
  type TriageOptions,
  triageRollout,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
  type ZeroCause,
} from "./triage";
