/**
 * Narrows a verifier's `details` (unknown-shaped JSON from the worker) to what the UI can show as a table.
 * Only the workplace_assistant shape is known: table differences and what each call did.
 */
import { z } from "zod";

const Cell = z.unknown();

const TableDiffSchema = z.object({
  table: z.string(),
  equal: z.boolean(),
  onlyPredicted: z.array(z.object({ label: z.number(), values: z.record(z.string(), Cell) })),
  onlyExpected: z.array(z.object({ label: z.number(), values: z.record(z.string(), Cell) })),
  differingCells: z.array(z.object({ rowKey: Cell, column: z.string(), predicted: Cell, expected: Cell })),
  notes: z.array(z.string()),
});

const CallRecordSchema = z.object({
  index: z.number(),
  name: z.string(),
  outcome: z.string(),
  message: z.string().optional(),
});

const WorkplaceDetailsSchema = z.object({
  tables: z.array(TableDiffSchema),
  calls: z.array(CallRecordSchema),
  gymError: z.string().optional(),
});

export type TableDiffView = z.infer<typeof TableDiffSchema>;
export type CallRecordView = z.infer<typeof CallRecordSchema>;
export interface WorkplaceDetailsView {
  readonly tables: readonly TableDiffView[];
  readonly calls: readonly CallRecordView[];
}

export function readWorkplaceDetails(details: unknown): WorkplaceDetailsView | null {
  const parsed = WorkplaceDetailsSchema.safeParse(details);
  return parsed.success ? { tables: parsed.data.tables, calls: parsed.data.calls } : null;
}

/** A table cell as one line of text; missing values (NaN, None) arrive as null. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "∅";
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? String(value);
}
