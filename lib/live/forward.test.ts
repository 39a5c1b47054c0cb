import { afterEach, describe, expect, it } from "vitest";
import { LiveError } from "./errors";
import {
  ANY_APP_PORT,
  BASE_HEADER,
  checkAppRequest,
  checkForwardTarget,
  FORWARD_ERROR_HEADER,
  type ForwardConfig,
  forwardingFetch,
  forwardRequest,
  isLoopbackHost,
  MAX_REQUEST_BYTES,
  parseAllowList,
  registerTarget,
  TARGET_HEADER,
  TOKEN_HEADER,
} from "./forward";
import { HttpDoor } from "./http";
import { type FakeGym, startFakeGym } from "./test-helpers";

describe("the forwarding route's allow-list", () => {
  it("accepts loopback hosts only by default", () => {
    for (const host of ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "app.localhost"])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of [
      "10.0.0.1",
      "example.com",
      "127.0.0.1.example.com",
      "0.0.0.0",
      "128.0.0.1",
      "localhost.evil",
    ])
      expect(isLoopbackHost(host)).toBe(false);
    expect(checkForwardTarget("http://127.0.0.1:8765/mcp", []).ok).toBe(true);
    const refused = checkForwardTarget("http://gym.internal:8765/mcp", []);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.reason).toContain("LIVE_FORWARD_ALLOW");
  });

  it("is widened by the environment variable, by host or host:port", () => {
    const allow = parseAllowList(" gym.internal , other.host:9000 ");
    expect(allow).toEqual(["gym.internal", "other.host:9000"]);
    expect(checkForwardTarget("http://gym.internal:1/x", allow).ok).toBe(true);
    expect(checkForwardTarget("http://other.host:9000/x", allow).ok).toBe(true);
    expect(checkForwardTarget("http://other.host:9001/x", allow).ok).toBe(false);
  });

  it("refuses other schemes, credentials and a missing target", () => {
    expect(checkForwardTarget("file:///etc/passwd", []).ok).toBe(false);
    expect(checkForwardTarget("http://user:pw@127.0.0.1/", []).ok).toBe(false);
    expect(checkForwardTarget(null, []).ok).toBe(false);
  });
});

/** The app under test listens on 127.0.0.1:3000; requests carry the Host a browser would send. */
const APP = "http://127.0.0.1:3000";
const APP_HOST = "127.0.0.1:3000";

function appRequest(path: string, init: RequestInit = {}, host = APP_HOST): Request {
  const headers = new Headers(init.headers);
  if (!headers.has("host")) headers.set("host", host);
  return new Request(`${APP}${path}`, { ...init, headers });
}

/** forwardingFetch wired to the two route functions in process (register, then forward). */
function routed(server: string, config: Omit<ForwardConfig, "appPort"> & { appPort?: string | null }) {
  const full: ForwardConfig = { appPort: "3000", ...config };
  return forwardingFetch(server, {
    endpoint: `${APP}/api/live/forward`,
    register: `${APP}/api/live/register`,
    fetch: (url, init) => {
      const request = appRequest(new URL(String(url)).pathname, init);
      return String(url).endsWith("/register")
        ? registerTarget(request, full)
        : forwardRequest(request, full);
    },
  });
}

async function registered(server: string, config: Partial<ForwardConfig> = {}) {
  const response = await registerTarget(
    appRequest("/api/live/register", { method: "POST", body: JSON.stringify({ target: server }) }),
    { allow: [], appPort: "3000", ...config },
  );
  expect(response.status).toBe(200);
  const body: unknown = await response.json();
  if (
    typeof body !== "object" ||
    body === null ||
    !("token" in body) ||
    !("base" in body) ||
    typeof body.token !== "string" ||
    typeof body.base !== "string"
  )
    throw new Error("no token");
  return { token: body.token, base: body.base };
}

async function refusedAs(response: Response): Promise<string | undefined> {
  const body: unknown = await response.json();
  return typeof body === "object" && body !== null && "refused" in body && typeof body.refused === "string"
    ? body.refused
    : undefined;
}

