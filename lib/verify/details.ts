/**
 * A verifier's structured details, tagged by the server whose verifier produced them, so every front end
 * reads them by their type (table differences, the matched injection, ...) instead of narrowing unknown
 * JSON again. Each verifier declares its own shape next to its code.
 */
import type { WeatherDetails } from "../verifiers/example_mcp_weather";
import type { MultiStepDetails } from "../verifiers/example_multi_step";
import type { MultirewardDetails } from "../verifiers/example_tool_call_multireward";
import type { IpiDetails } from "../verifiers/indirect_prompt_injection";
import type { MathDetails } from "../verifiers/math_advanced_calculations";
import type { WorkplaceVerifierDetails } from "../verifiers/workplace_assistant";

export type VerifierDetails =
  | WorkplaceVerifierDetails
  | IpiDetails
  | MathDetails
  | MultirewardDetails
  | WeatherDetails
  | MultiStepDetails;

export type VerifierDetailsKind = VerifierDetails["kind"];

export type {
  IpiDetails,
  MathDetails,
  MultirewardDetails,
  MultiStepDetails,
  WeatherDetails,
  WorkplaceVerifierDetails,
};
