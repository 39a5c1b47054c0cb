/** Types the presentational components share with the data hooks. */
export type {
  CallResolution,
  CallView,
  DatasetSummary,
  DetailView,
  HarnessId,
  Highlight,
  HighlightResult,
  InputMessage,
  LineError,
  LoadProgress,
  MapState,
  Policy,
  RecentFile,
  RolloutFinding,
  RolloutIndexEntry,
  SessionSummary,
  Source,
  Token,
  TranscriptItem,
  VerificationView,
  VerifyResult,
} from "@/worker/protocol";
export type { Sample } from "./data";
export type { FilterFlag, SortKey, StatusCounts, ViewState } from "./view-state";
