/**
 * Reading sources into the store (./sources.ts): local files, gzip, fetched samples and served files that
 * grow, batch by batch, with each bad line's number and kind; a local file picked again, grown.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { GZIP_NOT_FOLLOWED } from "./follow";
import { inProcessPool } from "./pool";
import { type LoadProgress, type SessionSummary, SUMMARY_ERRORS } from "./protocol";
import { DataService } from "./service";
import {
  entries,
  expectedNoecho,
  file,
  ignore,
  inputsFile,
  never,
  noecho,
  open,
  ROOT,
  WA,
} from "./test-files";
import { lineEnds, loadServed, servedFile, until } from "./test-served";

describe("reading a source", () => {
  it("streams rows in batch by batch, with the same index as a single batch", async () => {
    const events: SessionSummary[] = [];
    const small = new DataService(inProcessPool(), (session) => events.push(session), null, 64 * 1024);
    const progress: LoadProgress[] = [];
    const summary = await small.load(
      [{ kind: "file", file: file(path.join(WA, "wa_rollouts.jsonl")) }],
      null,
      never,
      (p) => progress.push(p),
    );
    await small.settled();
    const rows = new Set(progress.map((p) => p.rows));
    expect(rows.size).toBeGreaterThan(5);
    const whole = new DataService(inProcessPool());
    const wholeSummary = await open(whole, path.join(WA, "wa_rollouts.jsonl"));
    expect(entries(small, summary.datasets[0]!.id)).toEqual(entries(whole, wholeSummary.datasets[0]!.id));
    expect(summary.datasets[0]?.lines).toBe(wholeSummary.datasets[0]?.lines);
  });

  it("reads a gzip file through the same path, line numbers and bytes included", async () => {
    const { gzipSync } = await import("node:zlib");
    const plain = readFileSync(path.join(WA, "wa_rollouts.jsonl"));
    const service = new DataService(inProcessPool(), () => {}, null, 100 * 1024);
    const summary = await service.load(
      [{ kind: "file", file: new File([gzipSync(plain)], "wa.jsonl.gz") }],
      null,
      never,
      ignore,
    );
    await service.settled();
    const id = summary.datasets[0]!.id;
    const original = plain.toString("utf8").split("\n");
    expect(summary.datasets[0]?.rows).toBe(original.filter((line) => line.trim() !== "").length);
    const bytes = await service.raw(id, 7);
    expect(new TextDecoder().decode(bytes!)).toBe(original[6]);
  });

  it("a gzip file damaged before its first complete line says so, never that it is empty", async () => {
    const { gzipSync } = await import("node:zlib");
    const plain = readFileSync(path.join(WA, "wa_rollouts.jsonl"));
    const first = plain.subarray(0, plain.indexOf(10));
    const gz = gzipSync(first);
    const service = new DataService(inProcessPool());
    const summary = await service.load(
      [{ kind: "file", file: new File([gz.subarray(0, gz.length - 20)], "cut.jsonl.gz") }],
      null,
      never,
      ignore,
    );
    const dataset = summary.datasets[0]!;
    expect(dataset.rows).toBe(0);
    expect(dataset.problem).toMatch(
      /^This gzip file is damaged before the end of its first line, so it holds no line to read: damaged gzip data at byte \d+ \(member 1\): the file ends in the middle of a member \(truncated\)\.$/,
    );
    expect(dataset.problem).not.toContain("empty");
  });

  it("a gzip whose CRC check fails keeps its last line, whole though it has no final newline, as the CLI's reader", async () => {
    const { gzipSync } = await import("node:zlib");
    const lines = readFileSync(path.join(WA, "wa_rollouts.jsonl"), "utf8").trim().split("\n").slice(0, 3);
    const gz = gzipSync(Buffer.from(lines.join("\n")));
    // The trailer's CRC-32 is the 8th to 5th last byte: the data ends cleanly, its check fails.
    gz[gz.length - 8] = (gz[gz.length - 8] ?? 0) ^ 0xff;
    const service = new DataService(inProcessPool());
    const summary = await service.load(
      [{ kind: "file", file: new File([gz], "crc.jsonl.gz") }],
      null,
      never,
      ignore,
    );
    const dataset = summary.datasets[0]!;
    expect(dataset.rows).toBe(3);
    const { errors } = service.lineErrors(dataset.id, 0, 10);
    expect(errors.map((e) => e.line)).toEqual([4]);
    expect(errors[0]?.error).toMatch(
      /CRC-32 check failed \(the data is damaged\); lines before the end of the member were read$/,
    );
  });

  it("a Gym config or metrics file picked alone is said to be one, as a folder reads it", async () => {
    const folder = path.join(ROOT, "fixtures/gym-examples/resources_servers/workplace_assistant");
    const service = new DataService(inProcessPool());
    const summary = await service.load(
      ["configs/workplace_assistant.yaml", "data/example_metrics.json"].map((name) => ({
        kind: "file" as const,
        file: file(path.join(folder, name)),
      })),
      null,
      never,
      ignore,
    );
    const [config, metrics] = summary.datasets;
    expect(config?.problem).toMatch(/^This is a Gym config \(1 agent, 1 resources server\), not rollouts: /);
    expect(metrics?.problem).toMatch(/^This is Gym's metrics file \(Gym's dataset metrics: 5 examples /);
  });

  it("a fetched sample (plain or gzip) streams through the same path", async () => {
    const { gzipSync } = await import("node:zlib");
    const plain = readFileSync(path.join(WA, "wa_rollouts.jsonl"));
    for (const body of [plain, gzipSync(plain)]) {
      vi.stubGlobal("fetch", async () => new Response(new Blob([body]).stream()));
      const service = new DataService(inProcessPool(), () => {}, null, 100 * 1024);
      const summary = await service.load(
        [{ kind: "url", url: "/samples/x", name: "x.jsonl" }],
        null,
        never,
        ignore,
      );
      await service.settled();
      expect(summary.datasets[0]?.rows).toBe(114);
      expect(new TextDecoder().decode((await service.raw(summary.datasets[0]!.id, 114))!)).toBe(
        plain.toString("utf8").trimEnd().split("\n")[113],
      );
    }
    vi.unstubAllGlobals();
  });

  it("reports each bad line with its number and kind and keeps the good rows", async () => {
    const service = new DataService(inProcessPool());
    const summary = await open(service, path.join(ROOT, "e2e/fixtures/malformed.jsonl"));
    const dataset = summary.datasets[0]!;
    expect(dataset.rows).toBe(4);
    expect(dataset.errors.map((error) => [error.line, error.kind])).toEqual([
      [2, "parse"],
      [4, "schema"],
      [6, "schema"],
      [7, "parse"],
    ]);
    expect(dataset.errors[0]?.error).toMatch(/invalid JSON/);
    expect(dataset.errors[3]?.error).toMatch(/UTF-8/);
    expect(entries(service, dataset.id).map((entry) => entry.line)).toEqual([1, 3, 5, 8]);
  });

  it("a file of many bad lines: the summary carries the first SUMMARY_ERRORS and the count, the rest come in pages", async () => {
    const service = new DataService(inProcessPool());
    const good = readFileSync(noecho, "utf8").split("\n")[0]!;
    const bad = 1000;
    const text = `${good}\n${Array.from({ length: bad }, (_, i) => `not json ${i}`).join("\n")}\n`;
    const summary = await service.load(
      [{ kind: "file", file: new File([text], "bad.jsonl") }],
      null,
      never,
      ignore,
    );
    await service.settled();
    const dataset = service.session().datasets[0]!;
    expect(summary.datasets[0]?.error_count).toBe(bad);
    expect(dataset.error_count).toBe(bad);
    expect(dataset.errors.map((e) => e.line)).toEqual(
      Array.from({ length: SUMMARY_ERRORS }, (_, i) => i + 2),
    );
    const page = service.lineErrors(dataset.id, SUMMARY_ERRORS, 2 * SUMMARY_ERRORS);
    expect(page.total).toBe(bad);
    expect(page.errors.map((e) => e.line)).toEqual(
      Array.from({ length: SUMMARY_ERRORS }, (_, i) => i + 2 + SUMMARY_ERRORS),
    );
    expect(service.lineErrors(dataset.id, bad - 10, bad + 10).errors.map((e) => e.line)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + bad - 8),
    );
  });
});

describe("a served file that grows (cli view)", () => {
  it("appends new complete lines with their rewards; a partial line waits; a shrunk file is said", async () => {
    const whole = readFileSync(noecho);
    const ends = lineEnds(whole);
    const cut = ends[2]! + 20;
    const served = servedFile(whole.subarray(0, cut));
    vi.stubGlobal("fetch", served.fetcher);
    try {
      const service = new DataService(inProcessPool());
      const loaded = await service.load(
        [
          { kind: "file", file: file(inputsFile) },
          { kind: "remote", url: "/f", name: "wa.jsonl" },
        ],
        null,
        never,
        ignore,
      );
      await service.settled();
      const id = loaded.datasets.find((dataset) => dataset.kind === "rollouts")!.id;
      expect(entries(service, id)).toHaveLength(3);
      expect(service.get(id)?.summary().follow).toEqual({
        following: true,
        waiting_bytes: 0,
        problem: null,
        gone: false,
        unreachable_since: null,
        refused: false,
        not_followed: null,
      });
      await until(() => service.get(id)?.summary().follow?.waiting_bytes === 20);

      served.set(whole);
      await until(() => entries(service, id).length === ends.length);
      await service.settled();
      const expected = expectedNoecho();
      const rows = entries(service, id);
      expect(rows.map((row) => row.line)).toEqual(ends.map((_, i) => i + 1));
      expect(rows.map((row) => row.contract)).toEqual(expected.map((row) => row.contract.reward));
      expect(service.get(id)?.summary().follow?.waiting_bytes).toBe(0);

      served.set(whole.subarray(0, ends[0]!));
      await until(() => service.get(id)?.summary().follow?.problem != null);
      expect(service.get(id)?.summary().follow?.problem).toMatch(/shrank/);
      expect(entries(service, id)).toHaveLength(ends.length);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("a served file a run has not written a line to yet", () => {
  it("is no empty file's error: its first rollout joins once written", async () => {
    const served = servedFile(new Uint8Array());
    vi.stubGlobal("fetch", served.fetcher);
    try {
      const service = new DataService(inProcessPool());
      const loaded = await loadServed(service, [{ url: "/f", name: "run.jsonl" }]);
      const id = loaded.datasets[0]!.id;
      expect(loaded.datasets[0]).toMatchObject({ problem: null, rows: 0, lines: 0 });
      served.set(readFileSync(noecho).subarray(0, readFileSync(noecho).indexOf(0x0a) + 1));
      await until(() => entries(service, id).length === 1);
      expect(service.get(id)?.summary()).toMatchObject({ problem: null, rows: 1 });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

/** Served task rows at "/i" and rollouts at "/f" (the test stubs fetch for both), loaded and settled. */
function loadTaskRowsAndRollouts(service: DataService) {
  return loadServed(service, [
    { url: "/i", name: "inputs.jsonl" },
    { url: "/f", name: "wa.jsonl" },
  ]);
}

