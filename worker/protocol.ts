/**
 * The shared part of the one data worker's protocol (worker/data.worker.ts): the file store's types and the
 * session requests every page may send. Each feature declares its own requests beside its handlers
 * (features/inspector/protocol.ts, features/run/protocol.ts, features/compare/protocol.ts); DataRequests below
 * composes them. Carried by the generic typed RPC of ./rpc.ts.
 *
 * The worker keeps each file as a Blob and a table of line offsets (./store.ts), never a parsed copy. Only
 * compact values cross the boundary: session summaries (pushed as events), index rows changed since a
 * revision, one rollout's detail view when it is opened, and raw line bytes on demand (transferred).
 */

import type { CompareRequests } from "@/features/compare/protocol";
import type { InspectorRequests } from "@/features/inspector/protocol";
import type { RunRequests } from "@/features/run/protocol";
import type {
  FileRole,
  GymConfig,
  GymMetrics,
  LineKind,
  MetricComparison,
  MetricsReport,
} from "../lib/folder";
import type { HarnessChoice } from "../lib/harness/choice";
import type { HarnessId } from "../lib/harness/types";
import type { CallResolution, Highlight, MapState, Policy, RolloutFinding } from "../lib/identity/types";
import type { LineOptions } from "../lib/live";
import type { RolloutRow } from "../lib/run";
import type { DecisiveCall, PackedBadges, RecordedField, RolloutTriage } from "../lib/triage";
import type { VerifierDetailsView } from "../lib/verify/details";
import type { VerifyResult } from "../lib/verify/types";
import type { FollowSummary } from "./follow";

/** How a dataset id begins (worker/store newDatasetId): URLs carry ids, never file names, for opened files. */
export const DATASET_ID_PREFIX = "d-";

/**
 * How a file is named where files of several folders meet (/compare): a folder's file under its folder's
 * name (two folders hold data/example.jsonl), a file opened alone by its own name.
 */
export function folderQualifiedName(name: string, folderName: string | null | undefined): string {
  return folderName ? `${folderName}/${name}` : name;
}

/** A dataset id, as URLs carry it: never a file's name. */
export function isDatasetId(ref: string): boolean {
  return ref.startsWith(DATASET_ID_PREFIX);
}

/**
 * How a link names a file of the folder `cli view` serves: by its path there. A dataset id is the tab's own
 * and gone with a reload; the path finds the same file once the served folder is read again (a reload of
 * /compare or /live, the link opened in another tab).
 */
const SERVED_REF_PREFIX = "served:";

export function servedRef(path: string): string {
  return `${SERVED_REF_PREFIX}${path}`;
}

/** The served folder's path a link names, or null when it names something else (a dataset id, a sample). */
export function servedPathOf(ref: string): string | null {
  return ref.startsWith(SERVED_REF_PREFIX) ? ref.slice(SERVED_REF_PREFIX.length) : null;
}

/**
 * Why a link's served file (servedRef `path`) is not found: the served folder is open in this tab
 * (`servedOpen`) without that file, or the tab holds other files (a link does not replace them).
 */
export function servedRefMissingText(path: string, servedOpen: boolean): string {
  return servedOpen
    ? `${path} is not a file of the served folder now (moved or deleted since the link was made?): choose another file, or read the folder again in the inspector.`
    : `${path} is a file of the folder \`view\` serves, which is not open in this tab (other files are): open the served folder in the inspector, or choose a file here.`;
}

/**
 * The stored file a link names (`ref`: a dataset id, or a served folder's path as DatasetSummary.ref spells it),
 * among the session's files, the latest first: after the served folder is read again, the file read last.
 */
export function storedFileOf<F extends { readonly id: string; readonly ref: string }>(
  ref: string | null,
  files: readonly F[],
): F | undefined {
  return ref === null ? undefined : files.find((file) => file.id === ref || file.ref === ref);
}

export type {
  CallResolution,
  FileRole,
  FollowSummary,
  GymMetrics,
  HarnessId,
  Highlight,
  LineKind,
  MapState,
  MetricComparison,
  MetricsReport,
  Policy,
  RolloutFinding,
  VerifyResult,
};