describe("only requests addressed to this app by its own pages", () => {
  const check = (headers: Record<string, string>, port: string | null = "3000") =>
    checkAppRequest(new Headers(headers), port);

  it("accepts a loopback Host on the app's port, with or without its own Origin", () => {
    for (const host of ["127.0.0.1:3000", "localhost:3000", "[::1]:3000", "LOCALHOST:3000"])
      expect(check({ host }).ok).toBe(true);
    expect(check({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }).ok).toBe(true);
    expect(check({ host: "localhost:80" }, "80").ok).toBe(true);
    expect(check({ host: "localhost" }, "80").ok).toBe(true);
  });

  it("refuses a foreign Host, even one that says same-origin (DNS rebinding)", () => {
    for (const host of [
      "attacker.example:3000",
      "attacker.example",
      "rebind.test:3000",
      "127.0.0.1.nip.io:3000",
      "10.0.0.5:3000",
      "127.0.0.1:3000@evil",
      "127.0.0.1:3000/x",
      "",
    ]) {
      const result = check({ host, "sec-fetch-site": "same-origin" });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.refused).toBe("foreign_host");
    }
  });

  it("refuses another loopback port, and every request when the app's port is unknown", () => {
    const other = check({ host: "127.0.0.1:3001" });
    expect(!other.ok && other.refused).toBe("foreign_host");
    const unknown = check({ host: "127.0.0.1:3000" }, null);
    expect(!unknown.ok && unknown.refused).toBe("foreign_host");
  });

  it("behind `cli view` takes any loopback port (a tunnel's), still a loopback Host and its own Origin", () => {
    expect(check({ host: "127.0.0.1:9000", origin: "http://127.0.0.1:9000" }, ANY_APP_PORT).ok).toBe(true);
    expect(check({ host: "localhost:3312" }, ANY_APP_PORT).ok).toBe(true);
    const rebound = check({ host: "attacker.example:9000" }, ANY_APP_PORT);
    expect(!rebound.ok && rebound.refused).toBe("foreign_host");
    const other = check({ host: "127.0.0.1:9000", origin: "http://127.0.0.1:9001" }, ANY_APP_PORT);
    expect(!other.ok && other.refused).toBe("foreign_origin");
  });

  it("refuses a foreign Origin, another loopback port's Origin, and cross-site fetches", () => {
    for (const origin of [
      "http://attacker.example",
      "http://127.0.0.1:8765",
      "http://localhost:3000.evil",
      "null",
    ]) {
      const result = check({ host: "127.0.0.1:3000", origin });
      expect(!result.ok && result.refused).toBe("foreign_origin");
    }
    for (const site of ["cross-site", "same-site"]) {
      const result = check({ host: "127.0.0.1:3000", "sec-fetch-site": site });
      expect(!result.ok && result.refused).toBe("foreign_site");
    }
  });
});

describe("the per-page token", () => {
  let gym: FakeGym | null = null;
  let other: FakeGym | null = null;
  afterEach(async () => {
    await Promise.all([gym?.close(), other?.close()]);
    gym = null;
    other = null;
  });

  it("is issued only to this app's pages, for an allowed target", async () => {
    const foreign = await registerTarget(
      appRequest(
        "/api/live/register",
        { method: "POST", body: '{"target":"http://127.0.0.1:8765"}' },
        "rebind.test:3000",
      ),
      { allow: [], appPort: "3000" },
    );
    expect(foreign.status).toBe(403);
    expect(await refusedAs(foreign)).toBe("foreign_host");
    const far = await registerTarget(
      appRequest("/api/live/register", { method: "POST", body: '{"target":"http://203.0.113.9:8765"}' }),
      { allow: [], appPort: "3000" },
    );
    expect(far.status).toBe(403);
    expect(await refusedAs(far)).toBe("not_allowed");
    const garbage = await registerTarget(appRequest("/api/live/register", { method: "POST", body: "[" }), {
      allow: [],
      appPort: "3000",
    });
    expect(await refusedAs(garbage)).toBe("bad_request");
    expect((await registered("http://127.0.0.1:8765/")).base).toBe("http://127.0.0.1:8765");
  });

  it("forwards only to the registered server: another loopback port, a forged or missing token are refused", async () => {
    gym = await startFakeGym({ mode: "json" });
    other = await startFakeGym({ mode: "json" });
    const grant = await registered(gym.url);
    const forward = (target: string, token: string | null, base = grant.base) =>
      forwardRequest(
        appRequest("/api/live/forward", {
          headers: {
            [TARGET_HEADER]: target,
            [BASE_HEADER]: base,
            ...(token === null ? {} : { [TOKEN_HEADER]: token }),
          },
        }),
        { allow: [], appPort: "3000" },
      );
    expect((await forward(`${gym.url}/openapi.json`, grant.token)).status).toBe(200);
    const otherPort = await forward(`${other.url}/openapi.json`, grant.token);
    expect(otherPort.status).toBe(403);
    expect(await refusedAs(otherPort)).toBe("other_target");
    // The token is bound to its base: naming the other server as the base does not help.
    const rebased = await forward(`${other.url}/openapi.json`, grant.token, other.url);
    expect(await refusedAs(rebased)).toBe("bad_token");
    const forged = await forward(`${gym.url}/openapi.json`, `${"0".repeat(32)}.${"ab".repeat(32)}`);
    expect(await refusedAs(forged)).toBe("bad_token");
    const none = await forward(`${gym.url}/openapi.json`, null);
    expect(none.status).toBe(401);
    expect(await refusedAs(none)).toBe("no_token");
    // A foreign Host is refused before the token is read.
    const rebinding = await forwardRequest(
      appRequest(
        "/api/live/forward",
        {
          headers: {
            [TARGET_HEADER]: `${gym.url}/openapi.json`,
            [BASE_HEADER]: grant.base,
            [TOKEN_HEADER]: grant.token,
            "sec-fetch-site": "same-origin",
          },
        },
        "attacker.example",
      ),
      { allow: [], appPort: "3000" },
    );
    expect(rebinding.status).toBe(403);
    expect(await refusedAs(rebinding)).toBe("foreign_host");
  });
});

