/**
 * One rule, two front ends: `cli verify` and the browser's data service must choose the same verifying
 * server, with the same source, pair the same way and reach the same outcome on every line of every
 * fixture file (Gym's example rollouts with and without their example.jsonl, and the golden files).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { run as triage } from "@/cli/commands/triage";
import { run } from "@/cli/commands/verify";
import { memoryIo } from "@/cli/io";
import { metricsSummaryLine } from "@/lib/folder";
import { inProcessPool } from "@/worker/pool";
import type { LoadProgress, SessionSummary, Source } from "@/worker/protocol";
import { DataService } from "@/worker/service";
import { folderEntriesFromDisk } from "@/worker/test-helpers";

const ROOT = path.resolve(__dirname, "..");
const GYM = path.join(ROOT, "fixtures/nemo-gym/resources_servers");
const GOLDEN = path.join(ROOT, "fixtures/golden");

const cases: { name: string; file: string; inputs: string | null }[] = [
  ...readdirSync(GYM).flatMap((server) => {
    const data = path.join(GYM, server, "data");
    const file = path.join(data, "example_rollouts.jsonl");
    return [
      { name: `${server} alone`, file, inputs: null },
      { name: `${server} + example.jsonl`, file, inputs: path.join(data, "example.jsonl") },
    ];
  }),
  {
    name: "golden wa_rollouts",
    file: path.join(GOLDEN, "workplace-rollouts/wa_rollouts.jsonl"),
    inputs: null,
  },
  { name: "golden wa_noecho", file: path.join(GOLDEN, "workplace-rollouts/wa_noecho.jsonl"), inputs: null },
  {
    name: "golden wa_noecho + wa_inputs",
    file: path.join(GOLDEN, "workplace-rollouts/wa_noecho.jsonl"),
    inputs: path.join(GOLDEN, "workplace-rollouts/wa_inputs.jsonl"),
  },
  { name: "golden ipi_rollouts", file: path.join(GOLDEN, "ipi-rollouts/ipi_rollouts.jsonl"), inputs: null },
];

const CliRecord = z.looseObject({
  line: z.number(),
  reward: z.number().nullable(),
  server: z.string().nullable(),
  server_source: z.string(),
  paired_by: z.string(),
  unverified: z.string().optional(),
});

function source(full: string): Source {
  return { kind: "file", file: new File([readFileSync(full)], path.basename(full)) };
}

const never = new AbortController().signal;
const ignore = (_: LoadProgress) => {};

describe("cli verify and the browser worker choose and verify alike", () => {
  it.each(cases)("$name", async ({ file, inputs }) => {
    const io = memoryIo();
    expect(await run([file, ...(inputs === null ? [] : ["--inputs", inputs])], io)).toBe(0);
    const cli = io
      .out()
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => CliRecord.parse(JSON.parse(l)))
      .map((r) => ({
        line: r.line,
        server: r.server,
        server_source: r.server_source,
        paired_by: r.paired_by,
        reward: r.reward,
        unverified: r.unverified ?? null,
      }));

    const service = new DataService(inProcessPool());
    const sources = inputs === null ? [source(file)] : [source(inputs), source(file)];
    const summary = await service.load(sources, null, never, ignore);
    await service.settled();
    const rollouts = summary.datasets.find((d) => d.kind === "rollouts");
    expect(rollouts).toBeDefined();
    const browser = service.changes(rollouts?.id ?? "", 0).entries.map((e) => ({
      line: e.line,
      server: e.server,
      server_source: e.server_source,
      paired_by: e.paired_by,
      reward: e.contract,
      unverified: e.unverified,
    }));
    expect(cli.length).toBeGreaterThan(0);
    expect(browser).toEqual(cli);
    // Every line has a reward or a reason, never neither.
    for (const row of browser) expect(row.reward === null).toBe(row.unverified !== null);
  });
});

const EXAMPLES = path.join(ROOT, "fixtures/gym-examples");

/** Gym's example folders: every directory that holds a data/ folder. */
function exampleFolders(): string[] {
  const found: string[] = [];
  const visit = (at: string) => {
    const names = readdirSync(at);
    if (names.includes("data") && statSync(path.join(at, "data")).isDirectory()) found.push(at);
    else
      for (const name of names) if (statSync(path.join(at, name)).isDirectory()) visit(path.join(at, name));
  };
  visit(EXAMPLES);
  return found.sort();
}