/**
 * Where a file comes from. Files never leave the browser; URLs are same-origin bundled samples; a remote
 * file is one `cli view` serves (same origin), read with range requests and followed while it grows.
 */
export type Source =
  | { readonly kind: "file"; readonly file: File }
  | { readonly kind: "url"; readonly url: string; readonly name: string }
  | { readonly kind: "remote"; readonly url: string; readonly name: string };

export type DatasetKind = "rollouts" | "inputs";

/** What kind of problem a line has: not JSON (or not UTF-8, or too long), or JSON that is not a rollout. */
export type LineErrorKind = "parse" | "schema";

export interface LineError {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly kind: LineErrorKind;
  /** What the line is instead of a rollout (lib/folder): placeholder, not_json, task_row, ... */
  readonly line_kind: LineKind;
  /** One sentence, lib's. */
  readonly error: string;
}

export interface DatasetSummary {
  /** Unique per opened file (two files of the same name have two ids), and stable across a reload. */
  readonly id: string;
  /**
   * How links name it: a file of the folder `cli view` serves by its path there (servedRef: a reload or a new
   * tab reads the folder again and finds the file by it; the tab's ids are gone), any other by its id.
   */
  readonly ref: string;
  readonly name: string;
  /** "rollouts" until the whole file is read and every parsed row turned out to be an input row. */
  readonly kind: DatasetKind;
  /** Bumped whenever a row of the index changes (rows streamed in, rewards filled in, inputs paired). */
  readonly revision: number;
  /** Bumped when what a row is verified with changes (inputs file, server, harness): detail views depend on it. */
  readonly analysis: number;
  /** Bytes read so far (the decompressed size once indexed). */
  readonly bytes: number;
  /** The source's size when known (a gzip file's compressed size). */
  readonly total_bytes: number | null;
  readonly lines: number;
  /** Rows that parsed and (for rollouts) passed the schema. */
  readonly rows: number;
  /** True once the whole file is read and every row is in the index. */
  readonly indexed: boolean;
  /** Rollouts whose rewards are computed (the rest show identity statuses only). */
  readonly rewarded: number;
  /**
   * The first SUMMARY_ERRORS unreadable lines, in line order; the rest come a page at a time
   * (`lineErrors`). A file of a million bad lines would otherwise be cloned to the page with every summary.
   */
  readonly errors: readonly LineError[];
  /** How many lines could not be read, in all. */
  readonly error_count: number;
  /** For rollouts: the inputs dataset whose rows were paired with this one's, if any. */
  readonly paired_inputs: string | null;
  /** For rollouts: how many rows found their materialized input row. */
  readonly paired_rows: number;
  /** For rollouts: the verifying server chosen for every row, or null for each row's default. */
  readonly server_override: string | null;
  /** For rollouts: the verifying servers its rows are routed to (as far as read), sorted. */
  readonly servers: readonly string[];
  /** For rollouts: the harness per agent the index's alias diagnostics assume, in its text form ("" for none). */
  readonly harness: string;
  /** For rollouts: the verifying server of rows that name none themselves, when the loader knew one. */
  readonly fallback_server: string | null;
  /** For rollouts: when not one line is a rollout, what the file is instead (lib/filekind), one sentence. */
  readonly problem: string | null;
  /** Its path in the opened folder, or null for a file opened alone. */
  readonly folder_path: string | null;
  /** The opened folder's name (null for a file opened alone). */
  readonly folder_name: string | null;
  /** The folder's Gym config files that route its lines (empty: none). */
  readonly config_files: readonly string[];
  /** A followed file (served by `cli view`): whether it is still followed, a waiting partial line, or why not. */
  readonly follow: FollowSummary | null;
}

/**
 * One file of an opened folder: its path there and where its bytes are: the File of a picked or dropped
 * folder (webkitRelativePath or a dropped entry's path), or the URL `cli view` serves it at, with its size
 * from the server's listing (read with range requests, and followed while it grows).
 */
export type FolderEntry =
  | { readonly path: string; readonly file: File }
  | {
      readonly path: string;
      readonly url: string;
      readonly bytes: number;
      /** Its last modification (epoch ms) in the server's listing, when it says. */
      readonly modified?: number | null;
    };