describe("a served file whose last line has no line break (Gym ships its files so)", () => {
  it("reads that line when it parses whole, and the line break that ends it later adds no line", async () => {
    const whole = readFileSync(noecho);
    const ends = lineEnds(whole);
    // Three lines, the third without its break; the task rows likewise.
    const served = servedFile(whole.subarray(0, ends[2]! - 1));
    const inputs = readFileSync(inputsFile);
    const inputsServed = servedFile(inputs.subarray(0, inputs.length - 1));
    vi.stubGlobal("fetch", (url: string, init?: RequestInit) =>
      url === "/i" ? inputsServed.fetcher(url, init) : served.fetcher(url, init),
    );
    try {
      const service = new DataService(inProcessPool());
      const loaded = await loadTaskRowsAndRollouts(service);
      const id = loaded.datasets.find((dataset) => dataset.kind === "rollouts")!.id;
      expect(entries(service, id).map((row) => row.line)).toEqual([1, 2, 3]);
      const inputsId = loaded.datasets.find((dataset) => dataset.kind === "inputs")!.id;
      expect(service.get(inputsId)?.summary().rows).toBe(inputs.toString("utf8").trim().split("\n").length);

      // The run goes on: the third line's break, then the rest of the file.
      served.set(whole);
      await until(() => entries(service, id).length === ends.length);
      await service.settled();
      const rows = entries(service, id);
      expect(rows.map((row) => row.line)).toEqual(ends.map((_, i) => i + 1));
      expect(rows.map((row) => row.contract)).toEqual(expectedNoecho().map((row) => row.contract.reward));
      expect(service.get(id)?.summary().follow).toMatchObject({
        following: true,
        waiting_bytes: 0,
        problem: null,
      });
      // The file's bytes as written, the third line's break included (/compare and /live read them whole).
      const bytes = await service.fileOf(id)?.file.arrayBuffer();
      expect(bytes && Buffer.from(bytes).equals(whole)).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("a served task-rows file (cli view)", () => {
  it("is watched: its last line's break changes nothing; rows added, or the file gone, are said", async () => {
    const inputs = readFileSync(inputsFile);
    // Without its last line break first, as Gym ships its files.
    const inputsServed = servedFile(inputs.subarray(0, inputs.length - 1));
    const served = servedFile(readFileSync(noecho));
    vi.stubGlobal("fetch", (url: string, init?: RequestInit) =>
      url === "/i" ? inputsServed.fetcher(url, init) : served.fetcher(url, init),
    );
    try {
      const service = new DataService(inProcessPool(), () => {}, null, undefined, null, 20);
      const loaded = await loadTaskRowsAndRollouts(service);
      const id = loaded.datasets.find((dataset) => dataset.kind === "inputs")!.id;
      const follow = () => service.get(id)?.summary().follow;
      expect(follow()?.problem).toBeNull();
      // The break that ends the last row, then a blank line: no row added.
      inputsServed.set(inputs);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const blank = Buffer.concat([inputs, Buffer.from("   \n")]);
      inputsServed.set(blank);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(follow()?.problem).toBeNull();
      // A row added: the pairing used the rows as first read, which the page says.
      const first = inputs.subarray(0, lineEnds(inputs)[0]);
      inputsServed.set(Buffer.concat([blank, first]));
      await until(() => follow()?.problem != null);
      expect(follow()?.problem).toMatch(/Task rows were added/);
      expect(follow()?.gone).toBe(false);
      // What the file becomes next replaces what was said first (it was cut to one row).
      inputsServed.set(first);
      await until(() => /shrank/.test(follow()?.problem ?? ""));
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("a served gzip file (cli view)", () => {
  it("is read once, not followed, and its summary says so", async () => {
    const { gzipSync } = await import("node:zlib");
    const whole = readFileSync(noecho);
    const served = servedFile(gzipSync(whole));
    const fetcher = vi.fn(served.fetcher);
    vi.stubGlobal("fetch", fetcher);
    try {
      const service = new DataService(inProcessPool());
      const loaded = await loadServed(service, [{ url: "/f.gz", name: "wa.jsonl.gz" }]);
      const dataset = loaded.datasets.find((d) => d.kind === "rollouts");
      expect(dataset?.rows).toBe(expectedNoecho().length);
      expect(dataset?.follow).toEqual({
        following: false,
        waiting_bytes: 0,
        problem: null,
        gone: false,
        unreachable_since: null,
        refused: false,
        not_followed: GZIP_NOT_FOLLOWED,
      });
      // No poll is scheduled: the follow state stays unset (a followed file has one from its first poll on).
      expect(service.get(dataset?.id ?? "")?.follow).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("a local file picked again", () => {
  it("appends the lines a grown file gained to the open file; a changed file opens anew", async () => {
    const whole = readFileSync(noecho);
    const ends = lineEnds(whole);
    const service = new DataService(inProcessPool());
    await service.load([{ kind: "file", file: file(inputsFile) }], null, never, ignore);
    const first = await service.load(
      [{ kind: "file", file: new File([whole.subarray(0, ends[2]!)], "run.jsonl") }],
      null,
      never,
      ignore,
    );
    await service.settled();
    const id = first.datasets.find((dataset) => dataset.kind === "rollouts")!.id;
    expect(entries(service, id)).toHaveLength(3);

    const grown = await service.load(
      [{ kind: "file", file: new File([whole], "run.jsonl") }],
      null,
      never,
      ignore,
    );
    await service.settled();
    expect(grown.datasets.filter((dataset) => dataset.kind === "rollouts").map((d) => d.id)).toEqual([id]);
    const rows = entries(service, id);
    expect(rows).toHaveLength(ends.length);
    expect(rows.map((row) => row.contract)).toEqual(expectedNoecho().map((row) => row.contract.reward));
    expect(new TextDecoder().decode((await service.raw(id, ends.length))!)).toBe(
      whole.subarray(ends[ends.length - 2]!, ends[ends.length - 1]! - 1).toString(),
    );

    const changed = Buffer.concat([Buffer.from("{}\n"), whole]);
    const other = await service.load(
      [{ kind: "file", file: new File([changed], "run.jsonl") }],
      null,
      never,
      ignore,
    );
    expect(other.datasets.some((dataset) => dataset.id === id)).toBe(false);
  });
});
