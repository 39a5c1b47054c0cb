/** Golden workplace_assistant fixtures and rollout re-emission, for compare / what-if / repair / export tests. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { aliasFor, type HarnessId } from "../harness";

export const GOLDEN_DIR = join("fixtures", "golden", "workplace-rollouts");
export const WA = "workplace_assistant";

const Expected = z.looseObject({
  scheme: z.string(),
  // null where Gym's request model refuses the request (gym_refuses / gym_refuses_contract in the golden files).
  contract: z.looseObject({ reward: z.number().nullable() }),
  legacy: z.looseObject({ reward: z.number().nullable() }),
});
export type ExpectedLine = z.infer<typeof Expected>;

export function readLines(file: string): string[] {
  return readFileSync(join(GOLDEN_DIR, file), "utf8")
    .split("\n")
    .filter((l) => l !== "");
}

export interface GoldenRollout {
  readonly line: number;
  readonly text: string;
  readonly rollout: Record<string, unknown>;
  readonly expected: ExpectedLine;
}

const Obj = z.record(z.string(), z.unknown());

/** wa_rollouts.jsonl (or wa_noecho.jsonl) with their expectations, line by line. */
export function golden(which: "echo" | "noecho" = "echo"): GoldenRollout[] {
  const rollouts = readLines(which === "echo" ? "wa_rollouts.jsonl" : "wa_noecho.jsonl");
  const expected = readLines(which === "echo" ? "wa_expected.jsonl" : "wa_noecho_expected.jsonl");
  return rollouts.map((text, i) => ({
    line: i + 1,
    text,
    rollout: Obj.parse(JSON.parse(text)),
    expected: Expected.parse(JSON.parse(expected[i] ?? "null")),
  }));
}

export function goldenInputs(): unknown[] {
  return readLines("wa_inputs.jsonl").map((l): unknown => JSON.parse(l));
}

const FunctionCallItem = z.looseObject({ type: z.literal("function_call"), name: z.string() });

/**
 * A deep copy of `rollout` with every function_call renamed by `rename` (call index, name); with
 * `provenance`, a map naming (S, original name) for every call with a string call_id, else no map.
 */
export function reemit(
  rollout: Record<string, unknown>,
  rename: (name: string, index: number) => string,
  provenance: boolean,
): Record<string, unknown> {
  const copy = structuredClone(rollout);
  const output = z.looseObject({ output: z.array(z.unknown()) }).parse(copy.response).output;
  const map: Record<string, { server_name: string; tool_name: string }> = {};
  let index = 0;
  for (const item of output) {
    const call = FunctionCallItem.safeParse(item);
    if (!call.success || typeof item !== "object" || item === null) continue;
    const callId: unknown = Reflect.get(item, "call_id");
    if (typeof callId === "string") map[callId] = { server_name: WA, tool_name: call.data.name };
    Reflect.set(item, "name", rename(call.data.name, index));
    index++;
  }
  delete copy.mcp_tool_call_provenance;
  if (provenance) copy.mcp_tool_call_provenance = map;
  return copy;
}

/** The bare rollout as harness `h` would have emitted it (names only; workplace_assistant tools). */
export function asHarness(rollout: Record<string, unknown>, h: HarnessId, provenance: boolean) {
  return reemit(rollout, (name) => aliasFor(h, WA, name), provenance);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A deep copy of `rollout` with `edit` applied to each function_call item (in order); everything else kept. */
export function editCalls(
  rollout: Record<string, unknown>,
  edit: (call: Record<string, unknown>, index: number) => void,
): Record<string, unknown> {
  const copy = structuredClone(rollout);
  const response = copy.response;
  if (!isRecord(response) || !Array.isArray(response.output)) return copy;
  let index = 0;
  for (const item of response.output) {
    if (!isRecord(item) || item.type !== "function_call") continue;
    edit(item, index);
    index++;
  }
  return copy;
}
