/**
 * The workspace (./workspace.ts): which files a load leaves open, the store that keeps every file read,
 * a cancelled load that changes nothing, and the session events.
 */
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { inProcessPool } from "./pool";
import type { SessionSummary } from "./protocol";
import { DataService } from "./service";
import { Dataset } from "./store";
import { file, ignore, indexedDataset, noecho, open, ROOT, WA } from "./test-files";
import {
  openAfterLoad,
  PROGRESS_EVENT_MS,
  progressAtMostEvery,
  SESSION_EVENT_MS,
  Workspace,
} from "./workspace";

describe("the workspace over loads", () => {
  it("another rollouts file replaces the workspace but stays in the store", async () => {
    const service = new DataService(inProcessPool());
    await open(service, noecho);
    await open(service, path.join(WA, "wa_rollouts.jsonl"));
    const session = service.session();
    expect(session.datasets.map((dataset) => dataset.name)).toEqual(["wa_rollouts.jsonl"]);
    expect(session.files.map((dataset) => dataset.name).sort()).toEqual([
      "wa_noecho.jsonl",
      "wa_rollouts.jsonl",
    ]);
  });

  it("leaves the workspace as it was when a load is cancelled", async () => {
    const service = new DataService(inProcessPool());
    await open(service, path.join(ROOT, "e2e/fixtures/malformed.jsonl"));
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      service.load(
        [{ kind: "file", file: file(path.join(WA, "wa_rollouts.jsonl")) }],
        null,
        aborted.signal,
        ignore,
      ),
    ).rejects.toThrow();
    expect(service.session().datasets.map((dataset) => dataset.name)).toEqual(["malformed.jsonl"]);
    expect(service.session().files.map((dataset) => dataset.name)).toEqual(["malformed.jsonl"]);
  });
});

describe("openAfterLoad", () => {
  const of = (kind: "rollouts" | "inputs", id: string) => {
    const dataset = new Dataset(id, `${id}.jsonl`, 0, null);
    dataset.kind = kind;
    return dataset;
  };
  const ids = (datasets: readonly Dataset[]) => datasets.map((dataset) => dataset.id);
  const rollouts = of("rollouts", "r");
  const inputs = of("inputs", "i");
  const other = of("rollouts", "r2");

  it("task rows join open rollouts; rollouts join open task rows; anything else replaces", () => {
    expect(ids(openAfterLoad([rollouts], [inputs]))).toEqual(["r", "i"]);
    expect(ids(openAfterLoad([inputs], [rollouts]))).toEqual(["i", "r"]);
    expect(ids(openAfterLoad([rollouts], [other]))).toEqual(["r2"]);
    expect(ids(openAfterLoad([rollouts, inputs], [other]))).toEqual(["r2"]);
    expect(ids(openAfterLoad([inputs], [of("inputs", "i2")]))).toEqual(["i2"]);
    expect(ids(openAfterLoad([], [inputs]))).toEqual(["i"]);
  });
});

describe("Workspace", () => {
  it("shows a running load's files once they have rows, else the files open before it", async () => {
    const workspace = new Workspace(() => {});
    const before = new Dataset("a", "a.jsonl", 0, null);
    workspace.store.set(before.id, before);
    workspace.setOpen([before.id]);
    workspace.beginLoad();
    const empty = new Dataset("b", "b.jsonl", 0, null);
    workspace.store.set(empty.id, empty);
    workspace.loadOpened(empty);
    expect(workspace.session().datasets.map((d) => d.id)).toEqual(["a"]);
    const loading = await indexedDataset("b", path.join(WA, "wa_noecho.jsonl"));
    workspace.store.set(loading.id, loading);
    expect(workspace.session().datasets.map((d) => d.id)).toEqual(["b"]);
    expect(workspace.endLoad()).toEqual([before]);
    // Until the load's files are opened, the workspace is what it was.
    expect(workspace.session().datasets.map((d) => d.id)).toEqual(["a"]);
    // Every file read is listed, the latest first.
    expect(workspace.session().files.map((d) => d.id)).toEqual(["b", "a"]);
  });

  it("coalesces change notifications into one session event per SESSION_EVENT_MS; a flush sends at once", () => {
    vi.useFakeTimers();
    try {
      const events: SessionSummary[] = [];
      const workspace = new Workspace((session) => events.push(session));
      workspace.changed();
      workspace.changed();
      expect(events).toHaveLength(0);
      vi.advanceTimersByTime(SESSION_EVENT_MS);
      expect(events).toHaveLength(1);
      workspace.changed();
      workspace.flush();
      expect(events).toHaveLength(2);
      vi.advanceTimersByTime(SESSION_EVENT_MS);
      expect(events).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says rewards progress at most once per PROGRESS_EVENT_MS, and sooner when a change must be seen sooner", () => {
    vi.useFakeTimers();
    try {
      const events: SessionSummary[] = [];
      const workspace = new Workspace((session) => events.push(session));
      workspace.changed(PROGRESS_EVENT_MS);
      vi.advanceTimersByTime(SESSION_EVENT_MS);
      workspace.changed(PROGRESS_EVENT_MS);
      expect(events).toHaveLength(0);
      vi.advanceTimersByTime(PROGRESS_EVENT_MS - SESSION_EVENT_MS);
      expect(events).toHaveLength(1);
      // A dataset's last rewards (or any other change) are said within SESSION_EVENT_MS, once.
      workspace.changed(PROGRESS_EVENT_MS);
      workspace.changed();
      vi.advanceTimersByTime(SESSION_EVENT_MS);
      expect(events).toHaveLength(2);
      vi.advanceTimersByTime(PROGRESS_EVENT_MS);
      expect(events).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("passes a load's progress on at most once per interval", () => {
    vi.useFakeTimers();
    try {
      const sent: number[] = [];
      const progress = progressAtMostEvery(SESSION_EVENT_MS, (value: number) => sent.push(value));
      progress(1);
      progress(2);
      vi.advanceTimersByTime(SESSION_EVENT_MS - 1);
      progress(3);
      vi.advanceTimersByTime(1);
      progress(4);
      expect(sent).toEqual([1, 4]);
    } finally {
      vi.useRealTimers();
    }
  });
});
