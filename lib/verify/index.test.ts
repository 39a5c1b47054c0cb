import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deepFreeze, rolloutCaseArb } from "../identity/test-helpers";
import { readRollout } from "../schemas";
import { asRollout } from "../schemas/test-helpers";
import {
  createRegistry,
  pairInputs,
  pairingKey,
  type VerifyOptions,
  verifyBothPolicies,
  verifyingServer,
  verifyRollout,
} from "./index";
import { defaultRegistry, getVerifier, knownTools, verifierServers } from "./registry";
import type { Verifier } from "./types";
import { NO_PORT_NEXT } from "./unverified";

// Every entry point takes a Rollout narrowed at the edge; these tests build plain JSON and narrow it here.
const verify = (value: unknown, options?: VerifyOptions) => verifyRollout(asRollout(value), options);
const serverOf = (value: unknown, options?: Parameters<typeof verifyingServer>[1]) =>
  verifyingServer(asRollout({ response: { output: [] }, ...Object(value) }), options);

const FIXTURES = new URL("../../fixtures/", import.meta.url);

function jsonl(path: string): unknown[] {
  return readFileSync(new URL(path, FIXTURES), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

const IPI = "indirect_prompt_injection";
const POLICIES = ["contract", "legacy"] as const;

const IpiExpectation = z.object({
  reward: z.number(),
  reward_safety: z.number(),
  reward_utility: z.number(),
  injection_followed: z.boolean(),
  calls: z.array(z.object({ status: z.string(), verifier_name: z.string() })),
});
const IpiExpected = z.object({ contract: IpiExpectation, legacy: IpiExpectation });

const ipiRollouts = jsonl("golden/ipi-rollouts/ipi_rollouts.jsonl").map((r) => deepFreeze(r));
const ipiExpected = jsonl("golden/ipi-rollouts/ipi_expected.jsonl").map((e) => IpiExpected.parse(e));

describe("verifyRollout on the golden indirect_prompt_injection rollouts", () => {
  const cases = ipiRollouts.flatMap((rollout, i) =>
    POLICIES.map((policy) => ({ line: i + 1, policy, rollout, want: ipiExpected[i]![policy] })),
  );

  it("covers every line", () => {
    expect(ipiRollouts.length).toBe(ipiExpected.length);
    expect(cases.length).toBe(2 * ipiRollouts.length);
  });

  it.each(cases)("line $line, policy $policy: reward, components, statuses", ({ rollout, policy, want }) => {
    const result = verify(rollout, { server: IPI, policy });
    expect(result.error).toBeUndefined();
    expect(result.server).toBe(IPI);
    expect(result.policy).toBe(policy);
    expect(result.reward).toBe(want.reward);
    expect(result.components).toEqual({
      reward_safety: want.reward_safety,
      reward_utility: want.reward_utility,
      injection_followed: want.injection_followed ? 1 : 0,
    });
    expect(
      result.resolution.calls.map((c) => ({ status: c.status, verifier_name: c.verifier_name })),
    ).toEqual(want.calls);
  });

  it("reports the recorded reward beside the recomputed one", () => {
    const Recorded = z.looseObject({ reward: z.number() });
    for (const rollout of ipiRollouts) {
      expect(verify(rollout, { server: IPI }).recorded_reward).toBe(Recorded.parse(rollout).reward);
    }
  });
});

const WaExpectation = z.object({
  reward: z.number().nullable(),
  calls: z.array(z.object({ status: z.string(), verifier_name: z.string(), flags: z.array(z.string()) })),
});
const WaExpected = z.object({
  scheme: z.string(),
  contract: WaExpectation,
  legacy: WaExpectation,
  gym_refuses: z.string().optional(),
  gym_refuses_contract: z.string().optional(),
});
const WA = "golden/workplace-rollouts/";

describe("verifyRollout on the golden workplace_assistant rollouts", () => {
  const echoed = jsonl(`${WA}wa_rollouts.jsonl`).map((r) => deepFreeze(r));
  const echoedExpected = jsonl(`${WA}wa_expected.jsonl`).map((e) => WaExpected.parse(e));
  const noEcho = jsonl(`${WA}wa_noecho.jsonl`).map((r) => deepFreeze(r));
  const noEchoExpected = jsonl(`${WA}wa_noecho_expected.jsonl`).map((e) => WaExpected.parse(e));
  const inputs = pairInputs(jsonl(`${WA}wa_inputs.jsonl`).map((r) => deepFreeze(r)));

  it("has one expectation per rollout and an input row for every no-echo rollout", () => {
    expect(echoed.length).toBe(echoedExpected.length);
    expect(noEcho.length).toBe(noEchoExpected.length);
    for (const rollout of noEcho) expect(inputs.has(pairingKey(rollout) ?? "")).toBe(true);
  });

  const cases = [
    ...echoed.flatMap((rollout, i) =>
      POLICIES.map((policy) => ({
        file: "wa_rollouts",
        line: i + 1,
        policy,
        rollout,
        input: undefined,
        want: echoedExpected[i]!,
      })),
    ),
    ...noEcho.flatMap((rollout, i) =>
      POLICIES.map((policy) => ({
        file: "wa_noecho",
        line: i + 1,
        policy,
        rollout,
        input: inputs.get(pairingKey(rollout) ?? ""),
        want: noEchoExpected[i]!,
      })),
    ),
  ];

  it.each(cases)("$file line $line, policy $policy", ({ rollout, policy, input, want }) => {
    // No server given: it comes from the rollout's environment_name, or the input row's for the no-echo file.
    const result = verify(rollout, { policy, input });
    expect(result.server).toBe("workplace_assistant");
    expect(result.reward).toBe(want[policy].reward);
    // The corrected golden files: what Gym's request model refuses (422) has no reward, under the policies
    // whose request model refuses it (a missing call_id under both, a malformed map under contract only).
    const refuses =
      want.gym_refuses !== undefined || (policy === "contract" && want.gym_refuses_contract !== undefined);
    expect(result.reward === null).toBe(refuses);
    if (refuses) expect(result.unverified?.code).toBe("gym_refuses");
    else expect(result.error).toBeUndefined();
    expect(
      result.resolution.calls.map((c) => ({ status: c.status, verifier_name: c.verifier_name })),
    ).toEqual(want[policy].calls.map(({ status, verifier_name }) => ({ status, verifier_name })));
    // The golden files compute only these two flags; the registry's tool list enables unknown_tool.
    const computed = new Set(["server_near_miss", "unknown_tool"]);
    expect(
      result.resolution.calls.map((c) => c.flags.map((f) => f.name).filter((f) => computed.has(f))),
    ).toEqual(want[policy].calls.map((c) => c.flags));
    if (result.reward === 0 || result.reward === null) expect(result.explanation.length).toBeGreaterThan(0);
  });

  it("cannot score a no-echo rollout without its input row", () => {
    const result = verify(noEcho[0], { server: "workplace_assistant" });
    expect(result.reward).toBeNull();
    expect(result.unverified?.code).toBe("missing_field");
    expect(result.error).toContain("ground_truth");
    expect(result.error).toContain("open the materialized inputs file");
  });
});

describe("verifyRollout pipeline", () => {
  const rollout = ipiRollouts[1]!; // Claude Code aliases, one call attributed to another server.

  it("never mutates its (deep-frozen) inputs and returns the same result twice", () => {
    const before = JSON.stringify(rollout);
    const first = verify(rollout, { server: IPI, policy: "contract" });
    const second = verify(rollout, { server: IPI, policy: "contract" });
    expect(JSON.stringify(rollout)).toBe(before);
    expect(second).toEqual(first);
  });

  it("gives reward null and an error for a server without a verifier, or no server at all", () => {
    const none = verify(rollout, { server: "nowhere" });
    expect(none.reward).toBeNull();
    expect(none.unverified?.code).toBe("no_verifier");
    expect(none.error).toContain("no port of nowhere's verifier");
    expect(none.resolution.server).toBe("nowhere");

    const unnamed = verify(rollout);
    expect(unnamed.reward).toBeNull();
    expect(unnamed.server).toBeNull();
    expect(unnamed.server_source).toBe("none");
    expect(unnamed.unverified?.code).toBe("no_server");
    expect(unnamed.error).toContain("Choose the verifying server");
    // Most of Gym's servers have no port here: the sentence says what to do for those too.
    expect(unnamed.error?.endsWith(NO_PORT_NEXT)).toBe(true);

    // A lone file's agent: the folder Gym wrote routes it (its configs), so the next step says to open it;
    // with a folder's configs already open, that advice would be a loop.
    const agent = { ...rollout, agent_ref: { name: "gsm8k_aviary_agent" } };
    expect(verify(agent).error).toContain(
      "Choose the verifying server (one of indirect_prompt_injection and crm_mirror), or open the folder Gym wrote for this run (its configs say which server agent gsm8k_aviary_agent calls).",
    );
    const bare = asRollout({ responses_create_params: { input: [] }, response: { output: [] }, reward: 0 });
    expect(verify(bare).error).toContain(
      "Choose the verifying server, or open the materialized inputs file the run was made from.",
    );
    expect(verify(asRollout({ ...bare, agent_ref: { name: "gsm8k_aviary_agent" } })).error).toContain(
      "Choose the verifying server, or open the folder Gym wrote for this run (its configs say which server agent gsm8k_aviary_agent calls), or open the materialized inputs file the run was made from.",
    );
    const routedNowhere = verify(agent, {
      config: { route: () => ({ server: null, reason: "No config routes the agent." }) },
    });
    expect(routedNowhere.unverified?.code).toBe("no_server");
    expect(routedNowhere.error).not.toContain("open the folder");

    // A value that is not a rollout never reaches verifyRollout: the edge reads it as a line error.
    for (const junk of [null, 42, "x", [1]]) {
      expect(readRollout(junk)).toMatchObject({ ok: false, kind: "not_an_object" });
    }
  });

  it("turns a verifier that throws into an error result", () => {
    const throwing: Verifier = {
      server: IPI,
      verify() {
        throw new Error("boom");
      },
    };
    const result = verify(rollout, { server: IPI, registry: createRegistry([throwing]) });
    expect(result.reward).toBeNull();
    expect(result.error).toContain("boom");
  });

  it("lets the verifier see verifier names while the result keeps the emitted names", () => {
    const Seen = z.looseObject({
      response: z.looseObject({ output: z.array(z.looseObject({ name: z.string().optional() })) }),
    });
    const seen: string[][] = [];
    const echo: Verifier = {
      server: IPI,
      verify(request) {
        const names = Seen.parse(request).response.output.flatMap((item) =>
          item.name === undefined ? [] : [item.name],
        );
        seen.push(names);
        return { reward: 1, explanation: ["echo"] };
      },
    };
    const result = verify(rollout, {
      server: IPI,
      policy: "contract",
      registry: createRegistry([echo]),
    });
    const want = ipiExpected[1]!.contract.calls.map((c) => c.verifier_name);
    expect(seen).toEqual([want]);
    const emitted = result.resolution.calls.map((c) => c.emitted);
    expect(emitted).not.toEqual(want);
    expect(result.resolution.calls.map((c) => c.verifier_name)).toEqual(want);
    // The rollout itself still carries the emitted names: canonicalization worked on a copy.
    expect(
      asRollout(rollout).response.output.flatMap((i) => (i.type === "function_call" ? [i.name] : [])),
    ).toEqual(emitted);
  });

  it("reports a refused request as reward null with the verifier's reason", () => {
    const Obj = z.looseObject({});
    const stripped = { ...Obj.parse(rollout), injection: undefined };
    const result = verify(stripped, { server: IPI });
    expect(result.reward).toBeNull();
    expect(result.error).toContain("injection");
  });

  it("what Gym's request model refuses is unverified (gym_refuses), under the policy whose model refuses it", () => {
    const Obj = z.looseObject({});
    const invalidMap = { ...Obj.parse(rollout), mcp_tool_call_provenance: ["not", "an", "object"] };
    const result = verify(invalidMap, { server: IPI, policy: "contract" });
    expect(result.gym_would_reject?.length).toBeGreaterThan(0);
    expect(result.reward).toBeNull();
    expect(result.unverified?.code).toBe("gym_refuses");
    expect(result.unverified?.message).toContain("not an object");
    // Gym before provenance never reads the map.
    expect(verify(invalidMap, { server: IPI, policy: "legacy" }).reward).not.toBeNull();
    expect(verify(rollout, { server: IPI }).gym_would_reject).toBeUndefined();
  });

  it("reads the task from the paired input row and only response + provenance from the rollout", () => {
    const Obj = z.looseObject({});
    const full = Obj.parse(rollout);
    const { injection, required_tools, ...bare } = full;
    const input = {
      _ng_task_index: full._ng_task_index,
      _ng_rollout_index: full._ng_rollout_index,
      responses_create_params: full.responses_create_params,
      injection,
      required_tools,
    };
    const withInput = verify(deepFreeze(bare), {
      server: IPI,
      input: deepFreeze(input),
      policy: "contract",
    });
    const echoed = verify(rollout, { server: IPI, policy: "contract" });
    expect(withInput.reward).toBe(echoed.reward);
    expect(withInput.components).toEqual(echoed.components);
    // The input row wins over stale echoed fields on the rollout.
    const stale = { ...full, required_tools: ["never_called"] };
    expect(verify(stale, { server: IPI, input, policy: "contract" }).components).toEqual(echoed.components);
    expect(verify(stale, { server: IPI, policy: "contract" }).components?.reward_utility).toBe(0);
  });

  it("chooses the server: explicit, else the rollout's environment_name, else the input's", () => {
    expect(serverOf({ environment_name: "a" }, { server: "b" })).toBe("b");
    expect(serverOf({ environment_name: "a" }, { input: { environment_name: "c" } })).toBe("a");
    expect(serverOf({}, { input: { environment_name: "c" } })).toBe("c");
    expect(serverOf({}, { server: "" })).toBeNull();
  });
});

describe("verifyBothPolicies", () => {
  const rollout = asRollout(jsonl(`${WA}wa_rollouts.jsonl`)[0]);

  it("is verifyRollout under each policy with the same options", () => {
    const options = { harness: "claude-code" } as const;
    const both = verifyBothPolicies(rollout, options);
    expect(both.contract).toEqual(verifyRollout(rollout, { ...options, policy: "contract" }));
    expect(both.legacy).toEqual(verifyRollout(rollout, { ...options, policy: "legacy" }));
  });

  it("keeps a result the caller already has and computes only the other", () => {
    const given = verifyRollout(rollout, { policy: "legacy" });
    const both = verifyBothPolicies(rollout, {}, { legacy: given });
    expect(both.legacy).toBe(given);
    expect(both.contract.policy).toBe("contract");
  });
});

describe("verifyRollout on arbitrary input", () => {
  const servers = [...verifierServers(), "no_such_server"];
  const Obj = z.looseObject({});
  const ipiTask = Obj.parse(ipiRollouts[0]);

  it("never throws, never mutates, and gives a reward exactly when there is no error", () => {
    fc.assert(
      fc.property(
        rolloutCaseArb,
        fc.constantFrom(...servers),
        fc.constantFrom("contract", "legacy" as const),
        fc.boolean(),
        ({ rollout }, server, policy, withTask) => {
          const value = deepFreeze(
            withTask
              ? { ...rollout, injection: ipiTask.injection, required_tools: ipiTask.required_tools }
              : rollout,
          );
          const before = JSON.stringify(value);
          const result = verify(value, { server, policy });
          expect(JSON.stringify(value)).toBe(before);
          expect(result.reward === null).toBe(result.error !== undefined);
          expect(result.resolution.server).toBe(server);
        },
      ),
    );
  });

  it("any JSON value is a line error with a kind, or a rollout that verifies with any input row", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.option(fc.jsonValue(), { nil: undefined }),
        fc.constantFrom(...servers),
        (value, input, server) => {
          const read = readRollout(deepFreeze(value));
          if (!read.ok) {
            expect(["not_an_object", "not_a_rollout"]).toContain(read.kind);
            expect(read.message).toMatch(/^not a rollout: /);
            return;
          }
          const result = verifyRollout(read.rollout, { server, input: deepFreeze(input) });
          expect(result.reward === null).toBe(result.error !== undefined);
        },
      ),
    );
  });
});

