import { z } from "zod";
import { formatIssues } from "./issues";

/**
 * Responses API output items (gym-facts §1.4). Every item is a loose object: unknown keys are kept.
 *
 * `function_call` is deliberately lenient about `call_id` and `arguments`: the call-identity contract has
 * to see a call without a usable call_id (status `uncorrelated`), and argument JSON is the verifier's
 * business (Gym sends it as a JSON string; a verifier narrows it). Only `name` is required, because the
 * emitted name is what identity resolution is about.
 */
export const FunctionCallSchema = z.looseObject({
  type: z.literal("function_call"),
  name: z.string({ error: "expected the emitted name as a string" }),
  arguments: z.unknown().optional(),
  call_id: z.unknown().optional(),
  id: z.string().nullish(),
  status: z.string().nullish(),
});
export type FunctionCall = z.infer<typeof FunctionCallSchema>;

export const FunctionCallOutputSchema = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: z.string(),
  output: z.union([z.string(), z.array(z.unknown())]),
  id: z.string().nullish(),
  status: z.string().nullish(),
});
export type FunctionCallOutput = z.infer<typeof FunctionCallOutputSchema>;

const ContentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

export const MessageSchema = z.looseObject({
  type: z.literal("message"),
  id: z.string().nullish(),
  role: z.string(),
  content: z.union([z.string(), z.array(ContentPartSchema)]),
  status: z.string().nullish(),
});
export type Message = z.infer<typeof MessageSchema>;

export const ReasoningSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string().nullish(),
  summary: z.array(ContentPartSchema),
  content: z.array(ContentPartSchema).nullish(),
  encrypted_content: z.string().nullish(),
});
export type Reasoning = z.infer<typeof ReasoningSchema>;

/** What every output item must be: an object with a string `type` (Gym requires it). */
export const AnyOutputItemSchema = z.looseObject(
  { type: z.string({ error: "an output item needs a string type" }) },
  { error: "expected an output item object" },
);

/**
 * An output item as the rollout schema checks it: any typed object, and a `function_call` must also pass
 * FunctionCallSchema. Other known types are checked only by `parseOutputItem`, so a malformed message
 * does not make the whole rollout unreadable for identity resolution.
 */
export const OutputItemSchema = AnyOutputItemSchema.superRefine((item, ctx) => {
  if (item.type !== "function_call") return;
  const parsed = FunctionCallSchema.safeParse(item);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  }
});

export type ParsedOutputItem =
  | { readonly kind: "function_call"; readonly item: FunctionCall }
  | { readonly kind: "function_call_output"; readonly item: FunctionCallOutput }
  | { readonly kind: "message"; readonly item: Message }
  | { readonly kind: "reasoning"; readonly item: Reasoning }
  /** Any other type, or a known type that does not match its schema: kept as raw JSON. */
  | {
      readonly kind: "raw";
      readonly type: string | null;
      readonly item: unknown;
      readonly issues: readonly string[];
    };

/** Narrows one output item; never throws. Unknown or malformed items come back as `raw` with the reasons. */
export function parseOutputItem(value: unknown): ParsedOutputItem {
  const base = AnyOutputItemSchema.safeParse(value);
  if (!base.success) return { kind: "raw", type: null, item: value, issues: formatIssues(base.error.issues) };
  const type = base.data.type;
  const raw = (issues: z.core.$ZodIssue[]): ParsedOutputItem => ({
    kind: "raw",
    type,
    item: value,
    issues: formatIssues(issues),
  });
  switch (type) {
    case "function_call": {
      const r = FunctionCallSchema.safeParse(value);
      return r.success ? { kind: "function_call", item: r.data } : raw(r.error.issues);
    }
    case "function_call_output": {
      const r = FunctionCallOutputSchema.safeParse(value);
      return r.success ? { kind: "function_call_output", item: r.data } : raw(r.error.issues);
    }
    case "message": {
      const r = MessageSchema.safeParse(value);
      return r.success ? { kind: "message", item: r.data } : raw(r.error.issues);
    }
    case "reasoning": {
      const r = ReasoningSchema.safeParse(value);
      return r.success ? { kind: "reasoning", item: r.data } : raw(r.error.issues);
    }
    default:
      return { kind: "raw", type, item: value, issues: [] };
  }
}
