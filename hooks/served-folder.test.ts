/**
 * A folder `cli view` serves is opened as a picked folder is (issue #17's folder rules, issue #22): the same
 * roles, the same config routing (server source "config"), the same task-row pairing, the same rewards and
 * Gym's metrics compared with ours. The folder is served by the real `view` server (cli/view/server.ts) on
 * 127.0.0.1; the worker's fetch reaches it as the page's does (same origin, the token as a header here).
 */

import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listFolder } from "@/cli/view/files";
import { listenView } from "@/cli/view/server";
import { inProcessPool } from "@/worker/pool";
import { type FolderEntry, type SessionSummary, servedRef } from "@/worker/protocol";
import { DataService } from "@/worker/service";
import { folderEntriesFromDisk } from "@/worker/test-helpers";
import { changedFiles, changedFilesText, newPaths, servedEntries } from "./served";

const EXAMPLES = path.resolve(__dirname, "../fixtures/gym-examples/resources_servers");
const TOKEN = "t".repeat(48);
const never = new AbortController().signal;
const ignore = () => {};

let servers: Server[] = [];

afterEach(() => {
  vi.unstubAllGlobals();
  for (const server of servers) server.close();
  servers = [];
});

/** Serves `dir` with `cli view`'s server; the worker's relative URLs go to it. Returns the page's entries. */
async function serve(dir: string): Promise<{ name: string; entries: FolderEntry[] }> {
  const { server, port } = await listenView(
    { root: dir, token: TOKEN, list: () => listFolder(dir), app: (_req, res) => void res.end() },
    0,
  );
  servers.push(server);
  const real = globalThis.fetch;
  const base = `http://127.0.0.1:${port}`;
  vi.stubGlobal("fetch", (input: string, init: RequestInit = {}) =>
    real(new URL(input, base), {
      ...init,
      headers: { ...Object.fromEntries(new Headers(init.headers)), "x-view-token": TOKEN },
    }),
  );
  // The page's own reading of the listing (hooks/served.ts).
  return servedEntries();
}

/** What the page shows of an opened folder, without the dataset ids (each open makes new ones). */
function shown(service: DataService, summary: SessionSummary) {
  const folder = summary.folder;
  return {
    // Without the times too: a picked file's is its File's, a served one's the server's stat.
    files: folder?.files
      .map(({ dataset: _, modified: __, ...file }) => file)
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
    runs: folder?.runs.map(({ dataset: _, ...run }) => run),
    rows: summary.datasets
      .filter((dataset) => dataset.kind === "rollouts")
      .map((dataset) => ({
        file: dataset.folder_path,
        configs: dataset.config_files,
        errors: dataset.errors.map((e) => [e.line, e.line_kind]),
        rows: service.changes(dataset.id, 0).entries.map((e) => ({
          line: e.line,
          server: e.server,
          source: e.server_source,
          paired_by: e.paired_by,
          contract: e.contract,
          unverified: e.unverified,
        })),
      })),
  };
}

async function opened(name: string, entries: FolderEntry[]) {
  const service = new DataService(inProcessPool());
  await service.loadFolder(name, entries, never, ignore);
  await service.settled();
  const summary = service.session();
  // Gym's figures beside ours (lib/folder compareMetrics), per rollouts file.
  const metrics = await Promise.all(
    summary.datasets.filter((d) => d.kind === "rollouts").map((d) => service.gymMetrics(d.id)),
  );
  return {
    ...shown(service, summary),
    metrics,
    hidden: summary.folder?.hidden,
    served: summary.folder?.served,
  };
}

describe("a served folder is opened as a picked folder", () => {
  it("names its hidden entries, as a picked folder's, and never reads them", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "served-hidden-"));
    cpSync(path.join(EXAMPLES, "example_multi_step"), dir, { recursive: true });
    mkdirSync(path.join(dir, ".hydra"));
    writeFileSync(path.join(dir, ".hydra", "rollouts.jsonl"), "not read\n");
    const picked = await opened("x", folderEntriesFromDisk(dir));
    const served = await serve(dir);
    const viaServer = await opened(served.name, served.entries);
    expect(viaServer.hidden).toEqual([".hydra/"]);
    // Only the served one watches the server's listing for new files.
    expect([picked.served, viaServer.served]).toEqual([false, true]);
    expect(viaServer).toEqual({ ...picked, hidden: [".hydra/"], served: true });
  });

  it.each(["example_multi_step", "example_tool_call_multireward"])("%s", async (server) => {
    const dir = path.join(EXAMPLES, server);
    const picked = await opened(server, folderEntriesFromDisk(dir));
    const served = await serve(dir);
    const viaServer = await opened(served.name, served.entries);
    expect(viaServer).toEqual({ ...picked, served: true });
    // What that means here: the folder's config routes every line, its task rows pair, Gym's metrics are read.
    const run = viaServer.rows[0];
    expect(run?.configs).toEqual([`configs/${server}.yaml`]);
    expect(run?.rows.length).toBeGreaterThan(0);
    for (const row of run?.rows ?? []) {
      expect(row).toMatchObject({ server, source: "config" });
      expect(row.contract).not.toBeNull();
    }
    expect(viaServer.runs?.[0]?.metrics.map((m) => m.path)).toEqual(["data/example_metrics.json"]);
    expect(viaServer.metrics[0]?.map((view) => view.path)).toEqual(["data/example_metrics.json"]);
    expect(viaServer.files?.find((f) => f.path === "data/example.jsonl")?.role).toBe("inputs");
  });
});

