/**
 * One rollout opened from the store: its line read and parsed once into the detail view (./core.ts
 * openDetail), and both its verifications sent to the pool. A server or harness the page names for the
 * detail replaces the dataset's own; anything else is verified as the row was.
 */
import type { HarnessChoice } from "../lib/harness";
import { reparseJsonLine } from "../lib/jsonl";
import type { LineOptions } from "../lib/live";
import { lineOptionsOf, type OpenedDetail, openDetail } from "./core";
import { type AnalysisOptions, rolloutOf, rowContext } from "./jobs";
import type { Pool } from "./pool";
import type { VerifiedDetail } from "./protocol";
import type { Dataset } from "./store";

const decoder = new TextDecoder();

/** A line the store indexed: parseJsonLine accepted it then (its nesting is within the limit). */
function parseBytes(bytes: Uint8Array): unknown {
  const parsed = reparseJsonLine(decoder.decode(bytes));
  return parsed.ok ? parsed.value : undefined;
}

/** The dataset's analysis, with the server and harness the page chose for the detail (null: the dataset's). */
function detailOptions(
  dataset: Dataset,
  server: string | null,
  harness: HarnessChoice | null,
): AnalysisOptions {
  const options = dataset.analysisOptions();
  return {
    ...options,
    serverOverride: server ?? options.serverOverride,
    harness: harness ?? options.harness,
  };
}

export async function readDetail(
  dataset: Dataset,
  line: number,
  server: string | null,
  harness: HarnessChoice | null,
): Promise<OpenedDetail | null> {
  const entry = dataset.entries.get(line);
  if (!entry) return null;
  const bytes = await dataset.readLine(line);
  if (bytes === null) return null;
  const rollout = rolloutOf(parseBytes(bytes));
  if (rollout === null) return null;
  const context = await rowContext(rollout, dataset.pairedInputs, detailOptions(dataset, server, harness));
  return openDetail(entry, rollout, context, bytes.length);
}

/** How the inspector verifies one line (worker/core lineOptionsOf), read from its bytes. */
export async function readLineOptions(dataset: Dataset, line: number): Promise<LineOptions | null> {
  if (!dataset.entries.has(line)) return null;
  const bytes = await dataset.readLine(line);
  const rollout = bytes === null ? null : rolloutOf(parseBytes(bytes));
  if (rollout === null) return null;
  return lineOptionsOf(rollout, await rowContext(rollout, dataset.pairedInputs, dataset.analysisOptions()));
}

/** Both verifications of one rollout, in the pool. */
export function verifyInPool(
  pool: Pick<Pool, "verifyDetail">,
  dataset: Dataset,
  line: number,
  server: string | null,
  harness: HarnessChoice | null,
): Promise<VerifiedDetail | null> {
  const ref = dataset.lineRef(line);
  if (!ref || !dataset.entries.has(line)) return Promise.resolve(null);
  return pool.verifyDetail({
    ref,
    inputs: dataset.pairedInputs,
    ...detailOptions(dataset, server, harness),
  });
}
