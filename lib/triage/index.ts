export {
  badgeAt,
  badgePage,
  type CallBadge,
  type CallBadgeKind,
  type CellTrace,
  callBadges,
  type DecisiveCall,
  judgedCalls,
  type PackedBadges,
  packBadges,
  packHolds,
} from "./decisive";
export { type CallOutcome, readCallOutcomes, readTableDiffs, type TableState } from "./details";
export { explainDrift, REPRODUCTION_TEXT, type Reproduction, reproducedBy } from "./drift";
export { type HealthProblem, readHealth } from "./health";
export {
  RECORDED_FIELDS_MAX,
  RECORDED_VALUES_MAX,
  type RecordedField,
  type RecordedFieldSummary,
  type RecordedFieldsRow,
  type RecordedFieldsSummary,
  recordedFields,
  recordedFieldsFor,
  recordedFieldsHeading,
  recordedFieldsLines,
  summarizeRecordedFields,
  type ValueCount,
  valueCountsText,
} from "./recorded-fields";
export { sameFailureTasks, TASK_WIDE_MIN_ROLLOUTS, type TaskFailure } from "./task-wide";
export {
  AGENT_CAUSES,
  causeCount,
  evidencePolicy,
  type IdentityBasis,
  isZeroOrBelow,
  isZeroReward,
  type RolloutTriage,
  type RunTriage,
  reproducedText,
  summarizeTriage,
  type TriagedLine,
  type TriageOptions,
  triageHeading,
  triageRollout,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
  ZERO_VIEWS,
  type ZeroCause,
  type ZeroView,
} from "./triage";
