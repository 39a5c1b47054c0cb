import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { golden, goldenInputs, WA } from "../compare/test-helpers";
import { configRoutes, readGymConfig } from "../folder";
import { HARNESSES } from "../harness";
import { legacyPrefix } from "../identity";
import { narrowing } from "../schemas/test-helpers";
import { indexInputs } from "../verify";
import { harnessWhatIf as harnessWhatIfTyped } from "./whatif";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const harnessWhatIf = narrowing(harnessWhatIfTyped);

const bare = golden().filter((g) => g.expected.scheme === "bare");

describe("harnessWhatIf", () => {
  it("verifies with the server a folder's configs route the line to, as the inspector does", () => {
    // Gym's own example_mcp_weather rollouts name no environment_name: only the folder's config routes them.
    const dir = join(__dirname, "../../fixtures/gym-examples/resources_servers/example_mcp_weather");
    const read = readGymConfig(
      "configs/example_mcp_weather.yaml",
      readFileSync(join(dir, "configs/example_mcp_weather.yaml"), "utf8"),
    );
    if (!read.ok) throw new Error(read.message);
    const [line] = readFileSync(join(dir, "data/example_rollouts.jsonl"), "utf8").split("\n");
    const rollout: unknown = JSON.parse(line ?? "");
    expect(harnessWhatIf(rollout).error).toMatch(/^no verifying server: /);

    const routed = harnessWhatIf(rollout, { config: configRoutes([read.config]) });
    expect(routed.error).toBeUndefined();
    expect(routed.server).toBe("example_mcp_weather");
    expect(routed.server_reason).toBe(
      "The line has no agent_ref; the configs' only agent, example_mcp_weather_claude_code_agent, calls example_mcp_weather.",
    );
    expect(routed.rows).toHaveLength(HARNESSES.length * 2);
    // The user's server still wins over the configs.
    expect(harnessWhatIf(rollout, { server: WA, config: configRoutes([read.config]) }).server).toBe(WA);
  });

  it("scores every variant with provenance like bare HTTP, on every golden bare rollout", () => {
    for (const g of bare) {
      const report = harnessWhatIf(g.rollout);
      expect(report.error).toBeUndefined();
      expect(report.server).toBe(WA);
      expect(report.http.reward).toBe(g.expected.contract.reward);
      expect(report.rows).toHaveLength(HARNESSES.length * 2);
      for (const row of report.rows.filter((r) => r.withProvenance)) {
        expect(row.equalsHttp).toBe(true);
        expect(row.verifierNames).toEqual(report.http.verifierNames);
        expect(row.statuses.every((s) => s === "canonical")).toBe(true);
      }
    }
  });

  it("without provenance, only exact mcp__<S>__<tool> names survive (legacy fallback)", () => {
    let broken = 0;
    for (const g of bare) {
      const report = harnessWhatIf(g.rollout);
      for (const row of report.rows.filter((r) => !r.withProvenance)) {
        const exactLegacy = row.emittedNames.every(
          (name, i) => name === `${legacyPrefix(WA)}${report.http.verifierNames[i]}`,
        );
        if (exactLegacy) {
          expect(row.equalsHttp).toBe(true);
          expect(row.verifierNames).toEqual(report.http.verifierNames);
        } else {
          expect(row.verifierNames).not.toEqual(report.http.verifierNames);
          if (!row.equalsHttp) broken++;
        }
      }
    }
    // Hermes legacy, OpenClaw and Gemini CLI names lose every correct rollout; so do clamped long names.
    expect(broken).toBeGreaterThan(0);
  });

  it("re-emits Hermes D's clamped long names, which the legacy fallback cannot strip", () => {
    const reports = bare.map((g) => harnessWhatIf(g.rollout));
    const report = reports.find(
      (r) =>
        r.http.reward === 1 && r.http.verifierNames.includes("customer_relationship_manager_delete_customer"),
    );
    expect(report).toBeDefined();
    if (report === undefined) return;
    const hermes = report.rows.find((r) => r.harness === "hermes" && !r.withProvenance)!;
    expect(hermes.emittedNames.some((n) => n.length === 64 && !n.endsWith("delete_customer"))).toBe(true);
    expect(hermes.equalsHttp).toBe(false);
    expect(report.rows.find((r) => r.harness === "hermes" && r.withProvenance)?.equalsHttp).toBe(true);
  });

  it("uses the materialized input for a rollout without task fields", () => {
    const noecho = golden("noecho");
    const inputs = indexInputs(goldenInputs());
    const g = noecho.find((x) => x.expected.contract.reward === 1)!;
    const report = harnessWhatIf(g.rollout, { inputs });
    expect(report.server).toBe(WA);
    expect(report.http.reward).toBe(1);
    expect(report.rows.filter((r) => r.withProvenance).every((r) => r.reward === 1)).toBe(true);
    // Without its task row nothing scores: no variant "equals" a bare HTTP reward that does not exist.
    const unscored = harnessWhatIf(g.rollout);
    expect(unscored.http.reward).toBeNull();
    expect(unscored.rows.length).toBeGreaterThan(0);
    expect(unscored.rows.some((r) => r.equalsHttp)).toBe(false);
  });

  it("says why a rollout found no input row while rows are open, never to open them", () => {
    const inputs = indexInputs(goldenInputs());
    const g = golden("noecho").find((x) => x.expected.contract.reward === 1)!;
    const stray = structuredClone(g.rollout) as Record<string, unknown>;
    stray._ng_task_index = 9999;
    stray.responses_create_params = { input: [{ role: "user", content: "a task no row has" }] };
    const report = harnessWhatIf(stray, { inputs, server: WA });
    expect(report.http.reward).toBeNull();
    expect(report.http.error).toMatch(/no input row has/i);
    expect(report.http.error).not.toMatch(/open the materialized inputs/i);
  });

  it("says a server without a port here has no aliases to re-emit and no reward to show (Gym's xlam_fc)", () => {
    const call = { type: "function_call", call_id: "c1", name: "web_chain_details", arguments: "{}" };
    const report = harnessWhatIf(
      { environment_name: "xlam_fc", response: { output: [call] } },
      { server: "xlam_fc" },
    );
    expect(report.rows).toHaveLength(0);
    expect(report.error).toMatch(/^xlam_fc has no verifier port here/);
  });

  it("runs for a ported server whose port lists no tools (indirect_prompt_injection)", () => {
    const line = readFileSync(
      join(__dirname, "../../fixtures/golden/ipi-rollouts/ipi_rollouts.jsonl"),
      "utf8",
    ).split("\n")[0];
    const report = harnessWhatIf(JSON.parse(line ?? ""), { server: "indirect_prompt_injection" });
    expect(report.error).toBeUndefined();
    expect(report.rows.length).toBeGreaterThan(0);
    expect(report.rows.some((row) => row.reward !== null)).toBe(true);
  });

  it("explains why it cannot run: no tool call to re-emit (Gym's structeval), or no verifying server", () => {
    expect(harnessWhatIf({ response: { output: [] } })).toMatchObject({
      error: "it makes no tool call, so no harness's aliases can change its reward.",
      error_kind: "no_calls",
    });
    const call = { type: "function_call", call_id: "c1", name: "mystery_tool", arguments: "{}" };
    const unrouted = harnessWhatIf({ response: { output: [call] } });
    expect(unrouted.error).toMatch(/^no verifying server: /);
    expect(unrouted.error_kind).toBe("no_server");
    const portless = harnessWhatIf({ environment_name: "calendar", response: { output: [call] } });
    expect(portless).toMatchObject({ error_kind: "no_port" });
    expect(portless.error).toMatch(/^calendar has no verifier port here/);
  });
});
