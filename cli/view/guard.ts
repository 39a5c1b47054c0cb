/**
 * What `view` lets in (Node only). The server listens on 127.0.0.1 alone; on top of that:
 * - the Host header must name the loopback (127.0.0.1, localhost or [::1], on any port: an SSH tunnel may
 *   forward another local port), so a page on another site whose name was rebound to 127.0.0.1 (DNS
 *   rebinding), which the browser sends with that site's name, is refused;
 * - every request carries the token printed with the URL, as Jupyter does: once in the URL (`?token=`), which
 *   sets a cookie, then the cookie (or an `X-View-Token` header, for scripts);
 * - a file path is relative to the served folder, has no `.`/`..` segment, and its real path (symlinks
 *   followed) lies inside the folder's real path, outside its hidden entries.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import { isHiddenPath } from "../../lib/folder";

/** Random bytes in a token: 192 bits, as hex. */
const TOKEN_BYTES = 24;

export const TOKEN_PARAM = "token";
export const TOKEN_HEADER = "x-view-token";

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString("hex");
}

/**
 * The cookie that carries the token, named per server (by a hash of its token): cookies are not port-scoped,
 * and two `view`s on one remote port reach the browser through two tunnels' ports of one host (a name per
 * port let the second overwrite the first's).
 */
export function cookieName(token: string): string {
  return `ri_view_${createHash("sha256").update(token).digest("hex").slice(0, COOKIE_ID_CHARS)}`;
}

/** Hex characters of the token's hash in the cookie's name: enough that two servers' names never meet. */
const COOKIE_ID_CHARS = 16;

export function hostAllowed(host: string | undefined): boolean {
  return host !== undefined && /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/i.test(host);
}

function sameToken(given: string | undefined | null, token: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export type Admission =
  | { readonly ok: true; readonly via: "cookie" | "header" }
  | { readonly ok: true; readonly via: "url"; readonly cookie: string; readonly location: string }
  | {
      readonly ok: false;
      readonly status: 403;
      /** What was refused: the Host (DNS rebinding), or the token (missing, or a `view` started again). */
      readonly refused: "host" | "token";
      readonly reason: string;
    };

/** Whether a request may go on, and how its token came (a token in the URL is swapped for a cookie). */
export function admit(
  request: {
    readonly url: string;
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  },
  port: number,
  token: string,
): Admission {
  const host = request.headers.host;
  if (!hostAllowed(typeof host === "string" ? host : undefined)) {
    return {
      ok: false,
      status: 403,
      refused: "host",
      reason: `this server answers only to 127.0.0.1 and localhost (the page asked for ${typeof host === "string" && host !== "" ? host : "no host"}): open the URL view printed, on this machine or through an SSH tunnel`,
    };
  }
  const url = new URL(request.url, `http://127.0.0.1:${port}`);
  const cookie = request.headers.cookie;
  if (sameToken(cookieValue(typeof cookie === "string" ? cookie : undefined, cookieName(token)), token)) {
    return { ok: true, via: "cookie" };
  }
  const header = request.headers[TOKEN_HEADER];
  if (sameToken(typeof header === "string" ? header : undefined, token)) return { ok: true, via: "header" };
  if (sameToken(url.searchParams.get(TOKEN_PARAM), token)) {
    url.searchParams.delete(TOKEN_PARAM);
    return {
      ok: true,
      via: "url",
      cookie: `${cookieName(token)}=${token}; Path=/; HttpOnly; SameSite=Strict`,
      location: `${url.pathname}${url.search}`,
    };
  }
  return {
    ok: false,
    status: 403,
    refused: "token",
    reason:
      "missing or wrong token: open the URL `view` printed (it ends in ?token=…) once in this browser; the app's links then open here until the browser is closed",
  };
}

export type Confined =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly reason: string };

/**
 * The real path of `relative` (a `/`-separated path from the page) inside `root` (already a real path), or
 * why not: a `.`/`..`/empty segment, a backslash or NUL, a path whose real path leaves the folder (a symlink
 * out), or something that is not a regular file.
 */
export async function confine(root: string, relative: string): Promise<Confined> {
  const segments = relative.split("/");
  if (
    relative === "" ||
    relative.includes("\0") ||
    relative.includes("\\") ||
    segments.some((s) => s === "" || s === "." || s === "..")
  ) {
    return { ok: false, status: 400, reason: "a path inside the folder, without . or .. segments" };
  }
  // Hidden entries (.git, .env, editor state) are never part of a run, and may hold secrets: the listing
  // names them, the server never reads them (refused before the file system is asked, so a 403 says
  // nothing of whether one exists), nor a link's target among them (below).
  if (isHiddenPath(relative)) return { ok: false, status: 403, reason: "a hidden entry is not served" };
  let real: string;
  try {
    real = await realpath(join(root, ...segments));
  } catch {
    return { ok: false, status: 404, reason: "no such file" };
  }
  if (!real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) {
    return { ok: false, status: 403, reason: "the path leaves the served folder" };
  }
  if (isHiddenPath(real.slice(root.length).split(sep).join("/"))) {
    return { ok: false, status: 403, reason: "a hidden entry is not served" };
  }
  try {
    if (!(await stat(real)).isFile()) return { ok: false, status: 404, reason: "not a file" };
  } catch {
    return { ok: false, status: 404, reason: "no such file" };
  }
  return { ok: true, path: real };
}

/** One byte range of a file of `size` bytes, from a Range header (one range only; several are not needed). */
export type RangeAnswer =
  | { readonly kind: "whole" }
  | { readonly kind: "range"; readonly start: number; readonly end: number }
  | { readonly kind: "unsatisfiable" };

export function byteRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: "whole" };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return { kind: "whole" };
  const [, from = "", to = ""] = match;
  if (from === "" && to === "") return { kind: "whole" };
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return { kind: "unsatisfiable" };
    return size === 0
      ? { kind: "unsatisfiable" }
      : { kind: "range", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  if (start >= size) return { kind: "unsatisfiable" };
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (end < start) return { kind: "unsatisfiable" };
  return { kind: "range", start, end };
}
