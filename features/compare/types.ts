/** Types the /compare components share with the compare hooks. */
export type {
  ActionView,
  CompareFileSummary,
  CompareView,
  PairDetail,
  PairRow,
  RepairRolloutView,
  RepairServerInput,
  RepairView,
  RolloutListEntry,
  SideInputsView,
  StepView,
  TasksView,
  UnresolvedReason,
  Verdict,
  WhatIfRowView,
  WhatIfView,
} from "./protocol";
export type { CompareState, CompareTab, PairSort, VerdictSlug } from "./state";
