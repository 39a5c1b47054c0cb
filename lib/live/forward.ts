/**
 * Browser access to a Gym server. Gym servers send no CORS headers and the page's CSP allows only
 * same-origin connections, so the browser talks to one route of the app (FORWARD_PATH), which forwards to
 * the server. The route is never an open proxy:
 *
 * - it answers only requests addressed to the app itself: a Host that is a loopback name or address on the
 *   app's own port (a page on another name that resolves to 127.0.0.1, DNS rebinding, sends its own name),
 *   and an Origin, when there is one, naming that same host;
 * - it forwards only to the server the user entered on /live in this tab: the page first registers that
 *   server (REGISTER_PATH) and gets a token, an HMAC of the server's base URL under a key that never
 *   leaves this process; every forward carries the token and may reach only URLs under that base;
 * - that server must be a loopback host unless an operator widens the allow-list (FORWARD_ALLOW_ENV);
 * - only GET/POST/DELETE, only the headers the two doors need, no redirect followed, both bodies capped, a
 *   deadline.
 *
 * Pure Web APIs (Web Crypto for the HMAC), so the same code runs in the Next route handlers and in unit tests.
 */
import { z } from "zod";
import { startDeadline } from "./deadline";
import { LiveError } from "./errors";
import { type FetchLike, FORWARDED_COOKIE, FORWARDED_SET_COOKIE } from "./fetch";

export const FORWARD_PATH = "/api/live/forward";
/** Where the page registers the server the user entered, for a token (registerTarget). */
export const REGISTER_PATH = "/api/live/register";
export const TARGET_HEADER = "x-live-target";
/** The registered server's base URL and its token, on every forwarded request. */
export const BASE_HEADER = "x-live-base";
export const TOKEN_HEADER = "x-live-token";
/** Set on answers the forwarding route made itself (not the server's): its value is a LiveErrorKind. */
export const FORWARD_ERROR_HEADER = "x-live-forward-error";
/** Comma-separated extra hosts (`host` or `host:port`) the route may forward to. */
export const FORWARD_ALLOW_ENV = "LIVE_FORWARD_ALLOW";

/** Set (to "1") by `cli view` in its process: the app is behind view's Host and token guard. */
export const VIEW_GUARDED_ENV = "ROLLOUT_INSPECTOR_VIEW";

/**
 * The header `view`'s guard sets on a refusal of the token (`token`): a page whose file stops answering with
 * it knows `view` was started again (a new token), not that a path was refused or the server is down.
 */
export const VIEW_REFUSED_HEADER = "x-view-refused";

/** ForwardConfig.appPort when any loopback port is the app's (behind `cli view`). */
export const ANY_APP_PORT = "any";

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
  /**
   * The port the app itself listens on (`next start` sets PORT); a request whose Host names another port
   * was not addressed to this app. null: unknown, and every request is refused. ANY_APP_PORT: the app is
   * served by `cli view`, which admits only a loopback Host with its token (cli/view/guard.ts) on whatever
   * local port an SSH tunnel forwards to it.
   */
  readonly appPort: string | null;
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

/** Why the route refused a request: the answer's `refused` field, so tests and pages need no message match. */
export type ForwardRefusal =
  | "foreign_site"
  | "foreign_host"
  | "foreign_origin"
  | "no_token"
  | "bad_token"
  | "other_target"
  | "not_allowed"
  | "bad_request"
  | "method"
  | "too_large";

type Checked = { ok: true } | { ok: false; refused: ForwardRefusal; reason: string };

/** `host[:port]` as a URL would read it, or null when it is not one. */
function hostUrl(host: string): URL | null {
  try {
    const url = new URL(`http://${host}`);
    return url.host === host.toLowerCase() || url.host === host.toLowerCase().replace(/:80$/, "")
      ? url
      : null;
  } catch {
    return null;
  }
}

/**
 * Whether a request was addressed to this app by one of its own pages: a cross-site fetch (Sec-Fetch-Site),
 * a Host that is not a loopback name on the app's port (DNS rebinding: another name resolving to 127.0.0.1
 * sends that name), or an Origin other than that Host (a page on another origin) is refused.
 */
