/**
 * What the inspector shows of one rollout, computed from its parsed line: its list entry and run row, its
 * transcript, its detail pane and both verifications. Plain summaries out, so they cross to the page.
 * (Other worker files call lib/ too: reading files, pairing, search, the run view.)
 */
import { z } from "zod";
import type { HarnessId } from "../lib/harness/types";
import { rolloutResolver } from "../lib/identity";
import { readProvenance } from "../lib/identity/provenance-map";
import type { CallResolution, Highlight, Policy } from "../lib/identity/types";
import type { LineOptions } from "../lib/live";
import { type RunRow, rolloutRowOf, runRow } from "../lib/run";
import { functionCalls, parseOutputItem, type Rollout } from "../lib/schemas";
import { callBadges, evidencePolicy, packBadges, recordedFieldsFor, triageRollout } from "../lib/triage";
import {
  type ConfigRouter,
  isInputRow,
  LISTED_SENTENCES,
  type LineSource,
  listedDetails,
  type Pairing,
  pairingKey,
  verifierServers,
  verifyBothPolicies,
  verifyContext,
  verifyingServer,
} from "../lib/verify";
import { knownNamesOf } from "../lib/verify/known-names";
import type { VerifyResult } from "../lib/verify/types";
import type {
  CallView,
  DetailView,
  HighlightCounts,
  InputMessage,
  RolloutIndexEntry,
  TranscriptItem,
  VerificationView,
  VerifiedDetail,
  VerifyResultView,
} from "./protocol";

/** Longest JSON preview of a task field shown in the detail header. */
export const FIELD_PREVIEW_CHARS = 400;

/** A materialized-inputs row (lib/verify's rule, one place). */
export { isInputRow };

/** A file is materialized inputs when every row that parsed is an input row (and there is one). */
export function datasetKind(inputRows: number, parsedRows: number): "rollouts" | "inputs" {
  return inputRows > 0 && inputRows === parsedRows ? "inputs" : "rollouts";
}

/** The prompt's fields, read from a paired input row when the rollout carries none. */
const CreateParamsOf = z.looseObject({ responses_create_params: z.unknown().optional() });

function createParamsOf(value: unknown): unknown {
  const parsed = CreateParamsOf.safeParse(value);
  return parsed.success ? parsed.data.responses_create_params : undefined;
}

/** Key that pairs a materialized-inputs row with its rollout: (_ng_task_index, _ng_rollout_index). */
export function inputKey(row: unknown): string | null {
  return pairingKey(row);
}

export const rolloutKey = inputKey;

/** Servers the browser can verify for. */
export function servers(): string[] {
  return [...verifierServers()].sort();
}

/** Per-highlight call counts (the list's badges). */
export function highlightCounts(calls: readonly CallResolution[]): Record<Highlight, number> {
  const result: Record<Highlight, number> = { ambiguous: 0, mismatched: 0, external: 0, none: 0 };
  for (const call of calls) result[call.highlight]++;
  return result;
}

/** What the worker knows about how one row is verified: the user's server, the sample's, the pairing. */
export interface RowContext {
  readonly input: unknown;
  readonly pairing?: Pick<Pairing<unknown>, "paired_by" | "ambiguous" | "reason" | "row">;
  /** The user's verifying server (null: chooseServer decides per row). */
  readonly override: string | null;
  /** The bundled sample's declared server, if any. */
  readonly sample: string | null;
  readonly harness: HarnessId | null;
  /** An opened folder's config routes (chooseServer's `config` source), or null. */
  readonly config?: ConfigRouter | null;
  /** A folder file's path and configs (the next steps of an unverified line). */
  readonly source?: LineSource | null;
  /** The open task rows' keys (lib/verify InputIndex taskKeys). */
  readonly taskKeys?: ReadonlySet<string>;
}

/**
 * A row's verification for another front end (/live): the verifying server chooseServer gives it here (the
 * folder's config routes do not cross to the page), its paired task row and its source.
 */
export function lineOptionsOf(rollout: Rollout, context: RowContext): LineOptions {
  const options = verifyOptions(context);
  return {
    server: verifyingServer(rollout, options),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.pairing === undefined ? {} : { pairing: options.pairing }),
    ...(options.source === undefined ? {} : { source: options.source }),
  };
}

