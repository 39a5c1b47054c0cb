export { formatIssues } from "./issues";
export {
  AnyOutputItemSchema,
  type FunctionCall,
  type FunctionCallOutput,
  FunctionCallOutputSchema,
  FunctionCallSchema,
  type Message,
  MessageSchema,
  OutputItemSchema,
  type ParsedOutputItem,
  parseOutputItem,
  type Reasoning,
  ReasoningSchema,
} from "./output-items";
export {
  PROVENANCE_KEY,
  type ProvenanceEntry,
  ProvenanceEntrySchema,
  ProvenanceMapSchema,
  provenanceMapOf,
  StrictProvenanceMapSchema,
} from "./provenance";
export {
  functionCallCount,
  functionCalls,
  type IndexedFunctionCall,
  isJsonObject,
  NOT_A_ROLLOUT_OBJECT,
  type ReadRolloutResult,
  ResponseSchema,
  type Rollout,
  type RolloutError,
  RolloutSchema,
  readRollout,
  rolloutOrThrow,
} from "./rollout";
