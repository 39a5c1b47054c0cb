export {
  type Action,
  type ActionOptions,
  actionsOf,
  aliasIndex,
  type NamedBy,
} from "./actions";
export {
  type Alignment,
  alignSequences,
  type CappedAlignment,
  MAX_ALIGNMENT_EDITS,
  type ToolCount,
} from "./align";
export {
  type AlignedStep,
  alignActions,
  type CompareOptions,
  type CompareReport,
  type CompareSummary,
  compareRuns,
  type Divergence,
  type NameMismatch,
  nameMismatch,
  nameMismatchText,
  type PairedBy,
  type PairRepeats,
  type PairReport,
  pairRollouts,
  recordedDifferText,
  repeatsText,
  type SideReport,
  type StepKind,
  type Verdict,
} from "./compare";
export { COMPARE_CSV_COLUMNS, type CompareLines, compareCsv, type SideLine } from "./csv";
export {
  compareTasks,
  type TaskCompareSummary,
  type TaskComparison,
  type TaskSide,
  taskLabel,
  tasksText,
} from "./tasks";