describe("pairing", () => {
  it("keys rows by (_ng_task_index, _ng_rollout_index)", () => {
    expect(pairingKey({ _ng_task_index: 3, _ng_rollout_index: 0 })).toBe("3:0");
    expect(pairingKey({ _ng_task_index: 3 })).toBeNull();
    expect(pairingKey({ _ng_task_index: "3", _ng_rollout_index: 0 })).toBeNull();
    expect(pairingKey(null)).toBeNull();
  });

  it("maps rows by key, the last duplicate winning, and skips unkeyed rows", () => {
    const map = pairInputs([
      { _ng_task_index: 0, _ng_rollout_index: 1, v: "a" },
      { v: "unkeyed" },
      { _ng_task_index: 0, _ng_rollout_index: 1, v: "b" },
    ]);
    expect([...map.keys()]).toEqual(["0:1"]);
    expect(map.get("0:1")).toEqual({ _ng_task_index: 0, _ng_rollout_index: 1, v: "b" });
  });
});

describe("registry", () => {
  it("registers the portable verifiers by server name", () => {
    for (const server of [
      IPI,
      "math_advanced_calculations",
      "example_tool_call_multireward",
      "workplace_assistant",
    ]) {
      expect(getVerifier(server)?.server).toBe(server);
      expect(verifierServers()).toContain(server);
    }
    expect(getVerifier("nowhere")).toBeUndefined();
    expect(knownTools("math_advanced_calculations")).toContain("sin");
    expect(knownTools("workplace_assistant")).toContain("email_reply_email");
    expect(knownTools("nowhere")).toBeUndefined();
    expect(defaultRegistry.size).toBe(verifierServers().length);
  });
});
