/**
 * How a live call can fail, sorted the way a researcher acts on it:
 * - tool_error: the tool ran and answered with an error (MCP isError, or an HTTP 4xx/5xx answer from the route);
 * - protocol_error: the server answered, but not with what the protocol promises (JSON-RPC error, bad JSON, wrong shape);
 * - transport_error: no usable answer (connection refused or reset, session dropped, proxy refusal, redirect);
 * - timeout: the request's deadline passed.
 */
export type LiveErrorKind = "tool_error" | "protocol_error" | "transport_error" | "timeout";

export class LiveError extends Error {
  readonly kind: LiveErrorKind;
  /** HTTP status when one was received. */
  readonly status: number | undefined;

  constructor(kind: LiveErrorKind, message: string, status?: number) {
    super(message);
    this.name = "LiveError";
    this.kind = kind;
    this.status = status;
  }
}

export const ERROR_KIND_LABEL: Readonly<Record<LiveErrorKind, string>> = {
  tool_error: "tool error",
  protocol_error: "protocol error",
  transport_error: "transport error",
  timeout: "timeout",
};

/** A plain-text description of any thrown value, for display. */
export function describeError(error: unknown): { kind: LiveErrorKind; message: string } {
  if (error instanceof LiveError) return { kind: error.kind, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "transport_error", message };
}
