/**
 * A tool call the model wrote as text in an assistant message of a response that makes no function_call:
 * Gym's verifiers read function_call items only, so such a call is never made and the rollout scores as one
 * without any call. What it usually means: the model server's tool-call parser (vLLM's `--tool-call-parser`,
 * a chat template) did not extract the model's markup into a function_call.
 */
import { displayName } from "../names";
import { isJsonObject, type Rollout } from "../schemas";

export interface TextToolCall {
  /** The markup the call was written in (`<tool_call>`, `[TOOL_CALLS]`, a JSON call object, ...). */
  readonly form: string;
  /** The tool it names, when it names one (model text: quote it, never render it as markup). */
  readonly name: string | null;
  /** Where the message is in response.output. */
  readonly output_index: number;
}

/** Longest tool name taken from the text (a name is a short identifier; the rest would be quoted noise). */
const NAME_CHARS = 120;

/** Chat-template markups that open a tool call, and where each names its tool. */
const MARKUPS: readonly { readonly form: string; readonly pattern: RegExp }[] = [
  // Hermes and Qwen: <tool_call>{"name": ..., "arguments": ...}</tool_call>
  { form: "<tool_call>", pattern: /<tool_call>\s*\{\s*"name"\s*:\s*"([^"\\]+)"|<tool_call>/ },
  // Llama 3.1+: <function=name>{...}</function>, or <|python_tag|>{"name": ...}
  { form: "<function=…>", pattern: /<function=([\w.:-]+)>/ },
  { form: "<|python_tag|>", pattern: /<\|python_tag\|>\s*\{\s*"name"\s*:\s*"([^"\\]+)"|<\|python_tag\|>/ },
  // Mistral: [TOOL_CALLS][{"name": ..., "arguments": ...}]
  { form: "[TOOL_CALLS]", pattern: /\[TOOL_CALLS\]\s*\[?\s*\{\s*"name"\s*:\s*"([^"\\]+)"|\[TOOL_CALLS\]/ },
  // Any template: a JSON call object, bare or in a code fence.
  {
    form: 'a JSON call object ({"name": …, "arguments": …})',
    pattern: /\{\s*"name"\s*:\s*"([^"\\]+)"\s*,\s*"(?:arguments|parameters)"\s*:/,
  },
];

function messageText(item: Record<string, unknown>): string {
  const content = item.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isJsonObject(part) && typeof part.text === "string" ? part.text : ""))
    .join("\n");
}

/** The first tool call written as text in the response's assistant messages, or null. */
export function textToolCall(rollout: Rollout): TextToolCall | null {
  for (const [output_index, item] of rollout.response.output.entries()) {
    if (!isJsonObject(item) || item.type !== "message" || item.role !== "assistant") continue;
    const text = messageText(item);
    for (const { form, pattern } of MARKUPS) {
      const match = pattern.exec(text);
      if (match === null) continue;
      const name = match[1]?.slice(0, NAME_CHARS) ?? null;
      return { form, name, output_index };
    }
  }
  return null;
}

/** One sentence on the call written as text, for the no-tool-call cause. */
export function textToolCallText(call: TextToolCall): string {
  // Model text: its invisible, bidi and control characters shown as ⟨U+XXXX⟩ (lib/names), as every name is.
  const named = call.name === null ? "" : ` naming ${JSON.stringify(displayName(call.name))}`;
  return `Its message (output ${call.output_index}) writes a tool call as text instead (${call.form}${named}): Gym's verifiers read function_call items only, so the call was never made (the model server's tool-call parser did not extract it).`;
}
