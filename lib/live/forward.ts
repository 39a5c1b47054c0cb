/**
 * Browser access to a Gym server. Gym servers send no CORS headers and the page's CSP allows only
 * same-origin connections, so the browser talks to one route of the app (FORWARD_PATH), which forwards to
 * the server. The route is never an open proxy: it forwards only to loopback hosts unless an operator
 * widens the allow-list (environment variable FORWARD_ALLOW_ENV), only GET/POST/DELETE, only the headers
 * the two doors need, follows no redirect, caps both bodies and times out. Pure Web APIs, so the same code
 * runs in the Next route handler and in unit tests.
 */
import { LiveError } from "./errors";
import { type FetchLike, FORWARDED_COOKIE, FORWARDED_SET_COOKIE } from "./fetch";

export const FORWARD_PATH = "/api/live/forward";
export const TARGET_HEADER = "x-live-target";
/** Set on answers the forwarding route made itself (not the server's): its value is a LiveErrorKind. */
export const FORWARD_ERROR_HEADER = "x-live-forward-error";
/** Comma-separated extra hosts (`host` or `host:port`) the route may forward to. */
export const FORWARD_ALLOW_ENV = "LIVE_FORWARD_ALLOW";

/** A rollout POSTed to /verify is well under this; Gym's own rollouts rarely pass 1 MB. */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** The largest answer passed back: the OpenAPI document of a Gym server is ~180 KB. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** The route's own deadline; the client's per-request deadline is usually shorter. */
export const FORWARD_TIMEOUT_MS = 60_000;

const METHODS: ReadonlySet<string> = new Set(["GET", "POST", "DELETE"]);
/** Request headers the doors need; everything else (Origin, Authorization, the app's cookies) stays behind. */
const REQUEST_HEADERS = [
  "accept",
  "content-type",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
  "x-nemo-gym-session-token",
] as const;
const RESPONSE_HEADERS = ["content-type", "mcp-session-id", "mcp-protocol-version"] as const;

export interface ForwardConfig {
  /** Extra allowed hosts, lower case: `host` (any port) or `host:port`. */
  readonly allow: readonly string[];
  readonly timeoutMs?: number;
  readonly fetch?: FetchLike;
}

export function parseAllowList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
}

/** Loopback by name or address: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return (v4?.slice(1) ?? ["256"]).every((n) => Number(n) <= 255);
}

export function checkForwardTarget(
  target: string | null,
  allow: readonly string[],
): { ok: true; url: URL } | { ok: false; reason: string } {
  if (target === null || target === "") return { ok: false, reason: `no ${TARGET_HEADER} header` };
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { ok: false, reason: "the target is not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, reason: `only http and https targets, not ${url.protocol}` };
  if (url.username !== "" || url.password !== "")
    return { ok: false, reason: "the target carries credentials" };
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const allowed = isLoopbackHost(host) || allow.includes(host) || allow.includes(`${host}:${port}`);
  if (!allowed) {
    return {
      ok: false,
      reason: `${url.host} is not a loopback address; set ${FORWARD_ALLOW_ENV} to allow other hosts`,
    };
  }
  return { ok: true, url };
}

function refusal(status: number, kind: string, message: string): Response {
  return new Response(JSON.stringify({ kind, message }), {
    status,
    headers: { "content-type": "application/json", [FORWARD_ERROR_HEADER]: kind },
  });
}

async function readCapped(request: Request): Promise<Uint8Array<ArrayBuffer> | "too_large"> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REQUEST_BYTES) {
      await reader.cancel();
      return "too_large";
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function capStream(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limit) controller.error(new Error(`the answer is larger than ${limit} bytes`));
      else controller.enqueue(chunk);
    },
  });
}

/** The forwarding route: one request in, one answer out. */
export async function forwardRequest(request: Request, config: ForwardConfig): Promise<Response> {
  // Only this app's own pages may use the route; a browser marks every cross-site request.
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none")
    return refusal(403, "transport_error", `refused: a ${site} request`);
  const checked = checkForwardTarget(request.headers.get(TARGET_HEADER), config.allow);
  if (!checked.ok) return refusal(403, "transport_error", `refused: ${checked.reason}`);
  if (!METHODS.has(request.method))
    return refusal(405, "transport_error", `refused: method ${request.method}`);
  const body = request.method === "POST" ? await readCapped(request) : null;
  if (body === "too_large")
    return refusal(
      413,
      "transport_error",
      `refused: the request body is larger than ${MAX_REQUEST_BYTES} bytes`,
    );

  const headers = new Headers();
  for (const name of REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const cookie = request.headers.get(FORWARDED_COOKIE);
  if (cookie !== null) headers.set("cookie", cookie);

  const timeoutMs = config.timeoutMs ?? FORWARD_TIMEOUT_MS;
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), request.signal]);
  let upstream: Response;
  try {
    upstream = await (config.fetch ?? fetch)(checked.url, {
      method: request.method,
      headers,
      ...(body === null ? {} : { body }),
      redirect: "manual",
      signal,
    });
  } catch (error) {
    if (signal.aborted && !request.signal.aborted)
      return refusal(504, "timeout", `no answer from ${checked.url.host} within ${timeoutMs} ms`);
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    const message = error instanceof Error ? error.message : String(error);
    return refusal(502, "transport_error", `cannot reach ${checked.url.host}: ${message}${cause}`);
  }
  if (upstream.status >= 300 && upstream.status < 400) {
    await upstream.body?.cancel();
    const location = upstream.headers.get("location") ?? "(none)";
    return refusal(
      502,
      "transport_error",
      `refused: the server redirected (${upstream.status}) to ${location}; redirects are not followed`,
    );
  }
  const out = new Headers();
  for (const name of RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  const setCookies = upstream.headers.getSetCookie();
  if (setCookies.length > 0) out.set(FORWARDED_SET_COOKIE, JSON.stringify(setCookies));
  const declared = Number(upstream.headers.get("content-length") ?? "0");
  if (declared > MAX_RESPONSE_BYTES) {
    await upstream.body?.cancel();
    return refusal(502, "transport_error", `refused: the answer is larger than ${MAX_RESPONSE_BYTES} bytes`);
  }
  const stream = upstream.body === null ? null : upstream.body.pipeThrough(capStream(MAX_RESPONSE_BYTES));
  return new Response(stream, { status: upstream.status, headers: out });
}

/**
 * The browser side: a fetch that sends every request through the forwarding route, carrying the target in
 * a header and the session cookie in FORWARDED_COOKIE; the route's own refusals become LiveErrors.
 */
export function forwardingFetch(
  endpoint: string = FORWARD_PATH,
  base: FetchLike = (u, i) => fetch(u, i),
): FetchLike {
  return async (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set(TARGET_HEADER, String(input));
    const cookie = headers.get("cookie");
    if (cookie !== null) {
      headers.delete("cookie");
      headers.set(FORWARDED_COOKIE, cookie);
    }
    const response = await base(endpoint, { ...init, headers, redirect: "error" });
    const kind = response.headers.get(FORWARD_ERROR_HEADER);
    if (kind !== null) {
      const text = await response.text();
      let message = text;
      try {
        const parsed: unknown = JSON.parse(text);
        if (
          parsed !== null &&
          typeof parsed === "object" &&
          "message" in parsed &&
          typeof parsed.message === "string"
        )
          message = parsed.message;
      } catch {
        // not JSON: show the text as it is
      }
      // No status: this answer is the route's own, not the server's (see noAnswer in errors.ts).
      throw new LiveError(kind === "timeout" ? "timeout" : "transport_error", message);
    }
    return response;
  };
}