const FolderRecord = z.looseObject({
  file: z.string(),
  line: z.number(),
  reward: z.number().nullable().optional(),
  server: z.string().nullable().optional(),
  server_source: z.string().optional(),
  paired_by: z.string().optional(),
  unverified: z.string().optional(),
  kind: z.string().optional(),
  error: z.string().nullable().optional(),
});

/** What cli verify DIR prints and what the page shows, per line, in one shape. */
interface LineAnswer {
  file: string;
  line: number;
  server: string | null;
  server_source: string | null;
  paired_by: string | null;
  reward: number | null;
  unverified: string | null;
  kind: string | null;
  /** The line's sentence: its kind's, or why it has no reward (the contract policy's). */
  message: string | null;
}

/** The comparison lines of Gym's metrics files on a command's stderr (cli/folder.ts metricsLines). */
function metricsLinesOf(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => /^[^:]+: Gym's (dataset metrics of |aggregate metrics \()/.test(line))
    .sort();
}

/** Gym's numbers beside ours as the page gets them, one line each as the CLI prints them. */
async function browserMetricsLines(service: DataService, summary: SessionSummary): Promise<string[]> {
  const lines: string[] = [];
  for (const dataset of summary.datasets) {
    if (dataset.kind !== "rollouts") continue;
    for (const view of await service.gymMetrics(dataset.id))
      lines.push(metricsSummaryLine(view.path, view.report));
  }
  return lines.sort();
}

/** What `cli triage DIR` prints about Gym's metrics (stderr). */
async function triageMetricsLines(dir: string): Promise<string[]> {
  const io = memoryIo();
  expect(await triage([dir, "--format", "jsonl"], io)).toBe(0);
  return metricsLinesOf(io.err());
}

let lastCliMetrics: string[] = [];

async function cliAnswers(dir: string, roles: readonly string[] = []): Promise<LineAnswer[]> {
  const io = memoryIo();
  expect(await run([dir, ...roles.flatMap((r) => ["--role", r])], io)).toBe(0);
  lastCliMetrics = metricsLinesOf(io.err());
  return io
    .out()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => FolderRecord.parse(JSON.parse(l)))
    .map((r) => ({
      file: r.file,
      line: r.line,
      server: r.kind === undefined ? (r.server ?? null) : null,
      server_source: r.kind === undefined ? (r.server_source ?? null) : null,
      paired_by: r.kind === undefined ? (r.paired_by ?? null) : null,
      reward: r.kind === undefined ? (r.reward ?? null) : null,
      unverified: r.unverified ?? null,
      kind: r.kind ?? null,
      // The CLI names the folder's files from the working directory (for ng_run and cli live), the page
      // from the folder: the same sentence once the folder's own path is taken off.
      message: r.error?.replaceAll(`${dir}/`, "") ?? null,
    }))
    .sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

