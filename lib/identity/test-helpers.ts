/** Builders for small rollouts in identity and canonicalize tests. */

export interface CallSpec {
  readonly name: string;
  /** `undefined` leaves the key out; anything else is written as is. */
  readonly call_id?: unknown;
}

export function functionCallItem(spec: CallSpec, position: number): Record<string, unknown> {
  const item: Record<string, unknown> = {
    type: "function_call",
    name: spec.name,
    arguments: "{}",
    id: `fc_${position}`,
    status: "completed",
  };
  if ("call_id" in spec) item.call_id = spec.call_id;
  return item;
}

/** A rollout whose output interleaves each call with a message, so output positions differ from call indexes. */
export function rolloutWith(calls: readonly CallSpec[], provenance?: unknown): Record<string, unknown> {
  const output: unknown[] = [{ type: "reasoning", id: "rs_0", summary: [] }];
  calls.forEach((spec, i) => {
    output.push(functionCallItem(spec, i));
    output.push({
      type: "function_call_output",
      call_id: typeof spec.call_id === "string" ? spec.call_id : "",
      output: "ok",
    });
  });
  output.push({
    type: "message",
    id: "msg_0",
    role: "assistant",
    content: [{ type: "output_text", text: "done" }],
  });
  const rollout: Record<string, unknown> = {
    responses_create_params: { input: [] },
    response: { id: "resp_0", output },
    reward: 0,
  };
  if (provenance !== undefined) rollout.mcp_tool_call_provenance = provenance;
  return rollout;
}

/** Freezes a JSON value and everything inside it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
