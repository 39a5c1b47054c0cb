/**
 * The run view's requests answered from the data service's store: the same view as ./run-view.ts over the
 * file's parsed lines, rows keyed by dataset id and revision, and clear answers for an unknown dataset.
 */
import { describe, expect, it } from "vitest";
import { NO_HARNESS } from "@/lib/harness";
import { lineHolds } from "@/lib/run";
import { inProcessPool } from "@/worker/pool";
import type { LoadProgress } from "@/worker/protocol";
import { DataService } from "@/worker/service";
import { runHandlers, runSource } from "./handlers";
import { type RunSource, runExport, runView } from "./run-view";
import { rollouts, run } from "./test-helpers";

const never = new AbortController().signal;
const ignore = (_: LoadProgress) => {};
const context = { signal: never, progress: () => {}, transfer: () => {} };

function plain(key: string): RunSource {
  return {
    key,
    harness: NO_HARNESS,
    unreadable: run.unreadable.length,
    *rollouts() {
      for (const { line, value } of rollouts) yield { line, value, options: {} };
    },
    // lib's reading of a text clause over the raw lines: the data service's byte search must agree.
    textLines: async (text) =>
      new Set(run.intents.filter((i) => lineHolds(texts[i.line - 1] ?? "", text)).map((i) => i.line)),
  };
}

const texts = run.text.split("\n");

async function loaded(): Promise<{ service: DataService; id: string }> {
  const service = new DataService(inProcessPool());
  const summary = await service.load(
    [{ kind: "file", file: new File([run.text], "triage-run.jsonl") }],
    null,
    never,
    ignore,
  );
  await service.settled();
  const id = summary.datasets[0]?.id;
  if (id === undefined) throw new Error("nothing loaded");
  return { service, id };
}

describe("run handlers over the data service", () => {
  it("answers the same view and export as ./run-view.ts over the file's lines", async () => {
    const { service, id } = await loaded();
    const handlers = runHandlers(service);
    for (const filter of [
      "",
      "cause:identity",
      "recorded:0 flag:alias_guess",
      "nope",
      "field:_ng_task_index=1",
      "text:HTTP_agent recorded:0",
      "agent:hermes_agent is:changed cause:identity",
    ]) {
      const view = await handlers.run({ dataset: id, filter, reward: "recorded" }, context);
      expect(view).toEqual(await runView(plain(`plain-${filter}`), filter));
    }
    const view = await handlers.run({ dataset: id, filter: "", reward: "recorded" }, context);
    expect(view?.triage.recorded.total).toBe(run.intents.length);
    expect(view?.counts).toEqual({ rollouts: run.intents.length, unreadable: run.unreadable.length });
    for (const format of ["csv", "jsonl"] as const) {
      const filter = "recorded:0";
      expect(await handlers.runExport({ dataset: id, filter, format }, context)).toEqual(
        await runExport([{ file: null, source: plain(`plain-export-${format}`) }], filter, format),
      );
    }
  });

  it("aggregates the run rows the rewards pass computed (one per rollout) instead of verifying again", async () => {
    const { service, id } = await loaded();
    const dataset = service.get(id);
    expect(dataset?.runRows.size).toBe(dataset?.entries.size);
    // A row the rewards pass left is what the view counts: changing it shows in the view.
    const [line, stored] = [...(dataset?.runRows ?? [])].find(([, row]) => row.run.cause === null) ?? [];
    if (line === undefined || !stored || !dataset) throw new Error("no scored row");
    dataset.runRows.set(line, { ...stored, run: { ...stored.run, cause: "identity" } });
    dataset.revision++;
    const before = await runView(plain("plain-count"), "");
    const view = await runHandlers(service).run({ dataset: id, filter: "", reward: "recorded" }, context);
    // The changed row is counted in the views where it is a zero (it was not one: cause null).
    expect(view?.triage.contract.total).toBe(before.triage.contract.total);
    expect(view?.triage.recorded.lines.identity).toEqual(before.triage.recorded.lines.identity);
  });

  it("keys the rows by dataset id and revision: another server choice is a new key", async () => {
    const { service, id } = await loaded();
    const before = runSource(service, id)?.key;
    expect(before).toBe(`${id}#${service.get(id)?.revision}`);
    service.reanalyze(id, "workplace_assistant", NO_HARNESS);
    const after = runSource(service, id)?.key;
    expect(after).not.toBe(before);
    expect(after).toBe(`${id}#${service.get(id)?.revision}`);
  });

  it("a text clause's search stops with the view's request; the list's search of the same text goes on", async () => {
    const { service, id } = await loaded();
    const text = "workplace";
    const request = new AbortController();
    const list = service.search(id, text, never, () => {});
    const view = runHandlers(service).run(
      { dataset: id, filter: `text:${text}`, reward: "recorded" },
      {
        ...context,
        signal: request.signal,
      },
    );
    request.abort();
    await expect(view).rejects.toMatchObject({ name: "AbortError" });
    expect((await list).lines).toEqual([...((await plain("p").textLines?.(text)) ?? [])]);
  });

  it("answers null (view) and an error (export) for a dataset it does not hold", async () => {
    const { service } = await loaded();
    const handlers = runHandlers(service);
    expect(await handlers.run({ dataset: "nope", filter: "", reward: "recorded" }, context)).toBeNull();
    expect(await handlers.runExport({ dataset: "nope", filter: "", format: "csv" }, context)).toEqual({
      error: "no such dataset",
    });
  });
});
