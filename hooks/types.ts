/** Types the presentational components share with the data hooks. */
export type {
  CallResolution,
  DatasetSummary,
  HarnessId,
  Highlight,
  HighlightResult,
  InputMessage,
  LineError,
  LoadProgress,
  MapState,
  Policy,
  RolloutFinding,
  RolloutIndexEntry,
  RolloutView,
  SessionSummary,
  Source,
  Token,
  TranscriptItem,
  VerificationView,
  VerifyResult,
} from "@/worker/protocol";
export type { Sample } from "./data";
export type { FilterFlag, SortKey, StatusCounts, ViewState } from "./view-state";
