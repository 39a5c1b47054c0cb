/**
 * The inspector worker's session, run in Node (vitest does not include worker/, and every hook's data comes
 * from here): loading, classification, pairing, per-line errors, cancellation, search and transcripts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readRollout } from "@/lib/schemas";
import { transcript } from "@/worker/core";
import type { LoadProgress } from "@/worker/protocol";
import { Session } from "@/worker/session";

const ROOT = path.resolve(__dirname, "..");
const WA = path.join(ROOT, "fixtures/golden/workplace-rollouts");

function file(full: string, name = path.basename(full)): File {
  return new File([readFileSync(full)], name);
}

function jsonl(full: string): unknown[] {
  return readFileSync(full, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

const Expected = z.object({
  contract: z.object({ reward: z.number().nullable() }),
  legacy: z.object({ reward: z.number().nullable() }),
});
const never = new AbortController().signal;
const ignore = (_: LoadProgress) => {};

describe("Session.load", () => {
  it("recognises a materialized-inputs file and pairs it with its rollouts", async () => {
    const session = new Session();
    const summary = await session.load(
      [
        { kind: "file", file: file(path.join(WA, "wa_inputs.jsonl")) },
        { kind: "file", file: file(path.join(WA, "wa_noecho.jsonl")) },
      ],
      null,
      never,
      ignore,
    );
    const [inputs, rollouts] = summary.datasets;
    expect(inputs?.kind).toBe("inputs");
    expect(rollouts?.kind).toBe("rollouts");
    const expected = jsonl(path.join(WA, "wa_noecho_expected.jsonl")).map((row) => Expected.parse(row));
    expect(rollouts?.rows).toBe(expected.length);
    expect(rollouts?.paired_rows).toBe(expected.length);
    expect(rollouts?.paired_inputs).toBe(inputs?.id);
    const index = session.get(rollouts!.id)!.index;
    expect(index.map((entry) => [entry.contract, entry.legacy])).toEqual(
      expected.map((row) => [row.contract.reward, row.legacy.reward]),
    );
    expect(index.every((entry) => entry.paired && entry.server === "workplace_assistant")).toBe(true);
    expect(index.every((entry) => entry.paired_by === "index" && entry.server_source === "input")).toBe(true);
    // Every row has a reward or an unverified reason (what Gym's request model refuses), never neither.
    for (const entry of index) expect(entry.contract === null).toBe(entry.unverified !== null);
  });

  it("pairs an inputs file loaded on its own with the rollouts already open", async () => {
    const session = new Session();
    await session.load([{ kind: "file", file: file(path.join(WA, "wa_noecho.jsonl")) }], null, never, ignore);
    const before = session.datasets[0]!;
    // Without the inputs nothing is verified: the server is unknown, or the only provenance server (a near-miss
    // name has no verifier), or known but the task is missing.
    const without = new Set(["missing_field", "no_server", "no_verifier"]);
    expect(
      before.index.every((entry) => entry.contract === null && without.has(entry.unverified ?? "")),
    ).toBe(true);
    const summary = await session.load(
      [{ kind: "file", file: file(path.join(WA, "wa_inputs.jsonl")) }],
      null,
      never,
      ignore,
    );
    expect(summary.datasets.map((dataset) => dataset.kind)).toEqual(["rollouts", "inputs"]);
    expect(summary.datasets[0]?.paired_rows).toBe(before.index.length);
    const expected = jsonl(path.join(WA, "wa_noecho_expected.jsonl")).map((row) => Expected.parse(row));
    expect(session.datasets[0]!.index.map((entry) => entry.contract)).toEqual(
      expected.map((row) => row.contract.reward),
    );
  });

  it("reports each bad line with its number and keeps the good rows", async () => {
    const session = new Session();
    const summary = await session.load(
      [{ kind: "file", file: file(path.join(ROOT, "e2e/fixtures/malformed.jsonl")) }],
      null,
      never,
      ignore,
    );
    const dataset = summary.datasets[0]!;
    expect(dataset.rows).toBe(4);
    expect(dataset.errors.map((error) => error.line)).toEqual([2, 4, 6, 7]);
    expect(dataset.errors[0]?.error).toMatch(/invalid JSON/);
    expect(dataset.errors[1]?.error).toMatch(/^not a rollout: /);
    expect(dataset.errors[3]?.error).toMatch(/UTF-8/);
    expect(session.get(dataset.id)!.index.map((entry) => entry.line)).toEqual([1, 3, 5, 8]);
  });

  it("leaves the session as it was when a load is cancelled", async () => {
    const session = new Session();
    await session.load(
      [{ kind: "file", file: file(path.join(ROOT, "e2e/fixtures/malformed.jsonl")) }],
      null,
      never,
      ignore,
    );
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      session.load(
        [{ kind: "file", file: file(path.join(WA, "wa_rollouts.jsonl")) }],
        null,
        aborted.signal,
        ignore,
      ),
    ).rejects.toThrow();
    expect(session.datasets.map((dataset) => dataset.name)).toEqual(["malformed.jsonl"]);
  });

  it("uses the fallback server only for rows that name none, and an override for every row", async () => {
    const session = new Session();
    const ipi = path.join(ROOT, "fixtures/golden/ipi-rollouts/ipi_rollouts.jsonl");
    const summary = await session.load(
      [{ kind: "file", file: file(ipi) }],
      "indirect_prompt_injection",
      never,
      ignore,
    );
    const id = summary.datasets[0]!.id;
    expect(session.get(id)!.index.every((entry) => entry.server === "indirect_prompt_injection")).toBe(true);
    await session.reanalyze(id, "workplace_assistant", null, never, ignore);
    expect(session.get(id)!.index.every((entry) => entry.server === "workplace_assistant")).toBe(true);
  });

  it("a named harness adds alias diagnostics to the index: its own aliases agree, another harness's do not", async () => {
    const session = new Session();
    const summary = await session.load(
      [{ kind: "file", file: file(path.join(WA, "wa_rollouts.jsonl")) }],
      null,
      never,
      ignore,
    );
    const id = summary.datasets[0]!.id;
    const before = new Map(session.get(id)!.index.map((entry) => [entry.line, entry.counts.mismatched]));
    const after = await session.reanalyze(id, null, "claude-code", never, ignore);
    expect(after.datasets[0]?.harness).toBe("claude-code");
    const index = session.get(id)!.index;
    const claude = index.filter((entry) => entry.agent === "claude_prov_agent");
    const hermes = index.filter((entry) => entry.agent === "hermes_prov_agent");
    expect(claude.length).toBeGreaterThan(0);
    expect(hermes.length).toBeGreaterThan(0);
    for (const entry of claude) expect(entry.counts.mismatched).toBe(before.get(entry.line));
    const total = (entries: typeof index, counts: (line: number) => number) =>
      entries.reduce((sum, entry) => sum + counts(entry.line), 0);
    const hermesAfter = total(
      hermes,
      (line) => index.find((entry) => entry.line === line)?.counts.mismatched ?? 0,
    );
    expect(hermesAfter).toBeGreaterThan(total(hermes, (line) => before.get(line) ?? 0));
  });

  it("finds lines by any text they contain, case-insensitively", async () => {
    const session = new Session();
    const summary = await session.load(
      [{ kind: "file", file: file(path.join(WA, "wa_rollouts.jsonl")) }],
      null,
      never,
      ignore,
    );
    const rows = jsonl(path.join(WA, "wa_rollouts.jsonl"));
    const agent = z.object({ agent_ref: z.object({ name: z.string() }) });
    const expected = rows.flatMap((row, index) =>
      agent.parse(row).agent_ref.name === "near_miss_agent" ? [index + 1] : [],
    );
    expect(await session.search(summary.datasets[0]!.id, "NEAR_MISS_AGENT", never)).toEqual(expected);
  });
});

describe("transcript", () => {
  it("pairs each output with its call by call_id, in order, also for repeated call_ids", () => {
    const read = readRollout({
      response: {
        output: [
          { type: "function_call", name: "a", call_id: "x", arguments: "{}" },
          { type: "function_call", name: "b", call_id: "x", arguments: "{}" },
          { type: "function_call_output", call_id: "x", output: "first" },
          { type: "function_call_output", call_id: "x", output: "second" },
          { type: "function_call_output", call_id: "orphan", output: "lost" },
          { type: "function_call", name: "c", arguments: "{}" },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] },
        ],
      },
    });
    if (!read.ok) throw new Error(read.issues.join("; "));
    const items = transcript(read.rollout);
    expect(
      items.map((item) =>
        item.kind === "call"
          ? `${item.name}:${item.output}`
          : item.kind === "output"
            ? `unpaired:${item.output}`
            : item.kind,
      ),
    ).toEqual(["a:first", "b:second", "unpaired:lost", "c:null", "message"]);
  });

  it("pairs outputs by call_id whatever id and status hold (Gym writes null for both): every real Gym file", () => {
    const gym = path.join(ROOT, "fixtures/nemo-gym/resources_servers");
    const nullish = readRollout({
      response: {
        output: [
          { type: "function_call", name: "a", call_id: "x", arguments: "{}", id: null, status: null },
          { type: "function_call_output", call_id: "x", output: "ok", id: null, status: null },
        ],
      },
    });
    if (!nullish.ok) throw new Error(nullish.issues.join("; "));
    expect(transcript(nullish.rollout).map((i) => (i.kind === "call" ? i.output : i.kind))).toEqual(["ok"]);
    for (const server of readdirSync(gym)) {
      for (const raw of jsonl(path.join(gym, server, "data/example_rollouts.jsonl"))) {
        const read = readRollout(raw);
        if (!read.ok) throw new Error(read.issues.join("; "));
        const items = transcript(read.rollout);
        const outputs = read.rollout.response.output.filter((o) => o.type === "function_call_output").length;
        const paired = items.filter((i) => i.kind === "call" && i.output !== null).length;
        expect(
          items.filter((i) => i.kind === "output"),
          server,
        ).toEqual([]);
        expect(paired, server).toBe(outputs);
      }
    }
  });

  it("a file that is not rollouts JSONL gets one message saying what it is", async () => {
    const csv = path.join(
      ROOT,
      "fixtures/nemo-gym/resources_servers/workplace_assistant/csv_data/processed/emails.csv",
    );
    const cases: [File, string][] = [
      [file(csv), "CSV"],
      [new File(['{\n  "response": {"output": []}\n}\n'], "one.json"), "one JSON document"],
      [new File([new Uint8Array([0xff, 0xfe, 0x7b, 0, 0x7d, 0, 0x0a, 0])], "u16.jsonl"), "UTF-16"],
      [
        new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 6, 0, 0, 0, 0x0a])], "x.png"),
        "binary",
      ],
    ];
    for (const [f, words] of cases) {
      const session = new Session();
      const summary = await session.load([{ kind: "file", file: f }], null, never, ignore);
      expect(summary.datasets[0]?.problem, f.name).toContain(words);
    }
    const ok = await new Session().load(
      [{ kind: "file", file: file(path.join(WA, "wa_rollouts.jsonl")) }],
      null,
      never,
      ignore,
    );
    expect(ok.datasets[0]?.problem).toBeNull();
  });
});
