/**
 * example_mcp_weather: Gym's MCP example (commit 07d6b0d0). Its reward is stateful: `/get_weather` records
 * each city in the rollout's session, and `/verify` rewards the rollout only if a call for the expected
 * city was recorded in that session AND the final assistant text contains the weather sentence.
 *
 * The session is gone once a run ends (Gym's own reverify loses it too and scores 0), so this port rebuilds
 * it by replay: every function_call of the request whose verifier name is `get_weather`, with arguments
 * Gym's GetWeatherRequest accepts (`{"city": <str>}`), is one recorded call. Replaying verifier names means
 * the policy decides, as it does for every other server: an alias nothing canonicalizes (a Hermes name
 * without provenance) never reaches `get_weather`, so its call is lost, which is the identity bug itself.
 *
 * - expected_city: `verifier_metadata.expected_city`, default "Paris" (a request without verifier_metadata
 *   is scored with that default).
 * - tool_call_seen: some replayed city equals expected_city, compared with str.casefold().
 * - final_response_mentions_weather: the expected sentence, casefolded, is in the casefolded text of the
 *   assistant messages (their text parts joined by "\n", stripped).
 * - reward = 1 iff both.
 */
import { z } from "zod";
import { pyDictGet, pyJsonLoads, pyStrip } from "../python";
import { narrow, RequestResponseSchema, refused, requestCalls } from "../request";
import type { Verifier, VerifierOutput, VerifyRequest } from "../types";

export const WEATHER_SERVER = "example_mcp_weather";
export const WEATHER_TOOL = "get_weather";
/** Gym's default when the task names no city. */
export const DEFAULT_CITY = "Paris";

/** The deterministic answer of Gym's get_weather. */
export function weatherSentence(city: string): string {
  return `The weather in ${city} is sunny and 72 F.`;
}

/**
 * Python's str.casefold() for the text this server compares: full lowercase plus the folds toLowerCase
 * lacks (ß -> ss and other expansions via the uppercase round trip, final sigma -> σ).
 */
export function casefold(text: string): string {
  return text.toUpperCase().toLowerCase().replace(/ς/g, "σ");
}

const RequestSchema = z.looseObject({
  response: RequestResponseSchema,
  verifier_metadata: z.record(z.string(), z.unknown()).nullish(),
});

const AssistantMessage = z.looseObject({
  type: z.literal("message"),
  role: z.literal("assistant"),
  content: z.unknown(),
});
const TextPart = z.looseObject({ text: z.string() });

/** The assistant's text as Gym's _extract_assistant_text reads it. */
export function assistantText(output: readonly unknown[]): string {
  const texts: string[] = [];
  for (const item of output) {
    const message = AssistantMessage.safeParse(item);
    if (!message.success) continue;
    const content = message.data.content;
    if (typeof content === "string") texts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        const text = TextPart.safeParse(part);
        if (text.success) texts.push(text.data.text);
      }
    }
  }
  return pyStrip(texts.join("\n"));
}

export interface WeatherCall {
  /** 0-based position among the request's function_calls. */
  readonly index: number;
  readonly city: string;
}

export interface WeatherDetails {
  /** The tag of lib/verify VerifierDetails. */
  readonly kind: typeof WEATHER_SERVER;
  readonly expected_city: string;
  readonly expected_weather: string;
  /** The calls the replay recorded in the session, in order. */
  readonly replayed: readonly WeatherCall[];
  /** get_weather calls Gym's route would refuse (arguments not {"city": <str>}): nothing recorded. */
  readonly refused_calls: readonly number[];
  readonly tool_call_seen: boolean;
  readonly final_response_mentions_weather: boolean;
}

/** The city of a get_weather call Gym's GetWeatherRequest accepts, or null (the route answers 422). */
function cityOf(argumentsText: string): string | null {
  const parsed = pyJsonLoads(argumentsText);
  if (!parsed.ok || parsed.value.kind !== "dict") return null;
  const city = pyDictGet(parsed.value, "city");
  return city?.kind === "str" ? city.value : null;
}

function verify(request: VerifyRequest): VerifierOutput {
  const narrowed = narrow(RequestSchema, request);
  if (!narrowed.ok) return refused(WEATHER_SERVER, narrowed.error);
  const metadata = narrowed.value.verifier_metadata ?? {};
  const expected = Object.hasOwn(metadata, "expected_city") ? metadata.expected_city : DEFAULT_CITY;
  // Gym calls expected_city.casefold(): anything but a string fails with HTTP 500.
  if (typeof expected !== "string") {
    return refused(WEATHER_SERVER, "verifier_metadata.expected_city is not a string");
  }
  const calls = requestCalls(narrowed.value.response.output);
  if (!calls.ok) return refused(WEATHER_SERVER, calls.error);

  const replayed: WeatherCall[] = [];
  const refusedCalls: number[] = [];
  for (const call of calls.value) {
    if (call.name !== WEATHER_TOOL) continue;
    const city = cityOf(call.arguments);
    if (city === null) refusedCalls.push(call.index);
    else replayed.push({ index: call.index, city });
  }
  const expectedWeather = weatherSentence(expected);
  const wanted = casefold(expected);
  const toolCallSeen = replayed.some((c) => casefold(c.city) === wanted);
  const text = assistantText(narrowed.value.response.output);
  const mentions = casefold(text).includes(casefold(expectedWeather));
  const reward = toolCallSeen && mentions ? 1 : 0;

  const explanation: string[] = [];
  if (!toolCallSeen) {
    const others = calls.value.filter((c) => c.name !== WEATHER_TOOL).map((c) => c.name);
    explanation.push(
      replayed.length > 0
        ? `No ${WEATHER_TOOL} call asked for ${expected}; the session recorded ${replayed.map((c) => JSON.stringify(c.city)).join(", ")}.`
        : `No call reached ${WEATHER_TOOL}, so the session recorded nothing` +
            (others.length > 0
              ? ` (the verifier saw ${others.map((n) => JSON.stringify(n)).join(", ")}: an alias that was not canonicalized never reaches the tool).`
              : "."),
    );
  }
  if (!mentions) {
    explanation.push(`The final answer does not contain ${JSON.stringify(expectedWeather)}.`);
  }
  if (explanation.length === 0) {
    explanation.push(
      `${WEATHER_TOOL} was called for ${expected} and the final answer repeats ${JSON.stringify(expectedWeather)}.`,
    );
  }
  const details: WeatherDetails = {
    kind: WEATHER_SERVER,
    expected_city: expected,
    expected_weather: expectedWeather,
    replayed,
    refused_calls: refusedCalls,
    tool_call_seen: toolCallSeen,
    final_response_mentions_weather: mentions,
  };
  return {
    reward,
    components: { tool_call_seen: toolCallSeen ? 1 : 0, final_response_mentions_weather: mentions ? 1 : 0 },
    explanation,
    details,
  };
}

export const exampleMcpWeatherVerifier: Verifier = { server: WEATHER_SERVER, tools: [WEATHER_TOOL], verify };
