/** Types the presentational components share with the data hooks. */

/** Folder file roles and their labels (lib/folder). */
export { FILE_ROLE_LABEL, FILE_ROLES, formatFigure } from "@/lib/folder";
export type {
  ListedTableDiff,
  ListedWorkplaceDetails,
  PairedBy,
  ServerSource,
  UnverifiedCode,
  VerifierDetails,
  VerifierDetailsView,
  WorkplaceVerifierDetails,
} from "@/lib/verify";
/** How the verifying server was chosen, how a row was paired, why it is unverified: labels from lib/verify. */
export { PAIRED_BY_LABEL, SERVER_SOURCE_LABEL, UNVERIFIED_LABEL } from "@/lib/verify";
/** A policy's verify result as the detail pane gets it (its calls come in pages, not with it). */
export type {
  CallResolution,
  CallView,
  DatasetSummary,
  DetailTriage,
  DetailView,
  FileRole,
  FolderEntry,
  FolderFileView,
  FolderRunView,
  FolderSummary,
  FollowSummary,
  GymMetrics,
  GymMetricsView,
  HarnessId,
  Highlight,
  HighlightResult,
  InputMessage,
  LineError,
  LineKind,
  LoadProgress,
  MapState,
  MetricComparison,
  Policy,
  RecentFile,
  RolloutFinding,
  RolloutIndexEntry,
  SessionSummary,
  Source,
  Token,
  TranscriptItem,
  VerificationView,
  VerifyResultView,
} from "@/worker/protocol";
export type { Sample } from "./data";
