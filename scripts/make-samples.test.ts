import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveRollout as resolveRolloutTyped, STATUS_HIGHLIGHT } from "../lib/identity";
import type { CallStatus } from "../lib/identity/types";
import { narrowing } from "../lib/schemas/test-helpers";
import { workplaceAssistantVerifier } from "../lib/verifiers/workplace_assistant";
import { createRegistry, pairInputs, pairingKey, verifyRollout as verifyRolloutTyped } from "../lib/verify";
import { type GeneratedSamples, generateSamples, SAMPLES_DIR, type SampleIndexEntry } from "./make-samples";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const resolveRollout = narrowing(resolveRolloutTyped);
const verifyRollout = narrowing(verifyRolloutTyped);

const ROOT = join(import.meta.dirname, "..");
const SERVER = "workplace_assistant";
const TASK_FIELDS = ["id", "ground_truth", "category", "environment_name"] as const;

let samples: GeneratedSamples;
beforeAll(() => {
  samples = generateSamples();
});

function content(file: string): string {
  const text = samples.files.get(`${SAMPLES_DIR}/${file}`);
  if (text === undefined) throw new Error(`not generated: ${file}`);
  return text;
}

function rows(file: string): Record<string, unknown>[] {
  return content(file)
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

function functionCalls(rollout: Record<string, unknown>): Record<string, unknown>[] {
  const response = rollout.response as { output: Record<string, unknown>[] };
  return response.output.filter((item) => item.type === "function_call");
}

const index = (): SampleIndexEntry[] => JSON.parse(content("index.json"));

describe("public/samples", () => {
  it("regenerating gives byte-identical files, and the folder holds nothing else", () => {
    for (const [path, text] of samples.files) {
      expect(readFileSync(join(ROOT, path), "utf8"), path).toBe(text);
    }
    const onDisk = readdirSync(join(ROOT, SAMPLES_DIR)).sort();
    expect(onDisk).toEqual([...samples.files.keys()].map((p) => p.slice(SAMPLES_DIR.length + 1)).sort());
  });

  it("is deterministic across runs", () => {
    expect(generateSamples().files).toEqual(samples.files);
  });

  it("copies Gym's example rollouts and license verbatim", () => {
    const gym = index().filter((e) => e.file.startsWith("gym-"));
    expect(gym.map((e) => e.server).sort()).toEqual(
      [
        "example_mcp_weather",
        "example_tool_call_multireward",
        "indirect_prompt_injection",
        "math_advanced_calculations",
        "workplace_assistant",
      ].sort(),
    );
    for (const e of gym) {
      const source = `fixtures/nemo-gym/resources_servers/${e.server}/data/example_rollouts.jsonl`;
      expect(content(e.file)).toBe(readFileSync(join(ROOT, source), "utf8"));
    }
    expect(content("LICENSE")).toBe(readFileSync(join(ROOT, "fixtures/nemo-gym/LICENSE"), "utf8"));
  });

  it("index.json lists every data file once with a valid kind", () => {
    const entries = index();
    const dataFiles = [...samples.files.keys()]
      .map((p) => p.slice(SAMPLES_DIR.length + 1))
      .filter((f) => f.endsWith(".jsonl"))
      .sort();
    expect(entries.map((e) => e.file).sort()).toEqual(dataFiles);
    for (const e of entries) {
      expect(["rollouts", "inputs"]).toContain(e.kind);
      expect(e.title.length).toBeGreaterThan(0);
      expect(e.description.length).toBeGreaterThan(0);
    }
    expect(entries.filter((e) => e.kind === "inputs").map((e) => e.file)).toEqual([
      "workplace_materialized_inputs.jsonl",
    ]);
  });
});

describe("generated rollouts", () => {
  it("resolve to the statuses each scenario intends, under policy contract", () => {
    expect(samples.intents.length).toBeGreaterThan(0);
    for (const intent of samples.intents) {
      const rollout = rows(intent.file)[intent.line];
      const resolution = resolveRollout(rollout, { server: SERVER });
      expect(
        resolution.calls.map((c) => c.status),
        `${intent.file}:${intent.line + 1} ${intent.scenario}`,
      ).toEqual(intent.statuses);
      if (intent.orphanKeys) {
        const orphan = resolution.findings.find((f) => f.kind === "orphan_provenance");
        expect(orphan?.kind === "orphan_provenance" ? orphan.call_ids : []).toEqual(intent.orphanKeys);
      }
    }
  });

  it("together cover every call status", () => {
    const seen = new Set<CallStatus>();
    for (const intent of samples.intents) {
      const resolution = resolveRollout(rows(intent.file)[intent.line], { server: SERVER });
      for (const call of resolution.calls) seen.add(call.status);
    }
    expect([...seen].sort()).toEqual(Object.keys(STATUS_HIGHLIGHT).sort());
  });

  it("flag the near-miss server names", () => {
    const nearMiss = samples.intents.find((i) => /near-miss/i.test(i.scenario));
    expect(nearMiss).toBeDefined();
    const resolution = resolveRollout(rows(nearMiss!.file)[nearMiss!.line], { server: SERVER });
    const flagged = resolution.calls.filter((c) => c.flags.some((f) => f.name === "server_near_miss"));
    expect(flagged.map((c) => c.provenance?.server_name)).toEqual([
      "workplace-assistant",
      "Workplace Assistant",
    ]);
  });

  it("echo the task fields and Gym keys, except in the no-echo file", () => {
    for (const e of index().filter((x) => x.kind === "rollouts" && !x.file.startsWith("gym-"))) {
      for (const r of rows(e.file)) {
        expect(typeof r._ng_task_index).toBe("number");
        expect(typeof r._ng_rollout_index).toBe("number");
        expect((r.agent_ref as { name: string }).name).toMatch(/_agent$/);
        expect(typeof r.reward).toBe("number");
        for (const field of TASK_FIELDS) {
          expect(Object.hasOwn(r, field), `${e.file} ${field}`).toBe(e.file !== "workplace-noecho.jsonl");
        }
        if (e.file !== "workplace-noecho.jsonl") expect(r.environment_name).toBe(SERVER);
      }
    }
  });

  it("follow every function_call with its output and end with an assistant message", () => {
    for (const intent of samples.intents) {
      const output = (rows(intent.file)[intent.line]!.response as { output: Record<string, unknown>[] })
        .output;
      for (let i = 0; i < output.length - 1; i += 2) {
        const call = output[i]!;
        const result = output[i + 1]!;
        expect(call.type).toBe("function_call");
        expect(call.status).toBe("completed");
        expect(() => JSON.parse(String(call.arguments))).not.toThrow();
        expect(result.type).toBe("function_call_output");
        expect(result.call_id).toBe(call.call_id);
        expect(JSON.parse(String(result.output))).toHaveProperty("output");
      }
      expect(output.at(-1)).toMatchObject({ type: "message", role: "assistant" });
    }
  });
});

describe("recorded rewards and the compare runs", () => {
  const registry = createRegistry([workplaceAssistantVerifier]);
  const byKey = (file: string) => new Map(rows(file).map((r) => [pairingKey(r), r]));

  it("the three compare runs hold the same trajectories under different names", () => {
    const http = byKey("compare-http.jsonl");
    for (const file of ["compare-mcp-claude.jsonl", "compare-mcp-hermes-noprov.jsonl"]) {
      const other = byKey(file);
      expect([...other.keys()].sort()).toEqual([...http.keys()].sort());
      for (const [key, r] of other) {
        const args = (x: Record<string, unknown>) => functionCalls(x).map((c) => c.arguments);
        expect(args(r)).toEqual(args(http.get(key)!));
      }
    }
  });

  it("Gym before provenance scored Claude Code names like HTTP and Hermes legacy names 0", () => {
    const http = byKey("compare-http.jsonl");
    const claude = byKey("compare-mcp-claude.jsonl");
    const hermes = byKey("compare-mcp-hermes-noprov.jsonl");
    expect(new Set([...http.values()].map((r) => r.reward))).toEqual(new Set([0, 1]));
    for (const [key, r] of http) {
      expect(claude.get(key)?.reward).toBe(r.reward);
      expect(hermes.get(key)?.reward).toBe(0);
    }
  });

  it("with provenance honoured, the correct Hermes and OpenClaw rollouts recorded as 0 score 1", () => {
    const matrix = rows("workplace-harnesses.jsonl").filter((r) =>
      Object.hasOwn(r, "mcp_tool_call_provenance"),
    );
    const recordedZero = matrix.filter((r) => r.reward === 0);
    expect(recordedZero.length).toBeGreaterThan(0);
    for (const r of matrix) {
      expect(verifyRollout(r, { server: SERVER, policy: "contract", registry }).reward).toBe(1);
    }
  });

  it("the no-echo rollouts pair one-to-one with the materialized inputs", () => {
    const inputs = pairInputs(rows("workplace_materialized_inputs.jsonl"));
    const noecho = rows("workplace-noecho.jsonl");
    expect(inputs.size).toBe(noecho.length);
    for (const r of noecho) {
      const input = inputs.get(pairingKey(r) ?? "");
      expect(input).toBeDefined();
      const result = verifyRollout(r, { server: SERVER, policy: "legacy", registry, input });
      expect(result.reward).toBe(r.reward);
    }
  });
});