/** One file of the opened folder as the page lists it: its role and the reason (lib/folder). */
export interface FolderFileView {
  readonly path: string;
  readonly role: FileRole;
  readonly reason: string;
  /** True when the user chose the role. */
  readonly chosen: boolean;
  /** The dataset it was read into (rollouts and task rows), or null. */
  readonly dataset: string | null;
  /** Its size and last modification (epoch ms, null: unknown) when the folder was read (a served folder's
   * listing says when either changes). */
  readonly bytes: number;
  readonly modified: number | null;
}

/** One rollouts file of the folder with what goes with it (lib/folder planFolder). */
export interface FolderRunView {
  readonly rollouts: string;
  readonly dataset: string | null;
  readonly configs: readonly string[];
  readonly inputs: readonly string[];
  /** Servers its configs route to (what /live offers). */
  readonly servers: readonly string[];
  /** Gym's own metrics files beside it, read by lib/folder. */
  readonly metrics: readonly { readonly path: string; readonly metrics: GymMetrics }[];
}

/** One Gym metrics file of a rollouts file: Gym's figures and ours, each difference named (lib/folder). */
export interface GymMetricsView {
  readonly path: string;
  readonly metrics: GymMetrics;
  readonly report: MetricsReport;
}

export interface FolderSummary {
  /** The folder's name (the picked or dropped directory). */
  readonly name: string;
  /** Files picked together and read as a folder (lib/folder readAsFolder), not a directory. */
  readonly picked: boolean;
  /** The folder `cli view` serves (its files read from the server), not one picked in this tab. */
  readonly served: boolean;
  /** Where a served folder is on the machine serving it: the page's shell commands name it. Else null. */
  readonly path: string | null;
  /** Its hidden entries, never read (lib/folder hiddenEntries: a hidden folder once, with a slash). */
  readonly hidden: readonly string[];
  readonly files: readonly FolderFileView[];
  readonly runs: readonly FolderRunView[];
}

export interface SessionSummary {
  /** The inspector's open files (its workspace), in the order they were opened. */
  readonly datasets: readonly DatasetSummary[];
  /** Every file opened in this tab, by any page: what /compare offers. */
  readonly files: readonly DatasetSummary[];
  /** The opened folder, when the workspace is one. */
  readonly folder: FolderSummary | null;
}

/** A file kept in the origin-private file system, offered on the landing page. */
export interface RecentFile {
  readonly id: string;
  readonly name: string;
  readonly bytes: number;
  /** Epoch milliseconds of the last time it was opened. */
  readonly opened: number;
}

export type HighlightCounts = Readonly<Record<Highlight, number>>;

/**
 * One rollout in the list: lib/run's row (its fields and both verifications) with what only the worker
 * knows. Kept small: the whole index of a large file crosses the boundary.
 */
export interface RolloutIndexEntry extends RolloutRow {
  /**
   * Per-highlight call counts under policy `contract`; null until the rewards pass resolves the calls (the
   * index reads each line once, for the list; resolving them there too was a fifth of the index's work).
   */
  readonly counts: HighlightCounts | null;
  /** "pending" until both policies' rewards are computed: statuses and counts come first. */
  readonly rewards: "pending" | "done";
}

/** One item of a transcript, in response.output order. */
export type TranscriptItem =
  | { readonly kind: "message"; readonly output_index: number; readonly role: string; readonly text: string }
  | { readonly kind: "reasoning"; readonly output_index: number; readonly text: string }
  | {
      readonly kind: "call";
      readonly output_index: number;
      readonly call_index: number;
      readonly call_id: string | null;
      readonly name: string;
      readonly arguments: string;
      /** The paired function_call_output's `output`, serialized when it is not a string. */
      readonly output: string | null;
      readonly output_index_of_output: number | null;
      /** This call's identity under each policy, joined by output_index in the worker. */
      readonly contract: CallResolution | null;
      readonly legacy: CallResolution | null;
    }
  | {
      readonly kind: "output";
      readonly output_index: number;
      readonly call_id: string | null;
      readonly output: string;
    }
  | { readonly kind: "other"; readonly output_index: number; readonly type: string; readonly json: string };

export interface InputMessage {
  readonly role: string;
  readonly text: string;
}