function browserAnswers(service: DataService, summary: SessionSummary): LineAnswer[] {
  const out: LineAnswer[] = [];
  for (const dataset of summary.datasets) {
    if (dataset.kind !== "rollouts") continue;
    const file = dataset.folder_path ?? dataset.name;
    for (const e of service.changes(dataset.id, 0).entries) {
      out.push({
        file,
        line: e.line,
        server: e.server,
        server_source: e.server_source,
        paired_by: e.paired_by,
        reward: e.contract,
        unverified: e.unverified,
        kind: null,
        message: e.error,
      });
    }
    for (const error of dataset.errors) {
      out.push({
        file,
        line: error.line,
        server: null,
        server_source: null,
        paired_by: null,
        reward: null,
        unverified: null,
        kind: error.line_kind,
        message: error.error,
      });
    }
  }
  return out.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

async function openInBrowser(dir: string): Promise<{ service: DataService; summary: SessionSummary }> {
  const service = new DataService(inProcessPool());
  await service.loadFolder(path.basename(dir), folderEntriesFromDisk(dir), never, ignore);
  await service.settled();
  return { service, summary: service.session() };
}

describe("cli verify DIR and the browser's opened folder answer every line alike", () => {
  it.each(exampleFolders().map((dir) => ({ name: path.relative(EXAMPLES, dir), dir })))(
    "$name",
    async ({ dir }) => {
      const cli = await cliAnswers(dir);
      const { service, summary } = await openInBrowser(dir);
      const browser = browserAnswers(service, summary);
      // A folder whose only JSONL files are task rows has no rollouts file (both say so: no lines).
      expect(browser).toEqual(cli);
      expect(summary.folder?.files.length).toBeGreaterThan(0);
      // Every line has a reward, a reason code or a kind.
      for (const row of browser)
        expect(row.reward !== null || row.unverified !== null || row.kind !== null).toBe(true);
      // Gym's numbers beside ours: the page's comparison is the one `cli verify DIR` and `cli triage DIR` print.
      const metrics = lastCliMetrics;
      expect(await browserMetricsLines(service, summary)).toEqual(metrics);
      expect(await triageMetricsLines(dir)).toEqual(metrics);
    },
  );

  it("a whole tree of servers (resources_servers/): each rollouts file with its own configs and task rows", async () => {
    const dir = path.join(EXAMPLES, "resources_servers");
    const cli = await cliAnswers(dir);
    const { service, summary } = await openInBrowser(dir);
    expect(cli.length).toBeGreaterThan(300);
    expect(browserAnswers(service, summary)).toEqual(cli);
    expect(summary.folder?.runs.length).toBeGreaterThan(50);
    expect(lastCliMetrics.length).toBeGreaterThan(50);
    expect(await browserMetricsLines(service, summary)).toEqual(lastCliMetrics);
  });

  it("Gym's aggregate metrics: each agent's mean reward beside its lines', on the page as in the CLI", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "aggregate-"));
    try {
      cpSync(path.join(EXAMPLES, "resources_servers/example_tool_call_multireward"), dir, {
        recursive: true,
      });
      writeFileSync(
        path.join(dir, "data/run_aggregate_metrics.json"),
        JSON.stringify([
          {
            agent_ref: { name: "example_tool_call_multireward_simple_agent" },
            agent_metrics: { "mean/reward": 1.5 },
          },
          { agent_ref: { name: "absent_agent" }, agent_metrics: { avg_reward: 1, pass_rate: 1 } },
        ]),
      );
      await cliAnswers(dir);
      const { service, summary } = await openInBrowser(dir);
      const lines = await browserMetricsLines(service, summary);
      expect(lines).toEqual(lastCliMetrics);
      expect(await triageMetricsLines(dir)).toEqual(lastCliMetrics);
      const aggregate = lines.find((l) => l.startsWith("data/run_aggregate_metrics.json: "));
      // The five lines recorded 2.0 and are recomputed 2.0: Gym's 1.5 differs from both, named.
      expect(aggregate).toContain(
        "mean/reward (recorded) (agent example_tool_call_multireward_simple_agent): Gym 1.5, recomputed 2 from the recorded rewards of its 5 lines: differs by 0.5.",
      );
      expect(aggregate).toContain(
        "mean/reward (recomputed) (agent example_tool_call_multireward_simple_agent): Gym 1.5, recomputed 2 from the rewards recomputed here: differs by 0.5.",
      );
      expect(aggregate).toContain("(1 figures not recomputed here)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("task rows inside a rollouts file pair on the page as in the CLI", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "own-rows-"));
    try {
      cpSync(path.join(EXAMPLES, "resources_servers/example_multi_step"), dir, { recursive: true });
      const data = path.join(dir, "data");
      const lines = (name: string) =>
        readFileSync(path.join(data, name), "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "");
      // The task rows moved into the rollouts file, one rollout made to pair none (its closest row is named).
      const rollouts = lines("example_rollouts.jsonl");
      const first = JSON.parse(rollouts[0] ?? "{}");
      first.responses_create_params.input.push({ role: "user", content: "one more turn" });
      const tasks = lines("example.jsonl");
      rmSync(path.join(data, "example.jsonl"));
      writeFileSync(
        path.join(data, "example_rollouts.jsonl"),
        `${[JSON.stringify(first), ...rollouts.slice(1), ...tasks].join("\n")}\n`,
      );
      const cli = await cliAnswers(dir);
      expect(cli.slice(1, 5).every((a) => a.paired_by === "input")).toBe(true);
      expect(cli.slice(5).map((a) => a.kind)).toEqual(Array(5).fill("task_row"));
      const { service, summary } = await openInBrowser(dir);
      expect(browserAnswers(service, summary)).toEqual(cli);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a role change elsewhere in the folder keeps a kept file's paired count", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "role-count-"));
    try {
      cpSync(path.join(EXAMPLES, "resources_servers/example_multi_step"), dir, { recursive: true });
      // A second run's rollouts: its role changes, the first file's pairing does not.
      cpSync(path.join(dir, "data/example_rollouts.jsonl"), path.join(dir, "data/second_rollouts.jsonl"));
      const { service, summary } = await openInBrowser(dir);
      const first = summary.datasets.find((d) => d.name === "data/example_rollouts.jsonl");
      expect(first?.paired_rows).toBeGreaterThan(0);
      await service.setRole("data/second_rollouts.jsonl", "ignore", never, ignore);
      await service.settled();
      const after = service.session().datasets.find((d) => d.name === "data/example_rollouts.jsonl");
      expect(after?.id).toBe(first?.id);
      expect(after?.paired_rows).toBe(first?.paired_rows);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a role changed on the page is the CLI's --role", async () => {
    const dir = path.join(EXAMPLES, "resources_servers/example_multi_step");
    const role = "data/example.jsonl=ignore";
    const cli = await cliAnswers(dir, [role]);
    const { service } = await openInBrowser(dir);
    const summary = await service.setRole("data/example.jsonl", "ignore", never, ignore);
    await service.settled();
    expect(summary.folder?.files.find((f) => f.path === "data/example.jsonl")).toMatchObject({
      role: "ignore",
      chosen: true,
    });
    expect(browserAnswers(service, service.session())).toEqual(cli);
    // Nothing left to pair with: every rollout is unpaired.
    expect(browserAnswers(service, service.session()).every((a) => a.paired_by === "none")).toBe(true);
    // The folder read again with the roles chosen before (a served folder's reload) answers alike; a role
    // for a path the folder no longer has is dropped.
    const again = new DataService(inProcessPool());
    // (the config's role is the one its content gives it: no choice, no badge)
    const roles = {
      "data/example.jsonl": "ignore",
      "data/gone.jsonl": "inputs",
      "configs/example_multi_step.yaml": "config",
    } as const;
    await again.loadFolder(path.basename(dir), folderEntriesFromDisk(dir), never, ignore, null, roles);
    await again.settled();
    expect(
      again
        .session()
        .folder?.files.filter((f) => f.chosen)
        .map((f) => [f.path, f.role]),
    ).toEqual([["data/example.jsonl", "ignore"]]);
    expect(browserAnswers(again, again.session())).toEqual(cli);
    // Chosen back to the role its content gives it: no choice is left (no badge, no --role).
    await service.setRole("data/example.jsonl", "inputs", never, ignore);
    await service.settled();
    expect(service.session().folder?.files.find((f) => f.path === "data/example.jsonl")).toMatchObject({
      role: "inputs",
      chosen: false,
    });
    expect(browserAnswers(service, service.session())).toEqual(await cliAnswers(dir));
  });
});
