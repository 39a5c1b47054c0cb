/**
 * Gym's own tests for example_mcp_weather (resources_servers/example_mcp_weather/tests/test_app.py, commit
 * 07d6b0d0) as vectors: a session there is the transcript here, so "a get_weather call in the same session"
 * is a get_weather call in the rollout's response.output, replayed by verifier name.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { narrowing } from "../../schemas/test-helpers";
import { verifyRollout as verifyRolloutTyped } from "../../verify";
import { assistantText, casefold, exampleMcpWeatherVerifier, WEATHER_SERVER } from "./index";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const verifyRollout = narrowing(verifyRolloutTyped);

const DATA = new URL(
  "../../../fixtures/nemo-gym/resources_servers/example_mcp_weather/data/",
  import.meta.url,
);

function jsonl(name: string): unknown[] {
  return readFileSync(new URL(name, DATA), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line): unknown => JSON.parse(line));
}

const message = (text: string) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});
const weatherCall = (city: string, name = "get_weather", id = "call_1") => ({
  type: "function_call",
  call_id: id,
  name,
  arguments: JSON.stringify({ city }),
});

/** Gym's _verify_request(expected_city, final_text), with the session's calls in front of the answer. */
function request(expectedCity: string | undefined, finalText: string, calls: unknown[] = []) {
  return {
    responses_create_params: { input: [{ role: "user", content: "use the weather tool" }] },
    response: { id: "resp_1", output: [...calls, message(finalText)], tools: [] },
    ...(expectedCity === undefined ? {} : { verifier_metadata: { expected_city: expectedCity } }),
  };
}

const Components = z.object({ tool_call_seen: z.number(), final_response_mentions_weather: z.number() });

describe("example_mcp_weather: Gym's test_app.py vectors", () => {
  it("test_verify_rewards_tool_call_from_same_session", () => {
    const out = exampleMcpWeatherVerifier.verify(
      request("Paris", "The weather in Paris is sunny and 72 F.", [weatherCall("Paris")]),
    );
    expect(out.reward).toBe(1);
    expect(Components.parse(out.components)).toEqual({
      tool_call_seen: 1,
      final_response_mentions_weather: 1,
    });
  });

  it("test_verify_accepts_differently_cased_city", () => {
    const out = exampleMcpWeatherVerifier.verify(
      request("Paris", "The weather in PARIS is sunny and 72 F.", [weatherCall("PARIS")]),
    );
    expect(out.reward).toBe(1);
    expect(Components.parse(out.components).tool_call_seen).toBe(1);
  });

  it("test_verify_rejects_tool_call_from_different_session: no call in this transcript scores 0", () => {
    const out = exampleMcpWeatherVerifier.verify(request("Paris", "The weather in Paris is sunny and 72 F."));
    expect(out.reward).toBe(0);
    expect(Components.parse(out.components).tool_call_seen).toBe(0);
    expect(out.explanation.join(" ")).toContain("No call reached get_weather");
  });

  it("a call for another city, or an answer without the sentence, scores 0", () => {
    expect(
      exampleMcpWeatherVerifier.verify(
        request("Paris", "The weather in Paris is sunny and 72 F.", [weatherCall("Rome")]),
      ).reward,
    ).toBe(0);
    const noText = exampleMcpWeatherVerifier.verify(request("Paris", "It is sunny.", [weatherCall("Paris")]));
    expect(noText.reward).toBe(0);
    expect(Components.parse(noText.components)).toEqual({
      tool_call_seen: 1,
      final_response_mentions_weather: 0,
    });
  });

  it("without verifier_metadata the expected city is Gym's default, Paris", () => {
    expect(
      exampleMcpWeatherVerifier.verify(
        request(undefined, "The weather in Paris is sunny and 72 F.", [weatherCall("paris")]),
      ).reward,
    ).toBe(1);
  });

  it("refuses what Gym's server fails on, and skips calls its route refuses", () => {
    const bad = { ...request("Paris", "x"), verifier_metadata: { expected_city: 3 } };
    expect(exampleMcpWeatherVerifier.verify(bad).error).toContain("expected_city");
    expect(
      exampleMcpWeatherVerifier.verify({ ...request("Paris", "x"), verifier_metadata: [1] }).error,
    ).toBeDefined();
    const numeric = { type: "function_call", call_id: "c", name: "get_weather", arguments: '{"city": 5}' };
    expect(
      exampleMcpWeatherVerifier.verify(request("Paris", "The weather in Paris is sunny and 72 F.", [numeric]))
        .reward,
    ).toBe(0);
  });

  it("reads the assistant text as Gym does: assistant messages only, parts joined by newlines", () => {
    expect(
      assistantText([
        { type: "message", role: "user", content: "no" },
        {
          type: "message",
          role: "assistant",
          content: [{ text: " a" }, { type: "refusal" }, { text: "b " }],
        },
        { type: "message", role: "assistant", content: "c" },
      ]),
    ).toBe("a\nb \nc");
    expect(casefold("Straße ΣΑΣ")).toBe("strasse σασ");
  });
});

describe("example_mcp_weather through the pipeline (replay under each policy)", () => {
  const answer = "The weather in Paris is sunny and 72 F.";
  const mk = (name: string, provenance: boolean) => ({
    ...request("Paris", answer, [weatherCall("Paris", name, "c1")]),
    ...(provenance
      ? { mcp_tool_call_provenance: { c1: { server_name: WEATHER_SERVER, tool_name: "get_weather" } } }
      : {}),
  });

  it.each([
    ["get_weather", false, 1, 1],
    ["mcp__example_mcp_weather__get_weather", false, 1, 1], // Gym's legacy prefix strip
    ["mcp_example_mcp_weather_get_weather", false, 0, 0], // Hermes without provenance: the call is lost
    ["mcp_example_mcp_weather_get_weather", true, 1, 0], // with provenance the contract recovers it
  ] as const)("%s (provenance %s): contract %d, legacy %d", (name, provenance, contract, legacy) => {
    const rollout = mk(name, provenance);
    expect(verifyRollout(rollout, { server: WEATHER_SERVER, policy: "contract" }).reward).toBe(contract);
    expect(verifyRollout(rollout, { server: WEATHER_SERVER, policy: "legacy" }).reward).toBe(legacy);
  });

  it("Gym's own example rollouts reproduce their recorded rewards, with and without example.jsonl", () => {
    const rollouts = jsonl("example_rollouts.jsonl");
    const tasks = jsonl("example.jsonl");
    expect(rollouts).toHaveLength(5);
    rollouts.forEach((rollout, i) => {
      const recorded = z.looseObject({ reward: z.number() }).parse(rollout).reward;
      const alone = verifyRollout(rollout, { server: WEATHER_SERVER });
      expect(alone.reward).toBe(recorded);
      expect(verifyRollout(rollout, { server: WEATHER_SERVER, input: tasks[i] }).reward).toBe(recorded);
    });
  });
});
