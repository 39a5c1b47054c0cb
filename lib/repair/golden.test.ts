import { describe, expect, it } from "vitest";
import { asHarness, editCalls, golden, WA } from "../compare/test-helpers";
import { HARNESSES } from "../harness";
import { narrowing } from "../schemas/test-helpers";
import { knownTools, verifyRollout as verifyRolloutTyped } from "../verify";
import { repairRollout as repairRolloutTyped } from "./repair";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const verifyRollout = narrowing(verifyRolloutTyped);

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const repairRollout = narrowing(repairRolloutTyped);

const all = golden();
const bare = all.filter((g) => g.expected.scheme === "bare");
const tools = knownTools(WA) ?? [];
const servers = [{ name: WA, tools }];

describe("repair on the golden workplace rollouts", () => {
  it("has the verifier's tool list to build alias maps from", () => {
    expect(tools.length).toBeGreaterThan(20);
  });

  it.each(HARNESSES)(
    "a bare run re-emitted as %s without provenance, once repaired, scores like HTTP",
    (harness) => {
      let differedBefore = 0;
      for (const g of bare) {
        const legacy = asHarness(g.rollout, harness, false);
        const before = verifyRollout(legacy, { policy: "contract" }).reward;
        const repaired = repairRollout(legacy, { harness, servers });
        const hasCalls = g.text.includes('"type": "function_call"');
        expect(repaired.status).toBe(hasCalls ? "repaired" : "unchanged");
        expect(repaired.unresolved).toEqual([]);
        const after = verifyRollout(repaired.rollout, { policy: "contract" });
        expect(after.reward).toBe(g.expected.contract.reward);
        expect(after.resolution.calls.every((c) => c.status === "canonical")).toBe(true);
        if (before !== g.expected.contract.reward) differedBefore++;
      }
      // Only the exact mcp__<S>__<tool> spelling survived without a map; the others were broken before repair.
      if (harness === "hermes-legacy" || harness === "openclaw" || harness === "gemini-cli") {
        expect(differedBefore).toBeGreaterThan(0);
      }
    },
  );

  it("repairs the golden Hermes-legacy rollouts without provenance to the rewards of their bare names", () => {
    const hermes = all.filter((g) => g.expected.scheme === "hermes_noprov");
    expect(hermes.length).toBeGreaterThan(0);
    const prefix = `mcp_${WA}_`;
    for (const g of hermes) {
      const repaired = repairRollout(g.rollout, { harness: "hermes-legacy", servers });
      // Independent oracle: the same rollout with the Hermes prefix cut off every name, no map.
      const bareNames = editCalls(g.rollout, (call) => {
        if (typeof call.name === "string" && call.name.startsWith(prefix))
          call.name = call.name.slice(prefix.length);
      });
      const expected = verifyRollout(bareNames, { policy: "contract" }).reward;
      expect(verifyRollout(repaired.rollout, { policy: "contract" }).reward).toBe(expected);
      // Before repair the contract gave the alias names to the verifier unchanged.
      expect(verifyRollout(g.rollout, { policy: "contract" }).reward).toBe(g.expected.contract.reward);
    }
  });

  it("leaves every golden rollout with a provenance map unchanged", () => {
    for (const g of all.filter((x) => x.rollout.mcp_tool_call_provenance != null)) {
      const r = repairRollout(g.rollout, { harness: "claude-code", servers });
      expect(r.status).toBe("skipped");
      expect(r.rollout).toBe(g.rollout);
    }
  });
});