/** lib/verify's options for a row context (without the policy). */
function verifyOptions(context: RowContext) {
  return {
    server: context.override,
    sample: context.sample,
    input: context.input,
    ...(context.pairing === undefined ? {} : { pairing: context.pairing }),
    harness: context.harness ?? undefined,
    config: context.config ?? null,
    ...(context.source ? { source: context.source } : {}),
  };
}

/** One rollout as the rewards pass leaves it: its list entry, its run-view row and the names it emitted. */
export interface AnalyzedRollout {
  /** Its calls resolved: the counts are known. */
  readonly entry: RolloutIndexEntry & { readonly counts: HighlightCounts };
  /** lib/run's row (both policies, why-zero cause, model and tokens): the run view aggregates these. */
  readonly run: RunRow;
  /** Distinct emitted call names under the contract policy (the harness inference reads them). */
  readonly emitted: readonly string[];
}

export function analyzeRollout(line: number, rollout: Rollout, context: RowContext): RolloutIndexEntry {
  return analyzeRolloutRun(line, rollout, context).entry;
}

/**
 * Verifies once under both policies and derives everything the pages list from those two results: the
 * index entry and the run row (the run view never verifies again).
 */
export function analyzeRolloutRun(line: number, rollout: Rollout, context: RowContext): AnalyzedRollout {
  const result = verifyBothPolicies(rollout, verifyOptions(context));
  const calls = result.contract.resolution.calls;
  const run = runRow(line, rollout, { ...runOptions(context), ...result });
  return {
    entry: { ...rolloutRowOf(run), counts: highlightCounts(calls), rewards: "done" },
    run,
    emitted: [...new Set(calls.map((call) => call.emitted))],
  };
}

