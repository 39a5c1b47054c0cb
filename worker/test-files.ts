/**
 * Fixture files and a loaded data service, for the tests of the service's parts (worker/*.test.ts): the
 * workplace-assistant golden rollouts, their task rows and their expected rewards under both policies.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { NO_HARNESS } from "../lib/harness";
import { inProcessPool } from "./pool";
import type { LoadProgress, RolloutIndexEntry, SessionSummary } from "./protocol";
import type { DataService } from "./service";
import { Dataset, ingest } from "./store";

export const ROOT = path.resolve(__dirname, "..");
export const WA = path.join(ROOT, "fixtures/golden/workplace-rollouts");
export const noecho = path.join(WA, "wa_noecho.jsonl");
export const inputsFile = path.join(WA, "wa_inputs.jsonl");
export const never = new AbortController().signal;
export const ignore = (_: LoadProgress) => {};

export function file(full: string, name = path.basename(full)): File {
  return new File([readFileSync(full)], name);
}

export function jsonl(full: string): unknown[] {
  return readFileSync(full, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

const Expected = z.object({
  contract: z.object({ reward: z.number().nullable() }),
  legacy: z.object({ reward: z.number().nullable() }),
});

/** wa_noecho.jsonl's rewards under both policies, paired with wa_inputs.jsonl. */
export const expectedNoecho = () =>
  jsonl(path.join(WA, "wa_noecho_expected.jsonl")).map((row) => Expected.parse(row));

/** Every row of a dataset. */
export function entries(service: DataService, id: string): RolloutIndexEntry[] {
  return service.changes(id, 0).entries;
}

/** Loads local files and waits for every reward. */
export async function open(service: DataService, ...names: string[]): Promise<SessionSummary> {
  const summary = await service.load(
    names.map((name) => ({ kind: "file" as const, file: file(name) })),
    null,
    never,
    ignore,
  );
  await service.settled();
  return summary;
}

/** A local file read into a dataset of its own (rows indexed, rewards pending), outside any service. */
export async function indexedDataset(id: string, full: string): Promise<Dataset> {
  const dataset = new Dataset(id, path.basename(full), null, null);
  await ingest(dataset, { kind: "blob", blob: file(full) }, inProcessPool(), {
    serverOverride: null,
    harness: NO_HARNESS,
    signal: never,
    onBatch: () => {},
  });
  return dataset;
}
