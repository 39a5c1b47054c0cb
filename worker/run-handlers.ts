/**
 * The run view's requests (worker/run.ts), answered from the data service's store: every rollout of a
 * rollouts file, verified as the rest of the app verifies it (its paired input row, the server choice, the
 * harness). The rows are cached by dataset id and revision.
 */
import { parseJsonLine } from "../lib/jsonl";
import { readRollout } from "../lib/schemas";
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
  return {
    key: `${id}#${dataset.revision}`,
    harness: dataset.harness,
    rollouts: () => rollouts(dataset),
    unreadable: dataset.errors().length,
  };
}

async function* rollouts(dataset: Dataset): AsyncGenerator<RunSourceLine> {
  // Every rollout (the index's rows); the lines that are not rollouts are counted as unreadable, as the
  // chip and `cli triage` count them (lib/run lineCountsText).
  const lines = [...dataset.entries.keys()].sort((a, b) => a - b);
  const bytes = new Uint8Array(await dataset.blob().arrayBuffer());
  for (const line of lines) {
    const at = dataset.position(line);
    if (at === null) continue;
    const parsed = parseJsonLine(decoder.decode(bytes.subarray(at.offset, at.offset + at.length)));
    const read = parsed.ok ? readRollout(parsed.value) : null;
    if (read === null || !read.ok) continue;
    const context = await rowContext(read.rollout, dataset.pairedInputs, {
      serverOverride: dataset.serverOverride,
      fallbackServer: dataset.fallbackServer,
      harness: dataset.harness,
    });
    yield {
      line,
      value: read.rollout,
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
