import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveRollout } from "../identity";
import { deepFreeze, rolloutCaseArb, rolloutWith } from "../identity/test-helpers";
import type { Rollout } from "../schemas";
import { canonicalizeForVerification, restoreEmittedNames, type WithResponse } from ".";

const RUNS = { numRuns: 400 };

function outputNames(value: unknown): string[] {
  const names: string[] = [];
  JSON.stringify(value, (_key, v: unknown) => {
    if (v !== null && typeof v === "object" && "type" in v && v.type === "function_call" && "name" in v) {
      names.push(String(v.name));
    }
    return v;
  });
  return names;
}

/** The verify request built from a rollout's task fields, response and provenance. */
function requestOf(rollout: Rollout): Record<string, unknown> & WithResponse {
  const request: Record<string, unknown> & WithResponse = {
    id: 7,
    ground_truth: [{ name: "append" }],
    response: rollout.response,
  };
  if ("mcp_tool_call_provenance" in rollout)
    request.mcp_tool_call_provenance = rollout.mcp_tool_call_provenance;
  return request;
}

describe("canonicalizeForVerification / restoreEmittedNames", () => {
  const emitted = [
    "team-store__append",
    "team-store__built_in_collision",
    "team-store__append",
    "raw_step",
    "team-store__append",
    "team-store__ns__tool",
  ];
  const rollout = rolloutWith(
    emitted.map((name, i) => ({ name, call_id: `c${i}` })),
    {
      c0: { server_name: "team store", tool_name: "append" },
      c2: { server_name: "team-store", tool_name: "append" },
      c4: { server_name: "team store", tool_name: "append" },
      c5: { server_name: "team store", tool_name: "ns__tool" },
    },
  );

  it("reference vectors: the verifier sees the verifier names and the echo carries the emitted names", () => {
    const request = deepFreeze(requestOf(rollout));
    const resolution = resolveRollout(rollout, { server: "team store" });
    const canonical = canonicalizeForVerification(request, resolution);
    expect(outputNames(canonical)).toEqual([
      "append",
      "team-store__built_in_collision",
      "team-store__append",
      "raw_step",
      "append",
      "ns__tool",
    ]);
    expect(outputNames(request)).toEqual(emitted);
    const echo = deepFreeze({ ...canonical, reward: 1 });
    const restored = restoreEmittedNames(echo, resolution);
    expect(outputNames(restored)).toEqual(emitted);
    expect(restored).toEqual({ ...request, reward: 1 });
  });

  it("restores positionally per call_id, when the result reorders calls or adds one", () => {
    const dupRollout = rolloutWith(
      [
        { name: "alias_one", call_id: "dup" },
        { name: "mcp__store__x", call_id: "k" },
        { name: "alias_two", call_id: "dup" },
      ],
      undefined,
    );
    const resolution = resolveRollout(dupRollout, { server: "store" });
    const result = {
      response: {
        output: [
          { type: "function_call", name: "x", call_id: "k" },
          { type: "function_call", name: "alias_one", call_id: "dup" },
          { type: "function_call", name: "alias_two", call_id: "dup" },
          { type: "function_call", name: "extra", call_id: "dup" },
          { type: "function_call", name: "x2", call_id: "zzz" },
        ],
      },
    };
    expect(outputNames(restoreEmittedNames(deepFreeze(result), resolution))).toEqual([
      "mcp__store__x",
      "alias_one",
      "alias_two",
      "extra",
      "x2",
    ]);
  });

  it("calls without a string call_id are restored in order among themselves", () => {
    const r = rolloutWith([{ name: "mcp__s__a" }, { name: "mcp__s__b", call_id: 3 }], null);
    const resolution = resolveRollout(r, { server: "s" });
    const canonical = canonicalizeForVerification(requestOf(r), resolution);
    expect(outputNames(canonical)).toEqual(["a", "b"]);
    expect(outputNames(restoreEmittedNames(canonical, resolution))).toEqual(["mcp__s__a", "mcp__s__b"]);
  });

  it("refuses a resolution that does not describe the request", () => {
    const resolution = resolveRollout(rollout, { server: "team store" });
    expect(() => canonicalizeForVerification({ response: { output: [] } }, resolution)).toThrow(/6 calls/);
    const other = rolloutWith(emitted.map((name, i) => ({ name: `${name}!`, call_id: `c${i}` })));
    expect(() => canonicalizeForVerification(requestOf(other), resolution)).toThrow(/not the call/);
  });
});

describe("canonicalize properties", () => {
  it("never mutates the (deep-frozen) request; only function_call names change, and only canonical/legacy ones", () => {
    fc.assert(
      fc.property(
        rolloutCaseArb,
        fc.constantFrom("contract", "legacy" as const),
        ({ server, rollout }, policy) => {
          const request = requestOf(rollout);
          const snapshot = JSON.stringify(request);
          deepFreeze(request);
          const resolution = resolveRollout(rollout, { server, policy });
          const canonical = canonicalizeForVerification(request, resolution);
          expect(JSON.stringify(request)).toBe(snapshot);

          const names = outputNames(canonical);
          resolution.calls.forEach((call, i) => {
            expect(names[i]).toBe(call.verifier_name);
            if (call.status !== "canonical" && call.status !== "legacy") expect(names[i]).toBe(call.emitted);
          });
          // Putting the emitted names back gives the request exactly: nothing else changed.
          const restored = restoreEmittedNames(deepFreeze(canonical), resolution);
          expect(restored).toEqual(JSON.parse(snapshot));
          expect(JSON.stringify(restored)).toBe(snapshot);
        },
      ),
      RUNS,
    );
  });
});
