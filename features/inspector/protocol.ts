/**
 * The inspector's requests to the data worker: one rollout's detail, a page at a time, and its raw line
 * (answered by ./handlers.ts; worker/protocol.ts composes them into DataRequests). The views they return are
 * shared types of worker/protocol.ts: the worker's runtime computes them.
 */
import type { DecisiveCall, PackedBadges } from "@/lib/triage";
import type {
  CallView,
  DetailParams,
  DetailView,
  GymMetricsView,
  TranscriptItem,
  VerificationView,
} from "@/worker/protocol";

export interface InspectorRequests {
  /** One rollout's detail summary; `analysis` is the dataset's analysis revision the page keys it by. */
  detail: { params: DetailParams; result: DetailView | null };
  /** Both verifications of the rollout `detail` opened with the same params (computed in the pool). */
  detailVerification: { params: DetailParams; result: VerificationView | null };
  /** Calls [start, end) of the rollout opened by `detail` with the same params. */
  detailCalls: { params: DetailParams & { start: number; end: number }; result: CallView[] | null };
  /** Transcript items [start, end) of the rollout opened by `detail` with the same params. */
  detailItems: { params: DetailParams & { start: number; end: number }; result: TranscriptItem[] | null };
  /** Outcome badges of calls [start, end) of the rollout `detailVerification` verified (same params). */
  detailBadges: { params: DetailParams & { start: number; end: number }; result: PackedBadges | null };
  /** Decisive calls [start, end) (in call order) of the rollout `detailVerification` verified. */
  detailDecisive: { params: DetailParams & { start: number; end: number }; result: DecisiveCall[] | null };
  raw: { params: { dataset: string; line: number }; result: { bytes: Uint8Array } | null };
  /** An opened folder's Gym metrics files of this rollouts file, Gym's figures beside ours (none: []). */
  gymMetrics: { params: { dataset: string }; result: GymMetricsView[] };
}
