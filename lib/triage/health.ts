/**
 * Run health from what the line itself records about the model call (Responses API fields): whether the
 * call failed (`response.error`, or `response.status` "failed"), whether the response was cut off
 * (`response.status` "incomplete", `response.incomplete_details.reason` such as "max_output_tokens"), and
 * whether the model produced no output tokens (`response.usage.output_tokens` 0). These explain a 0 before
 * any verifier is asked: the agent never got to finish. An empty `response.output` alone is not one: an
 * agent that answers outside the Responses output (Gym's swebench writes a model_patch) has none, and its
 * scored 1 too.
 */
import { z } from "zod";
import type { Rollout } from "../schemas";

export type HealthProblem =
  | { readonly kind: "model_error"; readonly detail: string }
  | { readonly kind: "truncated"; readonly detail: string }
  | { readonly kind: "no_output"; readonly detail: string };

const ErrorSchema = z.union([
  z.string(),
  z.looseObject({
    code: z.unknown().optional(),
    message: z.unknown().optional(),
    type: z.unknown().optional(),
  }),
]);

const HealthSchema = z.looseObject({
  status: z.string().optional().catch(undefined),
  error: ErrorSchema.nullish().catch(undefined),
  incomplete_details: z
    .looseObject({ reason: z.string().optional().catch(undefined) })
    .nullish()
    .catch(undefined),
  usage: z
    .looseObject({ output_tokens: z.number().optional().catch(undefined) })
    .nullish()
    .catch(undefined),
});

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null;
}

function errorText(error: z.infer<typeof ErrorSchema>): string {
  if (typeof error === "string") return error;
  const parts = [text(error.code) ?? text(error.type), text(error.message)].filter((p) => p !== null);
  return parts.length > 0 ? parts.join(": ") : JSON.stringify(error);
}

/** The first health problem the line records (in this order: failed call, cut-off response, no output), or null. */
export function readHealth(rollout: Rollout): HealthProblem | null {
  const parsed = HealthSchema.safeParse(rollout.response);
  if (!parsed.success) return null;
  const response = parsed.data;
  if ((response.error !== undefined && response.error !== null) || response.status === "failed") {
    const detail =
      response.error === undefined || response.error === null
        ? 'response.status is "failed"'
        : `response.error ${errorText(response.error)}`;
    return { kind: "model_error", detail };
  }
  const reason = response.incomplete_details?.reason;
  if (response.status === "incomplete" || reason !== undefined) {
    const detail = `response.status ${JSON.stringify(response.status ?? null)}${reason === undefined ? "" : `, incomplete_details.reason ${JSON.stringify(reason)}`}`;
    return { kind: "truncated", detail };
  }
  if (response.usage?.output_tokens === 0)
    return { kind: "no_output", detail: "response.usage.output_tokens 0" };
  return null;
}
