export {
  type AgentRewards,
  compareAggregate,
  compareDataset,
  compareMetrics,
  DatasetTally,
  formatFigure,
  MEAN_REWARD_METRICS,
  METRIC_TOLERANCE,
  type MetricComparison,
  type MetricsReport,
  type MetricsSource,
  metricsSummaryLine,
  rowRewards,
} from "./compare-metrics";
export {
  type ConfigMiss,
  type ConfigProblem,
  type ConfigRoute,
  type ConfigRouteKind,
  type ConfigRoutes,
  configRoutes,
  type GymConfig,
  type ReadConfigResult,
  readGymConfig,
} from "./config";
export {
  isTaskRowLine,
  LINE_KINDS,
  type LineKind,
  type LineKindAnswer,
  type LineReading,
  readLine,
  unparsedLine,
} from "./lines";
export { type DatasetStat, type GymMetrics, type ReadMetricsResult, readGymMetrics } from "./metrics";
export {
  comparePaths,
  datasetOf,
  type FolderPlan,
  nearest,
  planFolder,
  type RunPlan,
  runMetrics,
} from "./plan";
export {
  chooseRole,
  FILE_ROLE_LABEL,
  FILE_ROLES,
  type FileRole,
  type FolderFile,
  fileRole,
  headToRead,
  isHiddenPath,
  MAX_WHOLE_FILE_BYTES,
  ROLE_SNIFF_BYTES,
  type RoleDecision,
  runFileAlone,
} from "./roles";
