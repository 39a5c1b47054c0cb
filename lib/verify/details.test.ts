import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRollout } from "../schemas";
import { readCallOutcomes, readTableDiffs } from "../triage";
import { indexInputs, verifyRollout } from "./index";

const FIXTURES = join(import.meta.dirname, "../../fixtures");

function jsonl(file: string): unknown[] {
  return readFileSync(join(FIXTURES, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

/** The rollouts of a fixture file verified by `server` (contract policy). */
function verified(server: string, file: string) {
  return jsonl(file).flatMap((value) => {
    const read = readRollout(value);
    return read.ok ? [verifyRollout(read.rollout, { server, policy: "contract" })] : [];
  });
}

describe("verifier details are a union tagged by the server that produced them", () => {
  it.each([
    ["workplace_assistant", "golden/workplace-rollouts/wa_rollouts.jsonl"],
    ["indirect_prompt_injection", "golden/ipi-rollouts/ipi_rollouts.jsonl"],
    ["example_mcp_weather", "nemo-gym/resources_servers/example_mcp_weather/data/example_rollouts.jsonl"],
    [
      "example_tool_call_multireward",
      "nemo-gym/resources_servers/example_tool_call_multireward/data/example_rollouts.jsonl",
    ],
  ])("%s: every scored rollout of %s carries details of its own kind", (server, file) => {
    // Lines without their task fields are unverified (a default is never scored): pair them with their dataset.
    const dataset = file.replace("example_rollouts.jsonl", "example.jsonl");
    const inputs = dataset === file ? indexInputs([]) : indexInputs(jsonl(dataset));
    const scored = jsonl(file)
      .flatMap((value) => {
        const read = readRollout(value);
        if (!read.ok) return [];
        const pairing = inputs.pair(read.rollout);
        const input = pairing.ref === null ? {} : { input: pairing.ref };
        return [verifyRollout(read.rollout, { server, policy: "contract", ...input })];
      })
      .filter((result) => result.reward !== null);
    expect(scored.length).toBeGreaterThan(0);
    for (const result of scored) expect(result.details?.kind).toBe(server);
  });

  it("workplace_assistant's details are typed: tables and calls, read by triage without narrowing", () => {
    const [result] = verified("workplace_assistant", "golden/workplace-rollouts/wa_rollouts.jsonl");
    const details = result?.details;
    if (details?.kind !== "workplace_assistant") throw new Error("no workplace details");
    expect(details.tables.map((t) => t.table)).toEqual(readTableDiffs(details).map((t) => t.table));
    expect(details.tables.length).toBe(5);
    expect(readCallOutcomes(details)).toBe(details.calls);
  });

  it("triage reads nothing from another verifier's details", () => {
    const [result] = verified("indirect_prompt_injection", "golden/ipi-rollouts/ipi_rollouts.jsonl");
    expect(result?.details?.kind).toBe("indirect_prompt_injection");
    expect(readCallOutcomes(result?.details)).toEqual([]);
    expect(readTableDiffs(result?.details)).toEqual([]);
  });
});
