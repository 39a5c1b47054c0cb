export { type LineCounts, lineCountsText, type ZeroBasis, zeroShareText } from "./counts";
export {
  evaluateFilter,
  type FilterClause,
  type FilterContext,
  type FilterSubject,
  formatClause,
  formatFilter,
  lineHolds,
  matchesFilter,
  needsRollout,
  type ParsedFilter,
  parseFilter,
  type RewardField,
  ROW_STATES,
  type RowState,
  textsOf,
  withoutKinds,
} from "./filter";
export {
  metricsOf,
  RUN_ROW_COLUMNS,
  type RunRow,
  type RunRowOptions,
  rowTask,
  runRow,
  withTaskWide,
} from "./row";