/** One call of the identity list: its resolution under both policies. */
export interface CallView {
  readonly contract: CallResolution;
  readonly legacy: CallResolution | null;
}

/**
 * A policy's verify result as the detail pane gets it: the resolution without its calls, which reach the
 * page a page at a time (detailCalls), never all at once.
 */
export type VerifyResultView = Omit<VerifyResult, "resolution" | "explanation" | "details"> & {
  readonly resolution: Omit<VerifyResult["resolution"], "calls">;
  /** The first LISTED_SENTENCES sentences (lib/verify); `explanation_total` counts them all. */
  readonly explanation: readonly string[];
  readonly explanation_total: number;
  /** The verifier's details, bounded (lib/verify listedDetails). */
  readonly details?: VerifierDetailsView;
};

export interface VerificationView {
  readonly server: string | null;
  readonly harness: HarnessId | null;
  readonly contract: VerifyResultView;
  readonly legacy: VerifyResultView;
  /** Why this rollout scored 0 (lib/triage), bounded: no traces, the first decisive calls; null: no zero. */
  readonly triage: DetailTriage | null;
  /** What each call did in the verifier's replay (lib/triage callBadges), packed (badgeAt reads one). */
  readonly badges: PackedBadges;
  /** Whose replay the badges come from (lib/triage evidencePolicy): the policy that scored 0. */
  readonly outcome_policy: Policy;
}

/**
 * Both verifications as the pool answers the data worker: the page's bounded view, and what the page asks
 * for a page at a time beyond it (the data worker keeps it with the opened rollout).
 */
export interface VerifiedDetail {
  readonly view: VerificationView;
  /** Every call's badge, packed (the page asks for the calls it shows: detailBadges). */
  readonly badges: PackedBadges;
  /** Every decisive call, in call order (the view lists the first LISTED_DECISIVE: detailDecisive has the rest). */
  readonly decisive: readonly DecisiveCall[];
}

/**
 * A rollout's triage as the detail pane gets it: at most LISTED_DECISIVE decisive calls, no cell traces and
 * no list of every failed call (both grow with the rollout).
 */
export type DetailTriage = Omit<RolloutTriage, "traces" | "failed_calls" | "signature"> & {
  /** How many decisive calls there are in all. */
  readonly decisive_total: number;
  /** What the line records beside its reward, for a cause read from the line (lib/triage recordedFieldsFor). */
  readonly recorded_fields: readonly RecordedField[];
};

/**
 * What the detail pane shows for one rollout at once, from one parse: its calls and transcript items come a
 * page at a time, and both verifications apart (detailVerification), so neither waits for the other.
 */
export interface DetailView {
  readonly line: number;
  readonly entry: RolloutIndexEntry;
  /** The prompt (responses_create_params.input) as role/text pairs. */
  readonly input: readonly InputMessage[];
  /** How many calls and transcript items there are: the page fetches them a range at a time (detailCalls, detailItems). */
  readonly call_count: number;
  readonly item_count: number;
  /** Each call's position in the transcript, by call index (scrolling the transcript to a call). */
  readonly call_items: Int32Array;
  readonly findings: readonly RolloutFinding[];
  readonly byte_length: number;
  /** Keys of the rollout that are not rendered elsewhere, with short JSON previews. */
  readonly extra_fields: readonly { readonly key: string; readonly preview: string }[];
  /**
   * The rollout's names (environment, server, calls, provenance, verifier names) that look like another
   * name it knows (lib/verify/known-names.ts), each with that name: the page flags them `confusable`.
   */
  readonly lookalikes: readonly (readonly [string, string])[];
}

/** A shiki token, flattened to what a span needs. */
export interface Token {
  readonly content: string;
  readonly light: string | null;
  readonly dark: string | null;
  readonly fontStyle: number;
}

export interface HighlightResult {
  readonly lines: readonly (readonly Token[])[];
  /** True when the text was too large to tokenize and comes back as plain lines. */
  readonly plain: boolean;
}

export interface LoadProgress {
  readonly phase: "reading" | "analyzing";
  readonly file: string;
  readonly done: number;
  /** null when unknown (a stream without Content-Length, or a gzip file being read). */
  readonly total: number | null;
  readonly rows: number;
}

