/**
 * The verifiers this project bundles, one folder each (a port of its Gym resources server's verify), and
 * the contract they implement. lib/verify's default registry holds exactly these; a new verifier is a
 * folder here, listed below, with its details' shape in ./details.ts.
 */
import { exampleMcpWeatherVerifier } from "./example_mcp_weather";
import { exampleMultiStepVerifier } from "./example_multi_step";
import { exampleToolCallMultirewardVerifier } from "./example_tool_call_multireward";
import { indirectPromptInjectionVerifier } from "./indirect_prompt_injection";
import { mathAdvancedCalculationsVerifier } from "./math_advanced_calculations";
import type { Verifier } from "./types";
import { workplaceAssistantVerifier } from "./workplace_assistant";

export type { VerifierDetails, VerifierDetailsKind } from "./details";
export type { Verifier, VerifierOutput, VerifyRequest } from "./types";

export const BUNDLED_VERIFIERS: readonly Verifier[] = [
  workplaceAssistantVerifier,
  indirectPromptInjectionVerifier,
  mathAdvancedCalculationsVerifier,
  exampleToolCallMultirewardVerifier,
  exampleMcpWeatherVerifier,
  exampleMultiStepVerifier,
];
