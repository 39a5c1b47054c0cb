import { afterEach, describe, expect, it } from "vitest";
import { LiveError } from "./errors";
import {
  checkForwardTarget,
  FORWARD_ERROR_HEADER,
  forwardingFetch,
  forwardRequest,
  isLoopbackHost,
  MAX_REQUEST_BYTES,
  parseAllowList,
  TARGET_HEADER,
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

describe("forwardRequest", () => {
  let gym: FakeGym | null = null;
  afterEach(async () => {
    await gym?.close();
    gym = null;
  });

  const route = (allow: string[] = []) =>
    forwardingFetch("http://app.test/api/live/forward", (_url, init) =>
      forwardRequest(new Request("http://app.test/api/live/forward", init), { allow, timeoutMs: 2000 }),
    );

  it("refuses a non-loopback target with 403 and never contacts it", async () => {
    let contacted = false;
    const response = await forwardRequest(
      new Request("http://app.test/api/live/forward", {
        headers: { [TARGET_HEADER]: "http://203.0.113.9/seed_session" },
      }),
      {
        allow: [],
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
      new Request("http://app.test/api/live/forward", {
        headers: { [TARGET_HEADER]: "http://127.0.0.1:9/seed_session", "sec-fetch-site": "cross-site" },
      }),
      { allow: [] },
    );
    expect(response.status).toBe(403);
  });

  it("carries the session cookie and the MCP session both ways, as the doors need", async () => {
    gym = await startFakeGym({ mode: "json" });
    const door = new HttpDoor(gym.url, { fetch: route(), timeoutMs: 2000 });
    const seed = await door.seedSession();
    expect(seed.mcp?.url_path).toBe("/mcp");
    const answer = await door.callTool("company_directory_find_email_address", { name: "carlos" });
    expect(answer).toEqual({ status: 200, body: '{"output":["carlos.rodriguez@atlas.com"]}' });
  });

  it("follows no redirect and caps the request body", async () => {
    const redirecting = await forwardRequest(
      new Request("http://app.test/f", {
        method: "POST",
        body: "{}",
        headers: { [TARGET_HEADER]: "http://127.0.0.1:9/x" },
      }),
      {
        allow: [],
        fetch: async () => new Response(null, { status: 307, headers: { location: "http://203.0.113.9/" } }),
      },
    );
    expect(redirecting.status).toBe(502);
    expect(await redirecting.text()).toContain("redirects are not followed");
    const big = await forwardRequest(
      new Request("http://app.test/f", {
        method: "POST",
        body: "x".repeat(MAX_REQUEST_BYTES + 1),
        headers: { [TARGET_HEADER]: "http://127.0.0.1:9/x" },
      }),
      { allow: [], fetch: async () => new Response("{}") },
    );
    expect(big.status).toBe(413);
  });

  it("times out, and the browser side turns the route's refusals into LiveErrors", async () => {
    gym = await startFakeGym({ mode: "stateless", delays: { company_directory_find_email_address: 3000 } });
    const door = new HttpDoor(gym.url, { fetch: route(), timeoutMs: 10_000 });
    await door.seedSession();
    const error = await door
      .callTool("company_directory_find_email_address", { name: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveError);
    expect(error instanceof LiveError && error.kind).toBe("timeout");
    const refused = await new HttpDoor("http://198.51.100.7:8765", { fetch: route(), timeoutMs: 2000 })
      .seedSession()
      .catch((e: unknown) => e);
    expect(refused instanceof LiveError && refused.kind).toBe("transport_error");
    expect(refused instanceof LiveError && refused.message).toContain("not a loopback address");
  });
});
