/**
 * One rule, two front ends: `cli verify` and the browser worker's session must choose the same verifying
 * server, with the same source, pair the same way and reach the same outcome on every line of every
 * fixture file (Gym's example rollouts with and without their example.jsonl, and the golden files).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { run } from "@/cli/commands/verify";
import { memoryIo } from "@/cli/io";
import type { LoadProgress, Source } from "@/worker/protocol";
import { Session } from "@/worker/session";

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

    const session = new Session();
    const sources = inputs === null ? [source(file)] : [source(inputs), source(file)];
    const summary = await session.load(sources, null, never, ignore);
    const rollouts = summary.datasets.find((d) => d.kind === "rollouts");
    expect(rollouts).toBeDefined();
    const browser = (session.get(rollouts?.id ?? "")?.index ?? []).map((e) => ({
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