describe("forwardRequest", () => {
  let gym: FakeGym | null = null;
  afterEach(async () => {
    await gym?.close();
    gym = null;
  });

  const route = (server: string, allow: string[] = []) => routed(server, { allow, timeoutMs: 2000 });

  it("refuses a non-loopback target with 403 and never contacts it", async () => {
    let contacted = false;
    const response = await forwardRequest(
      appRequest("/api/live/forward", {
        headers: {
          [TARGET_HEADER]: "http://203.0.113.9/seed_session",
          [BASE_HEADER]: "http://203.0.113.9",
          [TOKEN_HEADER]: `${"0".repeat(32)}.${"ab".repeat(32)}`,
        },
      }),
      {
        allow: [],
        appPort: "3000",
        fetch: async () => {
          contacted = true;
          return new Response("");
        },
      },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get(FORWARD_ERROR_HEADER)).toBe("transport_error");
    expect(contacted).toBe(false);
  });

  it("refuses a request another site's page makes", async () => {
    const response = await forwardRequest(
      appRequest("/api/live/forward", {
        headers: { [TARGET_HEADER]: "http://127.0.0.1:9/seed_session", "sec-fetch-site": "cross-site" },
      }),
      { allow: [], appPort: "3000" },
    );
    expect(response.status).toBe(403);
  });

  it("carries the session cookie and the MCP session both ways, as the doors need", async () => {
    gym = await startFakeGym({ mode: "json" });
    const door = new HttpDoor(gym.url, { fetch: route(gym.url), timeoutMs: 2000 });
    const seed = await door.seedSession();
    expect(seed.mcp?.url_path).toBe("/mcp");
    const answer = await door.callTool("company_directory_find_email_address", { name: "carlos" });
    expect(answer).toEqual({ status: 200, body: '{"output":["carlos.rodriguez@atlas.com"]}' });
  });

  it("follows no redirect and caps the request body", async () => {
    const grant = await registered("http://127.0.0.1:9");
    const granted = { [BASE_HEADER]: grant.base, [TOKEN_HEADER]: grant.token };
    const redirecting = await forwardRequest(
      appRequest("/api/live/forward", {
        method: "POST",
        body: "{}",
        headers: { [TARGET_HEADER]: "http://127.0.0.1:9/x", ...granted },
      }),
      {
        allow: [],
        appPort: "3000",
        fetch: async () => new Response(null, { status: 307, headers: { location: "http://203.0.113.9/" } }),
      },
    );
    expect(redirecting.status).toBe(502);
    expect(await redirecting.text()).toContain("redirects are not followed");
    const big = await forwardRequest(
      appRequest("/api/live/forward", {
        method: "POST",
        body: "x".repeat(MAX_REQUEST_BYTES + 1),
        headers: { [TARGET_HEADER]: "http://127.0.0.1:9/x", ...granted },
      }),
      { allow: [], appPort: "3000", fetch: async () => new Response("{}") },
    );
    expect(big.status).toBe(413);
  });

  it("times out, and the browser side turns the route's refusals into LiveErrors", async () => {
    // The route's timeout sits well below the tool's delay and well above a seed on a loaded machine (a 2 s route
    // timeout failed the seed itself under the full suite on 2 cores).
    gym = await startFakeGym({ mode: "stateless", delays: { company_directory_find_email_address: 12_000 } });
    const door = new HttpDoor(gym.url, {
      fetch: routed(gym.url, { allow: [], timeoutMs: 6000 }),
      timeoutMs: 20_000,
    });
    await door.seedSession();
    const error = await door
      .callTool("company_directory_find_email_address", { name: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveError);
    expect(error instanceof LiveError && error.kind).toBe("timeout");
    const refused = await new HttpDoor("http://198.51.100.7:8765", {
      fetch: route("http://198.51.100.7:8765"),
      timeoutMs: 2000,
    })
      .seedSession()
      .catch((e: unknown) => e);
    expect(refused instanceof LiveError && refused.kind).toBe("transport_error");
    expect(refused instanceof LiveError && refused.message).toContain("not a loopback address");
  });
});
