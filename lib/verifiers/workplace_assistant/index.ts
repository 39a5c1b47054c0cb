export type { AliasHint } from "./alias";
export type { CellDiff, DisplayCell, RowView, TableDiff, TableName } from "./compare";
export { type IsCorrectResult, isCorrect, isCorrectActions, type WorkplaceDetails } from "./is-correct";
export { type CallOutcomeKind, type CallRecord, SERVER_NAME } from "./replay";
export { type WorkplaceVerifierDetails, workplaceAssistantVerifier } from "./verifier";

import { WORKPLACE_TOOL_NAMES } from "./replay";

/** The 27 workplace_assistant tool names, in Gym's registration order. */
export const WORKPLACE_TOOLS: readonly string[] = WORKPLACE_TOOL_NAMES;