/** Which rollout a detail request is about, and under which verifying server, harness and analysis revision. */
export interface DetailParams {
  readonly dataset: string;
  readonly line: number;
  readonly server: string | null;
  /** The harness per agent (null: the dataset's). */
  readonly harness: HarnessChoice | null;
  readonly analysis: number;
}

/**
 * Unreadable lines a dataset summary carries, and the page size the list asks for more in: what one
 * screen of the list shows, cheap to clone with every summary whatever the file holds.
 */
export const SUMMARY_ERRORS = 200;

/**
 * The session's requests, answered by ./session-handlers.ts: opening files and folders, the workspace, the
 * list's index, search and highlighting. Any page may send them.
 */
export interface SessionRequests {
  /** fallbackServer: the verifying server for rows that name none (a bundled sample's server). */
  load: {
    params: { sources: readonly Source[]; fallbackServer?: string | null };
    result: SessionSummary;
    progress: LoadProgress;
  };
  /** Opens a folder: every file gets its role (lib/folder), rollouts and task rows are read, configs route. */
  loadFolder: {
    /** roles: roles the user chose before (a served folder read again keeps them), by path. */
    params: {
      name: string;
      entries: readonly FolderEntry[];
      roles?: Readonly<Record<string, FileRole>>;
      /** Where a served folder is on the machine serving it (`cli view`), or null. */
      root?: string | null;
    };
    result: SessionSummary;
    progress: LoadProgress;
  };
  /** Changes one folder file's role; the folder is planned again (pairing, routing). */
  setRole: {
    params: { path: string; role: FileRole };
    result: SessionSummary;
    progress: LoadProgress;
  };
  /** A dataset's (decompressed) bytes as a File, for /live's replay. */
  fileOf: {
    params: { dataset: string };
    /** configs: the folder's config files that route it; gymConfigs: what they declare (lib/folder). */
    result: {
      name: string;
      file: Blob;
      configs: readonly string[];
      gymConfigs: readonly GymConfig[];
    } | null;
  };
  /**
   * How the inspector verifies one line of a rollouts dataset: its verifying server, the task row it paired
   * with and its source (/live checks the line with them). Null when the line is not a readable rollout.
   */
  lineOptions: { params: { dataset: string; line: number }; result: LineOptions | null };
  /** Opens files kept from an earlier visit (origin-private file system) as the workspace. */
  restore: { params: { ids: readonly string[] }; result: SessionSummary; progress: LoadProgress };
  recent: { params: Record<string, never>; result: RecentFile[] };
  session: { params: Record<string, never>; result: SessionSummary };
  /** Recomputes the index for a verifying server (null: each row's default) and a harness (alias flags). */
  reanalyze: {
    params: { dataset: string; server: string | null; harness: HarnessChoice };
    result: SessionSummary;
  };
  /**
   * Index rows changed after revision `since` (0: every row), in line order from the line after `after` (0:
   * the first), at most a page of them; the revision they bring the caller to, and the line to ask from
   * again (`next`, null: none is left).
   */
  changes: {
    params: { dataset: string; since: number; after: number };
    result: { entries: RolloutIndexEntry[]; revision: number; next: number | null };
  };
  /** Unreadable lines [start, end) in line order (a summary carries the first SUMMARY_ERRORS). */
  lineErrors: {
    params: { dataset: string; start: number; end: number };
    result: { errors: LineError[]; total: number };
  };
  /** These rows are on screen: compute their rewards before the others. */
  prioritize: { params: { dataset: string; lines: readonly number[] }; result: null };
  /** Matching lines; partial results stream in as progress while the pool searches. */
  search: {
    params: { dataset: string; text: string };
    result: { lines: number[] };
    progress: { lines: number[] };
  };
  highlight: { params: { code: string; lang: "json" }; result: HighlightResult };
  servers: { params: Record<string, never>; result: { servers: string[] } };
}

/** Pushed by the worker whenever the session changes (rows streamed in, rewards filled in). */
export type DataEvent = { readonly kind: "session"; readonly session: SessionSummary };

/** Everything the one data worker answers: the session's requests and each feature's. */
export type DataRequests = SessionRequests & InspectorRequests & RunRequests & CompareRequests;
