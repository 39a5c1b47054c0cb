export { type ConnectReport, connectAndCheck, type Step } from "./connect";
export {
  describeError,
  ERROR_KIND_LABEL,
  LiveError,
  type LiveErrorKind,
  type LiveFailure,
  noAnswer,
} from "./errors";
export { DEFAULT_TIMEOUT_MS, type FetchLike, normalizeServerUrl } from "./fetch";
export { FORWARD_PATH, forwardingFetch, REGISTER_PATH } from "./forward";
export { type HttpAnswer, HttpDoor, type McpMetadata, SESSION_TOKEN_HEADER } from "./http";
export { type McpAnswer, McpDoor, type McpToolInfo } from "./mcp";
export { compareParity, type ParityReport, type ParityRow, RESERVED_TOOL_NAMES } from "./parity";
export {
  type CallVerdict,
  type LineOptions,
  type LiveTarget,
  type ReplayedCall,
  type RolloutReplay,
  replayRollout,
  type ServerVerify,
  verifyOnServer,
} from "./replay";
export { startServerHint } from "./start";
export {
  addToTally,
  CALL_VERDICTS,
  checkRollout,
  emptyTally,
  type PolicyTally,
  type RolloutCheck,
  serverStoppedAnswering,
  tallyClean,
} from "./summary";
export { decodeSessionToken, type TokenClaims } from "./token";