export function checkAppRequest(headers: Headers, appPort: string | null): Checked {
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none")
    return { ok: false, refused: "foreign_site", reason: `a ${site} request` };
  const host = headers.get("host") ?? "";
  const url = hostUrl(host);
  const port = url === null ? "" : url.port || "80";
  if (
    url === null ||
    !isLoopbackHost(url.hostname) ||
    appPort === null ||
    (appPort !== ANY_APP_PORT && port !== appPort)
  ) {
    return {
      ok: false,
      refused: "foreign_host",
      reason:
        appPort === ANY_APP_PORT
          ? `Host ${JSON.stringify(host)} is not this app (a loopback name): open the URL \`view\` printed`
          : `Host ${JSON.stringify(host)} is not this app (a loopback name on port ${appPort ?? "(unknown)"}); open the app at http://localhost:${appPort ?? "PORT"}`,
    };
  }
  const origin = headers.get("origin");
  if (origin !== null) {
    let same = false;
    try {
      const o = new URL(origin);
      same = (o.protocol === "http:" || o.protocol === "https:") && o.host === url.host;
    } catch {
      same = false;
    }
    if (!same)
      return {
        ok: false,
        refused: "foreign_origin",
        reason: `Origin ${JSON.stringify(origin)} is not this app`,
      };
  }
  return { ok: true };
}

/** The process's HMAC key, shared by the two route handlers (each may be its own module instance). */
const KEY_SLOT = Symbol.for("rollout-inspector.live-forward-key");

function forwardKey(): Promise<CryptoKey> {
  const existing: unknown = Reflect.get(globalThis, KEY_SLOT);
  if (existing instanceof Promise) return existing;
  const created = crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  Reflect.set(globalThis, KEY_SLOT, created);
  return created;
}

const utf8 = new TextEncoder();
const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

