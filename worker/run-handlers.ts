/**
 * The run view's requests (worker/run.ts), answered from the data service's store: every line of a
 * rollouts file that parsed as JSON, verified as the rest of the app verifies it (its paired input row,
 * the server choice, the harness). The rows are cached by dataset id and revision.
 */
import { parseJsonLine } from "../lib/jsonl";
import { rowContext } from "./jobs";
import type { RunRequests } from "./protocol";
import type { Handlers } from "./rpc";
import { type RunSource, type RunSourceLine, runExport, runView } from "./run";
import type { DataService } from "./service";
import type { Dataset } from "./store";

const decoder = new TextDecoder();

/** A rollouts dataset as the run view reads it; null for an unknown id or an inputs file. */
export function runSource(service: DataService, id: string): RunSource | null {
  const dataset = service.get(id);
  if (dataset?.kind !== "rollouts") return null;
  return { key: `${id}#${dataset.revision}`, harness: dataset.harness, rollouts: () => rollouts(dataset) };
}

async function* rollouts(dataset: Dataset): AsyncGenerator<RunSourceLine> {
  // Every line that parsed as JSON, the ones that are not rollouts included (triage calls them malformed),
  // so the run view counts what `cli triage` counts.
  const lines = [...dataset.entries.keys(), ...dataset.schemaErrors.keys()].sort((a, b) => a - b);
  const bytes = new Uint8Array(await dataset.blob().arrayBuffer());
  for (const line of lines) {
    const at = dataset.position(line);
    if (at === null) continue;
    const parsed = parseJsonLine(decoder.decode(bytes.subarray(at.offset, at.offset + at.length)));
    if (!parsed.ok) continue;
    const context = await rowContext(parsed.value, dataset.pairedInputs, {
      serverOverride: dataset.serverOverride,
      fallbackServer: dataset.fallbackServer,
      harness: dataset.harness,
    });
    yield {
      line,
      value: parsed.value,
      options: {
        server: context.override,
        sample: context.sample,
        ...(context.input === undefined ? {} : { input: context.input }),
        ...(context.pairing === undefined ? {} : { pairing: context.pairing }),
        ...(context.harness === null ? {} : { harness: context.harness }),
      },
    };
  }
}

export function runHandlers(service: DataService): Handlers<RunRequests> {
  return {
    run: ({ dataset, filter }) => {
      const source = runSource(service, dataset);
      return source === null ? null : runView(source, filter);
    },
    runExport: ({ dataset, filter, format }) => {
      const source = runSource(service, dataset);
      return source === null ? { error: "no such dataset" } : runExport(source, filter, format);
    },
  };
}
