export { type LineCounts, lineCountsText, type ZeroBasis, zeroShareText } from "./counts";
export {
  type FilterClause,
  formatClause,
  formatFilter,
  matchesFilter,
  needsRollout,
  type ParsedFilter,
  parseFilter,
  type RewardField,
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