function fromHex(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-f]{2})+$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A registered server's base URL: origin and path, no trailing slash. */
function baseOf(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** `nonce.mac`: a fresh nonce per registration (per tab), the MAC binding it to the base URL. */
async function issueToken(base: string): Promise<string> {
  const nonce = hex(crypto.getRandomValues(new Uint8Array(16)).buffer);
  const mac = await crypto.subtle.sign("HMAC", await forwardKey(), utf8.encode(`${nonce}\n${base}`));
  return `${nonce}.${hex(mac)}`;
}

async function tokenBinds(token: string, base: string): Promise<boolean> {
  const [nonce, mac, ...rest] = token.split(".");
  const signature = fromHex(mac ?? "");
  if (nonce === undefined || !/^[0-9a-f]{32}$/.test(nonce) || signature === null || rest.length > 0)
    return false;
  return crypto.subtle.verify("HMAC", await forwardKey(), signature, utf8.encode(`${nonce}\n${base}`));
}

/** Whether `url` lies under the registered base (same origin, path at or below the base's path). */
function underBase(url: URL, base: URL): boolean {
  const path = base.pathname.replace(/\/+$/, "");
  return (
    url.origin === base.origin &&
    (path === "" || url.pathname === path || url.pathname.startsWith(`${path}/`))
  );
}

const RegisterBody = z.object({ target: z.string() });

/**
 * The register route: the page sends the server the user entered; the answer is that server's base URL
 * and a token for it. Only this app's own pages may register, and only a target the allow-list admits.
 */
export async function registerTarget(request: Request, config: ForwardConfig): Promise<Response> {
  const app = checkAppRequest(request.headers, config.appPort);
  if (!app.ok) return refusal(403, "transport_error", `refused: ${app.reason}`, app.refused);
  if (request.method !== "POST")
    return refusal(405, "transport_error", `refused: method ${request.method}`, "method");
  const text = await request.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const body = RegisterBody.safeParse(json);
  if (!body.success)
    return refusal(
      400,
      "transport_error",
      'refused: the body must be {"target": "<server URL>"}',
      "bad_request",
    );
  const checked = checkForwardTarget(body.data.target, config.allow);
  if (!checked.ok) return refusal(403, "transport_error", `refused: ${checked.reason}`, "not_allowed");
  const base = baseOf(checked.url);
  return Response.json({ base, token: await issueToken(base) });
}

function refusal(status: number, kind: string, message: string, refused?: ForwardRefusal): Response {
  return new Response(JSON.stringify({ kind, message, ...(refused === undefined ? {} : { refused }) }), {
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
  const app = checkAppRequest(request.headers, config.appPort);
  if (!app.ok) return refusal(403, "transport_error", `refused: ${app.reason}`, app.refused);
  const checked = checkForwardTarget(request.headers.get(TARGET_HEADER), config.allow);
  if (!checked.ok) return refusal(403, "transport_error", `refused: ${checked.reason}`, "not_allowed");
  const token = request.headers.get(TOKEN_HEADER);
  const base = request.headers.get(BASE_HEADER);
  if (token === null || base === null)
    return refusal(
      401,
      "transport_error",
      `refused: no ${TOKEN_HEADER}; register the server first`,
      "no_token",
    );
  if (!(await tokenBinds(token, base)))
    return refusal(
      403,
      "transport_error",
      "refused: the token is not this app's for that server",
      "bad_token",
    );
  if (!underBase(checked.url, new URL(base)))
    return refusal(
      403,
      "transport_error",
      `refused: ${checked.url.origin}${checked.url.pathname} is not the server registered for this page (${base})`,
      "other_target",
    );
  if (!METHODS.has(request.method))
    return refusal(405, "transport_error", `refused: method ${request.method}`, "method");
  const body = request.method === "POST" ? await readCapped(request) : null;
  if (body === "too_large")
    return refusal(
      413,
      "transport_error",
      `refused: the request body is larger than ${MAX_REQUEST_BYTES} bytes`,
      "too_large",
    );

  const headers = new Headers();
  for (const name of REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const cookie = request.headers.get(FORWARDED_COOKIE);
  if (cookie !== null) headers.set("cookie", cookie);

  const timeoutMs = config.timeoutMs ?? FORWARD_TIMEOUT_MS;
  // Not cleared on headers: the deadline also bounds the body's stream (the timer alone holds it, briefly).
  const deadline = startDeadline(timeoutMs, request.signal);
  let upstream: Response;
  try {
    upstream = await (config.fetch ?? fetch)(checked.url, {
      method: request.method,
      headers,
      ...(body === null ? {} : { body }),
      redirect: "manual",
      signal: deadline.signal,
    });
  } catch (error) {
    deadline.clear();
    if (deadline.expired())
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

/** The route's own refusal (FORWARD_ERROR_HEADER set) as a LiveError, else null. */
async function routeRefusal(response: Response): Promise<LiveError | null> {
  const kind = response.headers.get(FORWARD_ERROR_HEADER);
  if (kind === null) return null;
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
  return new LiveError(kind === "timeout" ? "timeout" : "transport_error", message);
}

const Registered = z.object({ base: z.string(), token: z.string() });

export interface ForwardingOptions {
  readonly endpoint?: string;
  readonly register?: string;
  readonly fetch?: FetchLike;
}

/**
 * The browser side, for one server the user entered (`server`): registers it once for a token, then sends
 * every request through the forwarding route with the target, the base and the token in headers, and the
 * session cookie in FORWARDED_COOKIE; the route's own refusals become LiveErrors.
 */
export function forwardingFetch(server: string, options: ForwardingOptions = {}): FetchLike {
  const endpoint = options.endpoint ?? FORWARD_PATH;
  const base: FetchLike = options.fetch ?? ((u, i) => fetch(u, i));
  let registered: Promise<z.infer<typeof Registered>> | null = null;
  const register = async () => {
    const response = await base(options.register ?? REGISTER_PATH, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ target: server }),
      redirect: "error",
    });
    const refused = await routeRefusal(response);
    if (refused !== null) throw refused;
    const parsed = Registered.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success)
      throw new LiveError("transport_error", "the app's register route answered without a token");
    return parsed.data;
  };
  return async (input, init = {}) => {
    registered ??= register();
    // A failed registration is tried again on the next request.
    const grant = await registered.catch((error: unknown) => {
      registered = null;
      throw error;
    });
    const headers = new Headers(init.headers);
    headers.set(TARGET_HEADER, String(input));
    headers.set(BASE_HEADER, grant.base);
    headers.set(TOKEN_HEADER, grant.token);
    const cookie = headers.get("cookie");
    if (cookie !== null) {
      headers.delete("cookie");
      headers.set(FORWARDED_COOKIE, cookie);
    }
    const response = await base(endpoint, { ...init, headers, redirect: "error" });
    const refused = await routeRefusal(response);
    if (refused !== null) throw refused;
    return response;
  };
}
