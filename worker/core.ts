/**
 * The worker's only door into lib/: index rows, transcript views and verification, computed from one
 * parsed rollout line. Everything here is `unknown` in, plain summaries out.
 */
import { z } from "zod";
import type { HarnessId } from "../lib/harness/types";
import type { CallResolution, Highlight, Policy } from "../lib/identity/types";
import { type RunRow, runRow } from "../lib/run";
import { parseOutputItem, type Rollout } from "../lib/schemas";
import { callBadges, evidenceOf, triageRollout } from "../lib/triage";
import { isInputRow, type Pairing, pairingKey, verifierServers, verifyRollout } from "../lib/verify";
import type { VerifyResult } from "../lib/verify/types";
import type {
  CallView,
  DetailView,
  InputMessage,
  RolloutIndexEntry,
  TranscriptItem,
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

const MetaSchema = z.looseObject({
  _ng_task_index: z.number().optional().catch(undefined),
  _ng_rollout_index: z.number().optional().catch(undefined),
  id: z.union([z.string(), z.number()]).optional().catch(undefined),
  agent_ref: z.looseObject({ name: z.string().optional() }).optional().catch(undefined),
  environment_name: z.string().optional().catch(undefined),
  reward: z.number().optional().catch(undefined),
  mcp_tool_call_provenance: z.unknown().optional(),
  responses_create_params: z.unknown().optional(),
});

function meta(value: unknown) {
  const parsed = MetaSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
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

function counts(calls: readonly CallResolution[]): Record<Highlight, number> {
  const result: Record<Highlight, number> = { ambiguous: 0, mismatched: 0, external: 0, none: 0 };
  for (const call of calls) result[call.highlight]++;
  return result;
}

/** What the worker knows about how one row is verified: the user's server, the sample's, the pairing. */
export interface RowContext {
  readonly input: unknown;
  readonly pairing?: Pick<Pairing<unknown>, "paired_by" | "ambiguous" | "reason">;
  /** The user's verifying server (null: chooseServer decides per row). */
  readonly override: string | null;
  /** The bundled sample's declared server, if any. */
  readonly sample: string | null;
  readonly harness: HarnessId | null;
}

function verifyBoth(rollout: Rollout, context: RowContext) {
  const options = {
    server: context.override,
    sample: context.sample,
    input: context.input,
    ...(context.pairing === undefined ? {} : { pairing: context.pairing }),
    harness: context.harness ?? undefined,
  };
  return {
    contract: verifyRollout(rollout, { ...options, policy: "contract" }),
    legacy: verifyRollout(rollout, { ...options, policy: "legacy" }),
  };
}

/** The list fields of a row (with its paired input row, when there is one). */
export function rowMeta(value: unknown, input: unknown) {
  const m = meta(value);
  return {
    task_index: m._ng_task_index ?? null,
    rollout_index: m._ng_rollout_index ?? null,
    task_id: m.id === undefined ? (meta(input).id?.toString() ?? null) : m.id.toString(),
    agent: m.agent_ref?.name ?? null,
    environment: m.environment_name ?? meta(input).environment_name ?? null,
  };
}

/** One rollout as the rewards pass leaves it: its list entry, its run-view row and the names it emitted. */
export interface AnalyzedRollout {
  readonly entry: RolloutIndexEntry;
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
  const { input } = context;
  const result = verifyBoth(rollout, context);
  const calls = result.contract.resolution.calls;
  const entry: RolloutIndexEntry = {
    line,
    ...rowMeta(rollout, input),
    server: result.contract.server,
    server_source: result.contract.server_source,
    recorded: typeof rollout.reward === "number" ? rollout.reward : null,
    contract: result.contract.reward,
    legacy: result.legacy.reward,
    unverified: result.contract.unverified?.code ?? null,
    legacy_unverified: result.legacy.unverified?.code ?? null,
    calls: calls.length,
    counts: counts(calls),
    map_state: result.contract.resolution.map_state,
    gym_would_reject: (result.contract.gym_would_reject?.length ?? 0) > 0,
    verify_error: result.contract.error ?? null,
    paired: input !== undefined,
    paired_by: result.contract.paired_by,
    key: pairingKey(rollout),
    rewards: "done",
  };
  const run = runRow(line, rollout, {
    ...runOptions(context),
    contract: result.contract,
    legacy: result.legacy,
  });
  return { entry, run, emitted: [...new Set(calls.map((call) => call.emitted))] };
}

/** lib/run's options for a row context (what worker/run-handlers passes for the same row). */
export function runOptions(context: RowContext) {
  return {
    server: context.override,
    sample: context.sample,
    ...(context.input === undefined ? {} : { input: context.input }),
    ...(context.pairing === undefined ? {} : { pairing: context.pairing }),
    ...(context.harness === null ? {} : { harness: context.harness }),
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

function inputMessages(params: unknown): InputMessage[] {
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

/**
 * The output items in order, each function_call paired with its function_call_output by call_id and with
 * its resolution under each policy by output_index (the same item, not a position in another list).
 */
export function transcript(
  rollout: Rollout,
  resolutions: Readonly<Record<Policy, readonly CallResolution[]>> = { contract: [], legacy: [] },
): TranscriptItem[] {
  const byOutput = (calls: readonly CallResolution[]) =>
    new Map(calls.map((call) => [call.output_index, call]));
  const contract = byOutput(resolutions.contract);
  const legacy = byOutput(resolutions.legacy);
  // Each output item is parsed once (a 100k-call rollout has 200k of them).
  const parsed = rollout.response.output.map(parseOutputItem);
  // Outputs are consumed in order per call_id, so duplicated call_ids still pair one-to-one.
  const outputs = new Map<string, number[]>();
  parsed.forEach((item, output_index) => {
    if (item.kind !== "function_call_output") return;
    const queue = outputs.get(item.item.call_id) ?? [];
    queue.push(output_index);
    outputs.set(item.item.call_id, queue);
  });
  // A call's output, by the call's output_index; the paired outputs are shown with their call.
  const outputOf = new Map<number, number>();
  const paired = new Set<number>();
  parsed.forEach((item, output_index) => {
    if (item.kind !== "function_call" || typeof item.item.call_id !== "string") return;
    const match = outputs.get(item.item.call_id)?.shift();
    if (match === undefined) return;
    outputOf.set(output_index, match);
    paired.add(match);
  });
  const outputText = (at: number | undefined): string | null => {
    const item = at === undefined ? undefined : parsed[at];
    return item?.kind === "function_call_output" ? stringify(item.item.output) : null;
  };
  let callIndex = 0;
  const items: TranscriptItem[] = [];
  parsed.forEach((item, output_index) => {
    switch (item.kind) {
      case "message":
        items.push({
          kind: "message",
          output_index,
          role: item.item.role,
          text: partsText(item.item.content),
        });
        return;
      case "reasoning": {
        const text = partsText([...item.item.summary, ...(item.item.content ?? [])]);
        items.push({ kind: "reasoning", output_index, text });
        return;
      }
      case "function_call": {
        const match = outputOf.get(output_index);
        items.push({
          kind: "call",
          output_index,
          call_index: callIndex++,
          call_id: typeof item.item.call_id === "string" ? item.item.call_id : null,
          name: item.item.name,
          arguments: stringify(item.item.arguments),
          output: outputText(match),
          output_index_of_output: match ?? null,
          contract: contract.get(output_index) ?? null,
          legacy: legacy.get(output_index) ?? null,
          badge: null,
          decisive: false,
        });
        return;
      }
      case "function_call_output":
        // An output whose call_id matches no function_call is shown where it occurs.
        if (!paired.has(output_index)) {
          items.push({
            kind: "output",
            output_index,
            call_id: item.item.call_id,
            output: stringify(item.item.output),
          });
        }
        return;
      case "raw":
        items.push({
          kind: "other",
          output_index,
          type: item.type ?? "unknown",
          json: JSON.stringify(item.item, null, 2) ?? "",
        });
        return;
    }
  });
  return items;
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

/** Strips what travels in pages: the per-call resolution (the page gets each call's in `detailCalls`). */
function resultView({ resolution, ...rest }: VerifyResult): VerifyResultView {
  const { calls: _calls, ...summary } = resolution;
  return { ...rest, resolution: summary };
}

/**
 * One rollout opened in the detail pane: the summary the page gets at once, and every call and transcript
 * item, which it fetches a page at a time as it scrolls (a rollout can have 100k calls).
 */
export interface OpenedDetail {
  readonly view: DetailView;
  readonly calls: readonly CallView[];
  readonly items: readonly TranscriptItem[];
}

/** The detail pane of one rollout: one parse, one verification per policy, every call with its own resolution. */
export function detailView(
  entry: RolloutIndexEntry,
  rollout: Rollout,
  context: RowContext,
  byteLength: number,
): OpenedDetail {
  const { input } = context;
  const result = verifyBoth(rollout, context);
  const resolutions = { contract: result.contract.resolution.calls, legacy: result.legacy.resolution.calls };
  const legacyByOutput = new Map(resolutions.legacy.map((call) => [call.output_index, call]));
  // The same triage the run row has (lib/run runRow), from the same two results; each call's badge is read
  // from the recomputation the cause reads.
  const triage = triageRollout(rollout, {
    ...(result.contract.server === null ? {} : { server: result.contract.server }),
    ...(input === undefined ? {} : { input }),
    ...(context.harness === null ? {} : { harness: context.harness }),
    contract: result.contract,
    legacy: result.legacy,
  });
  const badges = callBadges(evidenceOf(result.contract, result.legacy), resolutions.contract.length);
  const decisive = new Set(triage?.decisive.map((call) => call.index) ?? []);
  const items = transcript(rollout, resolutions).map((item) =>
    item.kind === "call"
      ? { ...item, badge: badges[item.call_index] ?? null, decisive: decisive.has(item.call_index) }
      : item,
  );
  const calls = resolutions.contract.map((call) => ({
    contract: call,
    legacy: legacyByOutput.get(call.output_index) ?? null,
    badge: badges[call.index] ?? null,
    decisive: decisive.has(call.index),
  }));
  const callItems = new Array<number>(calls.length).fill(-1);
  items.forEach((item, at) => {
    if (item.kind === "call") callItems[item.call_index] = at;
  });
  return {
    view: {
      line: entry.line,
      entry,
      input: inputMessages(rollout.responses_create_params ?? meta(input).responses_create_params),
      call_count: calls.length,
      item_count: items.length,
      call_items: callItems,
      findings: result.contract.resolution.findings,
      byte_length: byteLength,
      extra_fields: extraFields(rollout),
      verification: {
        server: result.contract.server,
        harness: context.harness,
        contract: resultView(result.contract),
        legacy: resultView(result.legacy),
      },
      triage,
    },
    calls,
    items,
  };
}
