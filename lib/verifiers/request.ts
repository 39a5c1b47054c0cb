/**
 * Narrowing helpers shared by verifiers: the parts of a verify request every Gym server reads the same way
 * (`response.output`, its function_calls) and the shape of a refusal.
 */
import { z } from "zod";
import type { VerifierOutput } from "./types";

/**
 * `response` as a verify request carries it: output items stay unknown (each verifier narrows its calls
 * with requestCalls). Not lib/schemas' ResponseSchema, which reads a rollout line's typed output items.
 */
export const RequestResponseSchema = z.looseObject({
  output: z.array(z.unknown()),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
});

const TypedItem = z.object({ type: z.string() });

const FunctionCallItem = z.object({
  type: z.literal("function_call"),
  name: z.string(),
  arguments: z.string(),
});

/** A function_call as the verifier sees it (its verifier name); lib/schemas' functionCalls reads a rollout's. */
export interface RequestCall {
  /** 0-based position among the response's function_calls (CallResolution.index). */
  readonly index: number;
  /** Position in `response.output`. */
  readonly output_index: number;
  /** The verifier name: what the verifier sees after canonicalization. */
  readonly name: string;
  /** The raw JSON text the model emitted. */
  readonly arguments: string;
}

export type Narrowed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string };

/** A zod failure as one line: "injection.target_tool: expected string, received undefined". */
export function describeIssues(error: z.ZodError, prefix = ""): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter((p) => p !== "").join(".");
      return path === "" ? issue.message : `${path}: ${issue.message}`;
    })
    .join("; ");
}

/** Narrow `request` with `schema`, reporting the first problems in one line. */
export function narrow<T>(schema: z.ZodType<T>, request: unknown): Narrowed<T> {
  const parsed = schema.safeParse(request);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: describeIssues(parsed.error) };
}

/** Every function_call of `output`, in order; an error names the first item Gym's request model would refuse. */
export function requestCalls(output: readonly unknown[]): Narrowed<RequestCall[]> {
  const calls: RequestCall[] = [];
  for (let i = 0; i < output.length; i++) {
    const typed = TypedItem.safeParse(output[i]);
    if (!typed.success)
      return { ok: false, error: `response.output[${i}]: an output item needs a string "type"` };
    if (typed.data.type !== "function_call") continue;
    const call = FunctionCallItem.safeParse(output[i]);
    if (!call.success) return { ok: false, error: describeIssues(call.error, `response.output[${i}]`) };
    calls.push({
      index: calls.length,
      output_index: i,
      name: call.data.name,
      arguments: call.data.arguments,
    });
  }
  return { ok: true, value: calls };
}

/** What a verifier returns for a request its Gym server would refuse (HTTP 422/500): no score, one reason. */
export function refused(server: string, reason: string): VerifierOutput {
  return {
    reward: 0,
    error: `${server} cannot score this request: ${reason}`,
    explanation: [
      `Gym's ${server} server would refuse this verify request (${reason}), so it has no reward.`,
    ],
  };
}
