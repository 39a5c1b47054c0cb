/**
 * Narrows a verifier's `details` (unknown-shaped) to the two things triage reads: what each predicted call
 * did and which compared tables differ. Only workplace_assistant reports them; any other shape gives [].
 */
import { z } from "zod";

const CallOutcomeSchema = z.looseObject({
  index: z.number(),
  name: z.string(),
  outcome: z.string(),
  message: z.string().optional(),
  mutates: z.boolean().optional(),
});

const TableSchema = z.looseObject({ table: z.string(), equal: z.boolean() });

const DetailsSchema = z.looseObject({
  calls: z.array(CallOutcomeSchema).optional(),
  tables: z.array(TableSchema).optional(),
});

export type CallOutcome = z.infer<typeof CallOutcomeSchema>;
export type TableState = z.infer<typeof TableSchema>;

export function readCallOutcomes(details: unknown): readonly CallOutcome[] {
  const parsed = DetailsSchema.safeParse(details);
  return parsed.success ? (parsed.data.calls ?? []) : [];
}

export function readTableDiffs(details: unknown): readonly TableState[] {
  const parsed = DetailsSchema.safeParse(details);
  return parsed.success ? (parsed.data.tables ?? []) : [];
}