/** lib/run's options for a row context (what features/run/handlers.ts passes for the same row). */
export function runOptions(context: RowContext) {
  return {
    server: context.override,
    sample: context.sample,
    ...(context.input === undefined ? {} : { input: context.input }),
    ...(context.pairing === undefined ? {} : { pairing: context.pairing }),
    ...(context.harness === null ? {} : { harness: context.harness }),
    config: context.config ?? null,
    ...(context.source ? { source: context.source } : {}),
    ...(context.taskKeys ? { taskKeys: context.taskKeys } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Transcript

const TextPartSchema = z.looseObject({ type: z.string().optional(), text: z.string().optional() });
const InputItemSchema = z.looseObject({
  role: z.string().optional(),
  type: z.string().optional(),
  content: z.union([z.string(), z.array(TextPartSchema)]).optional(),
});
const CreateParamsSchema = z.looseObject({
  input: z.union([z.string(), z.array(z.unknown())]).optional(),
  instructions: z.string().nullish(),
});

function partsText(content: string | readonly z.infer<typeof TextPartSchema>[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((part) => part.text ?? "")
    .filter((text) => text.length > 0)
    .join("\n");
}

export function inputMessages(params: unknown): InputMessage[] {
  const parsed = CreateParamsSchema.safeParse(params);
  if (!parsed.success) return [];
  const messages: InputMessage[] = [];
  if (parsed.data.instructions) messages.push({ role: "instructions", text: parsed.data.instructions });
  const input = parsed.data.input;
  if (typeof input === "string") messages.push({ role: "user", text: input });
  else if (input) {
    for (const item of input) {
      const message = InputItemSchema.safeParse(item);
      if (message.success && message.data.content !== undefined) {
        messages.push({
          role: message.data.role ?? message.data.type ?? "input",
          text: partsText(message.data.content),
        });
      } else {
        messages.push({ role: "item", text: JSON.stringify(item, null, 2) });
      }
    }
  }
  return messages;
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return JSON.stringify(value);
}

/** Resolves a call (by call index) under one policy; null when the rollout's calls are not resolved. */
type CallResolutionOf = (callIndex: number) => CallResolution | null;

/** A rollout's transcript, an item at a time (a 100k-call rollout has 200k+ output items). */
export interface TranscriptIndex {
  readonly count: number;
  /** Each call's item index, by call index. */
  readonly callItems: Int32Array;
  item(index: number): TranscriptItem;
}

/**
 * The output items in order, each function_call paired with its function_call_output by call_id and with
 * its resolution under each policy (by call index: the same item, not a position in another list). Only
 * what pairing needs is read up front: each item is parsed and built when it is asked for.
 */
export function transcriptIndex(
  rollout: Rollout,
  resolutions: Readonly<Record<Policy, CallResolutionOf>> = { contract: () => null, legacy: () => null },
): TranscriptIndex {
  const output = rollout.response.output;
  const calls = functionCalls(rollout);
  // Outputs are consumed in order per call_id, so duplicated call_ids still pair one-to-one. One output per
  // call_id (the usual case) is kept as its index, a queue only for repeats; the per-item tables are typed
  // arrays: on a 100k-call rollout maps and sets of boxed indexes were most of this pass and its garbage.
  const outputs = new Map<string, number | number[]>();
  for (let output_index = 0; output_index < output.length; output_index++) {
    // parseOutputItem's kind is "function_call_output" only for items of that type: the others are skipped unparsed.
    if (output[output_index]?.type !== "function_call_output") continue;
    const item = parseOutputItem(output[output_index]);
    if (item.kind !== "function_call_output") continue;
    const queued = outputs.get(item.item.call_id);
    if (queued === undefined) outputs.set(item.item.call_id, output_index);
    else if (typeof queued === "number") outputs.set(item.item.call_id, [queued, output_index]);
    else queued.push(output_index);
  }
  const nextOutput = (callId: string): number | undefined => {
    const queued = outputs.get(callId);
    if (typeof queued === "number") {
      outputs.delete(callId);
      return queued;
    }
    return queued?.shift();
  };
  // By output_index: a call's output (-1: none), whether an output is shown with its call, a call's index.
  const outputOf = new Int32Array(output.length).fill(-1);
  const paired = new Uint8Array(output.length);
  const callAt = new Int32Array(output.length).fill(-1);
  let pairedCount = 0;
  for (const call of calls) {
    callAt[call.output_index] = call.index;
    if (typeof call.call.call_id !== "string") continue;
    const match = nextOutput(call.call.call_id);
    if (match === undefined) continue;
    outputOf[call.output_index] = match;
    paired[match] = 1;
    pairedCount++;
  }
  const shown = new Int32Array(output.length - pairedCount);
  const callItems = new Int32Array(calls.length).fill(-1);
  let count = 0;
  for (let output_index = 0; output_index < output.length; output_index++) {
    if (paired[output_index] === 1) continue;
    const callIndex = callAt[output_index] ?? -1;
    if (callIndex !== -1) callItems[callIndex] = count;
    shown[count++] = output_index;
  }
  const outputText = (at: number | undefined): string | null => {
    if (at === undefined) return null;
    const item = parseOutputItem(output[at]);
    return item.kind === "function_call_output" ? stringify(item.item.output) : null;
  };
  const item = (index: number): TranscriptItem => {
    const output_index = shown[index];
    if (output_index === undefined || index >= count) throw new RangeError(`no transcript item #${index}`);
    const parsed = parseOutputItem(output[output_index]);
    switch (parsed.kind) {
      case "message":
        return {
          kind: "message",
          output_index,
          role: parsed.item.role,
          text: partsText(parsed.item.content),
        };
      case "reasoning":
        return {
          kind: "reasoning",
          output_index,
          text: partsText([...parsed.item.summary, ...(parsed.item.content ?? [])]),
        };
      case "function_call": {
        const at = outputOf[output_index] ?? -1;
        const match = at === -1 ? undefined : at;
        const callIndex = callAt[output_index] ?? -1;
        return {
          kind: "call",
          output_index,
          call_index: callIndex,
          call_id: typeof parsed.item.call_id === "string" ? parsed.item.call_id : null,
          name: parsed.item.name,
          arguments: stringify(parsed.item.arguments),
          output: outputText(match),
          output_index_of_output: match ?? null,
          contract: resolutions.contract(callIndex),
          legacy: resolutions.legacy(callIndex),
        };
      }
      case "function_call_output":
        // An output whose call_id matches no function_call is shown where it occurs.
        return {
          kind: "output",
          output_index,
          call_id: parsed.item.call_id,
          output: stringify(parsed.item.output),
        };
      case "raw":
        return {
          kind: "other",
          output_index,
          type: parsed.type ?? "unknown",
          json: JSON.stringify(parsed.item, null, 2) ?? "",
        };
    }
  };
  return { count, callItems, item };
}

/** Every transcript item at once (tests, small rollouts); the detail pane takes them a page at a time. */
export function transcript(
  rollout: Rollout,
  resolutions: Readonly<Record<Policy, readonly CallResolution[]>> = { contract: [], legacy: [] },
): TranscriptItem[] {
  const index = transcriptIndex(rollout, {
    contract: (i) => resolutions.contract[i] ?? null,
    legacy: (i) => resolutions.legacy[i] ?? null,
  });
  return Array.from({ length: index.count }, (_, i) => index.item(i));
}

const SHOWN_ELSEWHERE = new Set(["response", "responses_create_params", "mcp_tool_call_provenance"]);

function extraFields(value: unknown): { key: string; preview: string }[] {
  const parsed = z.record(z.string(), z.unknown()).safeParse(value);
  if (!parsed.success) return [];
  return Object.entries(parsed.data)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key))
    .map(([key, field]) => {
      const json = JSON.stringify(field) ?? "undefined";
      const preview = json.length > FIELD_PREVIEW_CHARS ? `${json.slice(0, FIELD_PREVIEW_CHARS)}…` : json;
      return { key, preview };
    });
}

/**
 * A policy's result as the detail pane gets it: no per-call resolution (the page gets each call's in
 * `detailCalls`), and the explanation and verifier details bounded (lib/verify listedDetails).
 */
function resultView({ resolution, explanation, details, ...rest }: VerifyResult): VerifyResultView {
  const { calls: _calls, ...summary } = resolution;
  return {
    ...rest,
    resolution: summary,
    explanation: explanation.slice(0, LISTED_SENTENCES),
    explanation_total: explanation.length,
    ...(details === undefined ? {} : { details: listedDetails(details) }),
  };
}

/**
 * One rollout opened in the detail pane: the summary the page gets at once, and its calls and transcript
 * items, built a page at a time as the page scrolls (a rollout can have 100k calls). The verification is
 * not part of it: it is computed apart (detailVerification), so the calls are on screen first.
 */
export interface OpenedDetail {
  readonly view: DetailView;
  calls(start: number, end: number): CallView[];
  items(start: number, end: number): TranscriptItem[];
}

/** Most rows one range request returns, whatever it asks for. */
export const MAX_DETAIL_RANGE = 1_000;

function rangeOf(count: number, start: number, end: number): { from: number; to: number } {
  const from = Math.max(0, Math.floor(start));
  return { from, to: Math.min(Math.floor(end), from + MAX_DETAIL_RANGE, count) };
}

/**
 * The detail pane of one rollout: one parse, both policies' resolvers (lib/identity, prepared once, each
 * call resolved when its page is asked for) with the server and options verification uses.
 */
export function openDetail(
  entry: RolloutIndexEntry,
  rollout: Rollout,
  context: RowContext,
  byteLength: number,
): OpenedDetail {
  const { input } = context;
  const options = verifyOptions(context);
  const contractContext = verifyContext(rollout, { ...options, policy: "contract" });
  const contract = rolloutResolver(rollout, contractContext.resolve);
  const legacy = rolloutResolver(rollout, verifyContext(rollout, { ...options, policy: "legacy" }).resolve);
  const index = transcriptIndex(rollout, {
    contract: (i) => (i >= 0 && i < contract.count ? contract.call(i) : null),
    legacy: (i) => (i >= 0 && i < legacy.count ? legacy.call(i) : null),
  });
  return {
    view: {
      line: entry.line,
      entry,
      input: inputMessages(rollout.responses_create_params ?? createParamsOf(input)),
      call_count: contract.count,
      item_count: index.count,
      call_items: index.callItems,
      findings: contract.findings,
      byte_length: byteLength,
      extra_fields: extraFields(rollout),
      lookalikes: lookalikesOf(rollout, contractContext.choice.server, entry, (i) => [
        contract.call(i),
        legacy.call(i),
      ]),
    },
    calls(start, end) {
      const { from, to } = rangeOf(contract.count, start, end);
      const out: CallView[] = [];
      for (let i = from; i < to; i++) out.push({ contract: contract.call(i), legacy: legacy.call(i) });
      return out;
    },
    items(start, end) {
      const { from, to } = rangeOf(index.count, start, end);
      const out: TranscriptItem[] = [];
      for (let i = from; i < to; i++) out.push(index.item(i));
      return out;
    },
  };
}

/** Most decisive calls the detail pane lists at once (a 100k-call aliased rollout has 100k). */
export const LISTED_DECISIVE = 50;
/**
 * Calls whose outcome badge travels with the verification (the listed decisive ones beyond too), so it stays
 * bounded on a 100k-call rollout (features/inspector/detail-pages.test.ts); later calls' badges are asked
 * for a page at a time as they come on screen (detailBadges).
 */
export const BADGED_CALLS = 2_000;

/**
 * The names shown for a rollout that look like another name it knows, with that name. Only a name that is
 * not plain ASCII can be confusable, so only its calls are resolved here (for their verifier names); the
 * rest stay lazy.
 */
function lookalikesOf(
  rollout: Rollout,
  server: string | null,
  entry: RolloutIndexEntry,
  resolved: (index: number) => readonly CallResolution[],
): [string, string][] {
  const known = knownNamesOf(rollout, server);
  const pairs: [string, string][] = [];
  const seen = new Set<string>();
  // The look-alike test first: it is cheap for the plain names most are, and a set of every call_id seen
  // was a tenth of a 100k-call rollout's open.
  const check = (name: string) => {
    const other = known.lookalike(name);
    if (other === null || seen.has(name)) return;
    seen.add(name);
    pairs.push([name, other]);
  };
  if (entry.environment !== null) check(entry.environment);
  if (server !== null) check(server);
  for (const { index, call } of functionCalls(rollout)) {
    const before = pairs.length;
    check(call.name);
    if (typeof call.call_id === "string") check(call.call_id);
    if (pairs.length === before) continue;
    for (const resolution of resolved(index)) {
      check(resolution.verifier_name);
      if (resolution.provenance !== null) {
        check(resolution.provenance.server_name);
        check(resolution.provenance.tool_name);
      }
    }
  }
  for (const entry of readProvenance(rollout).entries.values())
    if (entry.valid) {
      check(entry.identity.server_name);
      check(entry.identity.tool_name);
    }
  return pairs;
}

/**
 * Both verifications of one rollout as the detail pane shows them (bounded whatever its length), with its
 * why-zero triage (the run row's, from the same two results) and each call's outcome badge, read from the
 * recomputation the cause reads.
 */
export function detailVerification(rollout: Rollout, context: RowContext): VerificationView {
  return verifiedDetail(rollout, context).view;
}

/**
 * detailVerification's view, with every call's badge and every decisive call beside it: the pool's answer to
 * the data worker, which pages them to the detail pane (features/inspector/detail-pages.ts).
 */
export function verifiedDetail(rollout: Rollout, context: RowContext): VerifiedDetail {
  const result = verifyBothPolicies(rollout, verifyOptions(context));
  const triage = triageRollout(rollout, {
    ...(result.contract.server === null ? {} : { server: result.contract.server }),
    ...(context.input === undefined ? {} : { input: context.input }),
    ...(context.harness === null ? {} : { harness: context.harness }),
    contract: result.contract,
    legacy: result.legacy,
  });
  const calls = result.contract.resolution.calls.length;
  const outcomePolicy = evidencePolicy(result.contract, result.legacy);
  const badges = callBadges(result[outcomePolicy], calls);
  const decisive = triage?.decisive ?? [];
  const listed = decisive.slice(0, LISTED_DECISIVE);
  const view: VerificationView = {
    server: result.contract.server,
    harness: context.harness,
    contract: resultView(result.contract),
    legacy: resultView(result.legacy),
    triage:
      triage === null
        ? null
        : (({ traces: _traces, failed_calls: _failed, signature: _signature, ...rest }) => ({
            ...rest,
            decisive: listed,
            decisive_total: rest.decisive.length,
            recorded_fields: recordedFieldsFor(rest.cause, rollout, context.input, context.taskKeys),
          }))(triage),
    badges: packBadges(
      badges,
      BADGED_CALLS,
      listed.map((call) => call.index),
    ),
    outcome_policy: outcomePolicy,
  };
  return { view, badges: packBadges(badges, calls), decisive };
}
