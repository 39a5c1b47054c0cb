/**
 * One fetch with one deadline, and the cookie plumbing the HTTP door needs in both runtimes. Browsers may
 * neither send `Cookie` nor read `Set-Cookie`, so the forwarding route (see forward.ts) carries them in
 * the two FORWARDED_* headers; in Node the real headers work and are used.
 */
import { z } from "zod";
import { startDeadline } from "./deadline";
import { LiveError } from "./errors";

const forwardedCookies = z.array(z.string());

/** JSON.parse that answers undefined for text that is not JSON. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Default deadline of one request; a slow Gym tool answers in well under a second on loopback. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export const FORWARDED_SET_COOKIE = "x-live-set-cookie";
export const FORWARDED_COOKIE = "x-live-cookie";

/** The server's base URL: http(s), no query or fragment, no trailing slash. */
export function normalizeServerUrl(input: string): { ok: true; url: string } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, error: `not a URL: ${JSON.stringify(input)}` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, error: `only http and https servers are supported, not ${url.protocol}` };
  if (url.username !== "" || url.password !== "")
    return { ok: false, error: "a server URL must not carry credentials" };
  url.search = "";
  url.hash = "";
  return { ok: true, url: url.toString().replace(/\/+$/, "") };
}

function isAbortLike(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

function causeText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

/** fetch with a deadline; a network failure or the deadline becomes a LiveError. */
export async function fetchWithDeadline(
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  what: string,
): Promise<{ response: Response; text: string }> {
  const deadline = startDeadline(timeoutMs);
  try {
    const response = await fetchImpl(url, { ...init, signal: deadline.signal, redirect: "manual" });
    const text = await response.text();
    return { response, text };
  } catch (error) {
    if (error instanceof LiveError) throw error;
    if (isAbortLike(error) || deadline.expired())
      throw new LiveError("timeout", `${what}: no answer within ${timeoutMs} ms`);
    throw new LiveError("transport_error", `${what}: ${causeText(error)}`);
  } finally {
    deadline.clear();
  }
}

/** The `name=value` pairs a response asks to set, from Set-Cookie or the forwarding route's header. */
export function cookiesToSet(headers: Headers): string[] {
  const raw: string[] = [];
  if (typeof headers.getSetCookie === "function") raw.push(...headers.getSetCookie());
  const forwarded = headers.get(FORWARDED_SET_COOKIE);
  if (forwarded !== null && forwarded !== "") {
    const parsed = forwardedCookies.safeParse(safeJson(forwarded));
    if (parsed.success) raw.push(...parsed.data);
  }
  return raw.map((c) => c.split(";")[0]?.trim() ?? "").filter((c) => c.includes("="));
}

/** A per-door cookie jar: a session server keeps the session id in a cookie. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(headers: Headers): void {
    for (const pair of cookiesToSet(headers)) {
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }

  header(): string | null {
    if (this.cookies.size === 0) return null;
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}
