import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { narrowing } from "../schemas/test-helpers";
import { resolveRollout as resolveRolloutTyped } from ".";
import { deepFreeze, foreignMapArb, rolloutCaseArb } from "./test-helpers";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const resolveRollout = narrowing(resolveRolloutTyped);

const RUNS = { numRuns: 300 };

describe("identity properties", () => {
  it("never mutates its (deep-frozen) input and never throws", () => {
    fc.assert(
      fc.property(
        rolloutCaseArb,
        fc.constantFrom("contract", "legacy" as const),
        ({ server, rollout }, policy) => {
          const before = JSON.stringify(rollout);
          resolveRollout(deepFreeze(rollout), { server, policy, tools: ["append"], harness: "claude-code" });
          expect(JSON.stringify(rollout)).toBe(before);
        },
      ),
      RUNS,
    );
  });

  it("only canonical and legacy calls get a verifier name that differs from the emitted name", () => {
    fc.assert(
      fc.property(
        rolloutCaseArb,
        fc.constantFrom("contract", "legacy" as const),
        ({ server, rollout }, policy) => {
          for (const call of resolveRollout(rollout, { server, policy }).calls) {
            if (call.status !== "canonical" && call.status !== "legacy")
              expect(call.verifier_name).toBe(call.emitted);
          }
        },
      ),
      RUNS,
    );
  });

  it("a canonical call's verifier name is the tool_name of an entry naming exactly S", () => {
    fc.assert(
      fc.property(rolloutCaseArb, ({ server, rollout }) => {
        for (const call of resolveRollout(rollout, { server }).calls) {
          if (call.status !== "canonical") continue;
          expect(call.provenance?.server_name).toBe(server);
          expect(call.verifier_name).toBe(call.provenance?.tool_name);
        }
      }),
      RUNS,
    );
  });

  it("under policy legacy the provenance map never matters", () => {
    fc.assert(
      fc.property(rolloutCaseArb, ({ server, rollout }) => {
        const { mcp_tool_call_provenance: _ignored, ...withoutMap } = rollout;
        const options = {
          server,
          policy: "legacy" as const,
          tools: ["append"],
          harness: "openclaw" as const,
        };
        const a = resolveRollout(rollout, options);
        const b = resolveRollout(withoutMap, options);
        expect(a.calls).toEqual(b.calls);
        expect(a.findings).toEqual(b.findings);
      }),
      RUNS,
    );
  });

  it("an entry naming another server never changes a name", () => {
    const arb = rolloutCaseArb.chain(({ server, rollout }) =>
      foreignMapArb(server).map((map) => ({
        server,
        rollout: { ...rollout, mcp_tool_call_provenance: map },
      })),
    );
    fc.assert(
      fc.property(arb, ({ server, rollout }) => {
        for (const call of resolveRollout(rollout, { server }).calls)
          expect(call.verifier_name).toBe(call.emitted);
      }),
      RUNS,
    );
  });

  it("adding an entry for another server leaves every other call's resolution unchanged", () => {
    fc.assert(
      fc.property(rolloutCaseArb, ({ server, rollout }) => {
        const map = rollout.mcp_tool_call_provenance;
        if (map === null || typeof map !== "object" || Array.isArray(map)) return;
        const extended = { ...map, fresh_id: { server_name: `${server}-other`, tool_name: "append" } };
        const a = resolveRollout({ ...rollout, mcp_tool_call_provenance: extended }, { server });
        const b = resolveRollout(rollout, { server });
        expect(a.calls.map((c) => [c.status, c.verifier_name])).toEqual(
          b.calls.map((c) => [c.status, c.verifier_name]),
        );
      }),
      RUNS,
    );
  });
});
