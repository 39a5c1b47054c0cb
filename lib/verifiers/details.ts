/**
 * A verifier's structured details, tagged by the server whose verifier produced them, so every front end
 * reads them by their type (table differences, the matched injection, ...) instead of narrowing unknown
 * JSON again. Each verifier declares its own shape next to its code; a new verifier adds its shape here.
 */
import type { WeatherDetails } from "./example_mcp_weather";
import type { MultiStepDetails } from "./example_multi_step";
import type { MultirewardDetails } from "./example_tool_call_multireward";
import type { IpiDetails } from "./indirect_prompt_injection";
import type { MathDetails } from "./math_advanced_calculations";
import type { WorkplaceVerifierDetails } from "./workplace_assistant";

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
