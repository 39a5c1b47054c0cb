/**
 * `responses_create_params.input` as Gym's request model reads it (nemo_gym/openai_utils.py,
 * NeMoGymResponseInputItem): a task row written by hand (`{"role": "user", "content": "..."}`) and the same
 * row as a rollout echoes it after pydantic filled its defaults (`"type": "message"`) are one task. Pairing
 * compares inputs after these defaults, so a dataset pairs with the rollouts made from it.
 *
 * The defaults, per item of the union (pydantic's smart mode picks the member that validates with the most
 * fields set; explicit values always win):
 *   NeMoGymEasyInputMessage (role + content)            type "message"
 *   NeMoGymMessage (role + content list + status)       type "message" (status is then given)
 *   NeMoGymResponseOutputMessage (id + content list)    role "assistant", status "completed", type "message";
 *     its NeMoGymResponseOutputText parts                type "output_text", logprobs null;
 *     its NeMoGymResponseOutputRefusal parts             type "refusal"
 *   NeMoGymResponseFunctionToolCall (call_id, name, arguments)  type "function_call", id null, status null
 *   NeMoGymFunctionCallOutput (call_id, output)         type "function_call_output", id null, status null
 *   NeMoGymResponseReasoningItem (id, summary)          type "reasoning", encrypted_content null, content null
 * A string input stays a string (the request model's `Union[str, NeMoGymResponseInput]`).
 */
import { isJsonObject } from "../schemas";

type Json = Record<string, unknown>;

const has = (item: Json, key: string) => Object.hasOwn(item, key);

function outputPart(part: unknown): unknown {
  if (!isJsonObject(part)) return part;
  if (has(part, "refusal") && (part.type === undefined || part.type === "refusal"))
    return { type: "refusal", ...part };
  if (has(part, "text") && (part.type === undefined || part.type === "output_text"))
    return { type: "output_text", logprobs: null, ...part };
  return part;
}

/** One input item with the defaults of the request-model member it validates as. */
export function gymInputItem(item: unknown): unknown {
  if (!isJsonObject(item)) return item;
  const type = item.type;
  if (type === "function_call" || (type === undefined && has(item, "name") && has(item, "arguments")))
    return { type: "function_call", id: null, status: null, ...item };
  if (type === "function_call_output" || (type === undefined && has(item, "call_id") && has(item, "output")))
    return { type: "function_call_output", id: null, status: null, ...item };
  if (type === "reasoning" || (type === undefined && has(item, "summary")))
    return { type: "reasoning", encrypted_content: null, content: null, ...item };
  if (type !== undefined && type !== "message") return item;
  const content = item.content;
  const outputMessage =
    has(item, "id") && Array.isArray(content) && (item.role === undefined || item.role === "assistant");
  if (outputMessage) {
    return {
      role: "assistant",
      status: "completed",
      type: "message",
      ...item,
      content: content.map(outputPart),
    };
  }
  if (has(item, "role") && has(item, "content")) return { type: "message", ...item };
  return item;
}

/** `responses_create_params.input` with Gym's request-model defaults applied to every item. */
export function gymInput(input: unknown): unknown {
  return Array.isArray(input) ? input.map(gymInputItem) : input;
}