describe("a served folder's files named by path (links that outlive a reload)", () => {
  it("finds the file at a served ref once the folder is read, the same file after it is read again", async () => {
    const dir = path.join(EXAMPLES, "example_multi_step");
    const served = await serve(dir);
    const service = new DataService(inProcessPool());
    const ref = servedRef("data/example_rollouts.jsonl");
    // Nothing is read yet: a fresh page (a reload) finds nothing there until it reads the folder.
    expect(service.get(ref)).toBeUndefined();
    const first = await service.loadFolder(served.name, served.entries, never, ignore, null, {}, dir);
    const file = first.datasets.find((d) => d.folder_path === "data/example_rollouts.jsonl");
    expect(file).toBeDefined();
    expect(service.get(ref)?.id).toBe(file?.id);
    // Links write it by path; the task rows too.
    expect(file?.ref).toBe(ref);
    expect(first.datasets.find((d) => d.folder_path === "data/example.jsonl")?.ref).toBe(
      servedRef("data/example.jsonl"),
    );
    expect(service.get(servedRef("data/nothing.jsonl"))).toBeUndefined();
    // The same folder picked in the tab: its files are named by id, and a served ref names none of them.
    const picked = new DataService(inProcessPool());
    const own = await picked.loadFolder("x", folderEntriesFromDisk(dir), never, ignore);
    expect(own.datasets.every((d) => d.ref === d.id)).toBe(true);
    expect(picked.get(ref)).toBeUndefined();
    // Read again ("Read the folder again", a reload of "/"): the ref names the file the folder has now.
    const again = await service.loadFolder(served.name, served.entries, never, ignore, null, {}, dir);
    const now = again.datasets.find((d) => d.folder_path === "data/example_rollouts.jsonl");
    expect(service.get(ref)?.id).toBe(now?.id);
  });

  it("names its files by their path on the serving machine in the commands a row gives", async () => {
    // finance_agent_v2's server has no port here: each row says how to verify it through Gym's own /verify.
    const dir = path.join(EXAMPLES, "finance_agent_v2");
    const served = await serve(dir);
    const service = new DataService(inProcessPool());
    const summary = await service.loadFolder(served.name, served.entries, never, ignore, null, {}, dir);
    await service.settled();
    const rollouts = summary.datasets.find((d) => d.kind === "rollouts");
    const messages = service
      .changes(rollouts?.id ?? "", 0)
      .entries.map((e) => e.error ?? "")
      .filter((m) => m.includes("cli live"));
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) {
      expect(message).toContain(`--rollouts ${dir}/${rollouts?.folder_path}`);
      expect(message).toContain(`+config_paths=[${dir}/configs/`);
    }
    const live = service.fileOf(rollouts?.id ?? "");
    expect(live?.configs.every((config) => config.startsWith(`${dir}/`))).toBe(true);
  });
});

describe("changedFiles", () => {
  const opened = [
    { path: "configs/a.yaml", role: "config" as const, bytes: 10, modified: 1 },
    { path: "configs/b.yaml", role: "config" as const, bytes: 10, modified: 1 },
    { path: "data/example_metrics.json", role: "metrics" as const, bytes: 20, modified: 1 },
    { path: "data/r.jsonl", role: "rollouts" as const, bytes: 30, modified: 1 },
    { path: "notes.txt", role: "ignore" as const, bytes: 40, modified: 1 },
  ];
  it("names the configs and metrics files edited (size or time) or gone; the worker watches the rest", () => {
    const same = opened.map(({ path, bytes, modified }) => ({ path, bytes, modified }));
    expect(changedFiles(same, opened)).toEqual([]);
    // A server that gives no times: sizes alone.
    expect(
      changedFiles(
        same.map((f) => ({ ...f, modified: null })),
        opened,
      ),
    ).toEqual([]);
    const now = [
      { path: "configs/a.yaml", bytes: 11, modified: 1 },
      // A port 8000 -> 8001: the same size, a new time.
      { path: "configs/b.yaml", bytes: 10, modified: 2 },
      { path: "data/r.jsonl", bytes: 999, modified: 2 },
      { path: "notes.txt", bytes: 1, modified: 2 },
    ];
    const changed = changedFiles(now, opened);
    expect(changed).toEqual([
      { path: "configs/a.yaml", gone: false },
      { path: "configs/b.yaml", gone: false },
      { path: "data/example_metrics.json", gone: true },
    ]);
    expect(changedFilesText(changed)).toBe(
      "3 Gym config and metrics files changed in the served folder since it was read: configs/a.yaml, configs/b.yaml, data/example_metrics.json (gone). The rows are routed, and Gym's numbers compared, with them as first read.",
    );
    expect(changedFilesText([])).toBeNull();
  });
});

describe("newPaths", () => {
  it("names the listing's files the opened folder does not have, in the listing's order", () => {
    expect(newPaths(["a.jsonl", "run2/b.jsonl", "c.yaml"], ["c.yaml", "a.jsonl"])).toEqual(["run2/b.jsonl"]);
    expect(newPaths(["a.jsonl"], ["a.jsonl", "gone.jsonl"])).toEqual([]);
  });
});
