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
  /** HTTP status when the server sent one (never the forwarding route's own). */
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

/** A failure as results carry it: its kind, a plain message, and the server's HTTP status when it sent one. */
export interface LiveFailure {
  readonly kind: LiveErrorKind;
  readonly message: string;
  readonly status?: number;
}

/**
 * A failure that is no answer from the server: the connection was refused or broke, the deadline passed, or
 * the forwarding route could not reach it. The server (or the route on its behalf) may be gone or stuck.
 * An HTTP status the server sent (a dropped MCP session's 404, a 500) is an answer.
 */
export function noAnswer(failure: LiveFailure): boolean {
  return failure.kind === "timeout" || (failure.kind === "transport_error" && failure.status === undefined);
}

/** A plain-text description of any thrown value, for display. */
export function describeError(error: unknown): LiveFailure {
  if (error instanceof LiveError)
    return {
      kind: error.kind,
      message: error.message,
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "transport_error", message };
}
