/**
 * Verifiers registered by server name (the resources server's config name, e.g. `workplace_assistant`).
 */
import { exampleMcpWeatherVerifier } from "../verifiers/example_mcp_weather";
import { exampleMultiStepVerifier } from "../verifiers/example_multi_step";
import { exampleToolCallMultirewardVerifier } from "../verifiers/example_tool_call_multireward";
import { indirectPromptInjectionVerifier } from "../verifiers/indirect_prompt_injection";
import { mathAdvancedCalculationsVerifier } from "../verifiers/math_advanced_calculations";
import { workplaceAssistantVerifier } from "../verifiers/workplace_assistant";
import type { Verifier } from "./types";

export { pairingKey } from "./pairing";

export type VerifierRegistry = ReadonlyMap<string, Verifier>;

/** A registry of the given verifiers; a later verifier for the same server replaces an earlier one. */
export function createRegistry(verifiers: Iterable<Verifier>): VerifierRegistry {
  const map = new Map<string, Verifier>();
  for (const verifier of verifiers) map.set(verifier.server, verifier);
  return map;
}

export const defaultRegistry: VerifierRegistry = createRegistry([
  workplaceAssistantVerifier,
  indirectPromptInjectionVerifier,
  mathAdvancedCalculationsVerifier,
  exampleToolCallMultirewardVerifier,
  exampleMcpWeatherVerifier,
  exampleMultiStepVerifier,
]);

export function getVerifier(
  server: string,
  registry: VerifierRegistry = defaultRegistry,
): Verifier | undefined {
  return registry.get(server);
}

/** The server's tool names when its verifier knows them (feeds the unknown_tool and alias_guess flags). */
export function knownTools(
  server: string,
  registry: VerifierRegistry = defaultRegistry,
): readonly string[] | undefined {
  return registry.get(server)?.tools;
}

/** Every server with a verifier. */
export function verifierServers(registry: VerifierRegistry = defaultRegistry): readonly string[] {
  return [...registry.keys()];
}
