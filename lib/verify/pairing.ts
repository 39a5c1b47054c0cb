/**
 * Pairing a rollout with its materialized-inputs row, as Gym's reverify does: by the pair
 * (_ng_task_index, _ng_rollout_index), which collection stamps on both.
 */
import { z } from "zod";

const Keyed = z.looseObject({ _ng_task_index: z.number().int(), _ng_rollout_index: z.number().int() });

/** `${task}:${rollout}` for a row that carries both Gym indices as integers; null otherwise. */
export function pairingKey(row: unknown): string | null {
  const parsed = Keyed.safeParse(row);
  return parsed.success ? `${parsed.data._ng_task_index}:${parsed.data._ng_rollout_index}` : null;
}

/**
 * Materialized-inputs rows keyed by pairingKey. Rows without both indices are skipped (Gym would fail on
 * them); a repeated key keeps the last row, as a Python dict built in file order does.
 */
export function pairInputs(inputs: Iterable<unknown>): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const row of inputs) {
    const key = pairingKey(row);
    if (key !== null) map.set(key, row);
  }
  return map;
}
