/**
 * The forwarding route in Chromium (issue 23): only this app's own pages, only the server registered for
 * the page. A host rule maps another name to 127.0.0.1, as DNS rebinding would: a page loaded under that
 * name talks to this very server same-origin, and must be refused.
 */
import { createServer, type Server } from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { z } from "zod";
import { type FakeGym, startFakeGym } from "../lib/live/test-helpers";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const REBIND = "rebind.test";

const closers: (() => Promise<void>)[] = [];
test.afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function gym(): Promise<FakeGym> {
  const server = await startFakeGym({ mode: "json" });
  closers.push(() => server.close());
  return server;
}

/** An unrelated loopback service that counts the requests reaching it. */
async function bystander(): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server: Server = createServer((_request, response) => {
    hits++;
    response.end("secret");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const address = server.address();
  const port = address !== null && typeof address === "object" ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, hits: () => hits };
}

/** fetch() from inside the page: the browser sets Host, Origin and Sec-Fetch-Site itself. A body makes it a POST. */
function pageFetch(page: Page, path: string, headers: Record<string, string>, body?: string) {
  return page.evaluate(
    async ({ path, headers, body }) => {
      const response = await fetch(path, {
        method: body === undefined ? "GET" : "POST",
        headers,
        ...(body === undefined ? {} : { body }),
      });
      const text = await response.text();
      return { status: response.status, text };
    },
    { path, headers, body },
  );
}

const Grant = z.object({
  token: z.string().optional(),
  base: z.string().optional(),
  refused: z.string().optional(),
});

async function register(page: Page, target: string) {
  const answer = await pageFetch(
    page,
    "/api/live/register",
    { "content-type": "application/json" },
    JSON.stringify({ target }),
  );
  return {
    status: answer.status,
    body: Grant.parse(JSON.parse(answer.text)),
  };
}

test("a page on another name that resolves to 127.0.0.1 (DNS rebinding) is refused", async ({
  playwright,
  launchOptions,
}) => {
  const server = await gym();
  const secret = await bystander();
  const browser = await playwright.chromium.launch({
    ...launchOptions,
    args: [...(launchOptions.args ?? []), `--host-resolver-rules=MAP ${REBIND} 127.0.0.1`],
  });
  closers.push(() => browser.close());
  const page = await browser.newPage();
  await page.goto(`http://${REBIND}:${PORT}/live`);
  // The page itself loads (it is this app); its requests to the route carry Host rebind.test.
  const registered = await register(page, server.url);
  expect(registered.status).toBe(403);
  expect(registered.body.refused).toBe("foreign_host");
  const forwarded = await pageFetch(page, "/api/live/forward", {
    "x-live-target": `${secret.url}/`,
    "x-live-base": secret.url,
    "x-live-token": `${"0".repeat(32)}.${"ab".repeat(32)}`,
  });
  expect(forwarded.status).toBe(403);
  expect(JSON.parse(forwarded.text)).toMatchObject({ refused: "foreign_host" });
  expect(forwarded.text).not.toContain("secret");
  // Through the page's own controls: Connect reports the refusal.
  await page.getByTestId("live-url").fill(server.url);
  await page.getByTestId("live-connect-button").click();
  await expect(page.locator('[data-error-kind="transport_error"]').first()).toContainText("is not this app");
  expect(secret.hits()).toBe(0);
});

test("a foreign Host, a foreign Origin and another loopback port's Origin are refused", async ({ page }) => {
  const server = await gym();
  await page.goto("/live");
  const grant = await register(page, server.url);
  expect(grant.status).toBe(200);
  const headers = {
    "x-live-target": `${server.url}/openapi.json`,
    "x-live-base": grant.body.base ?? "",
    "x-live-token": grant.body.token ?? "",
  };
  // The same request with this app's Host and no Origin is forwarded: the refusals below are the checks'.
  const control = await page.request.get("/api/live/forward", { headers });
  expect(control.status()).toBe(200);
  const cases: [Record<string, string>, string][] = [
    [{ host: "attacker.example" }, "foreign_host"],
    [{ host: `attacker.example:${PORT}` }, "foreign_host"],
    [{ host: "127.0.0.1:1" }, "foreign_host"],
    [{ origin: "http://attacker.example" }, "foreign_origin"],
    [{ origin: server.url }, "foreign_origin"],
  ];
  for (const [extra, refused] of cases) {
    const response = await page.request.get("/api/live/forward", { headers: { ...headers, ...extra } });
    expect(response.status(), JSON.stringify(extra)).toBe(403);
    expect(await response.json()).toMatchObject({ refused });
  }
});

test("the token reaches only the server registered for the page, not another loopback port", async ({
  page,
}) => {
  const server = await gym();
  const secret = await bystander();
  await page.goto("/live");
  const grant = await register(page, server.url);
  expect(grant.status).toBe(200);
  const token = { "x-live-base": grant.body.base ?? "", "x-live-token": grant.body.token ?? "" };
  const ok = await pageFetch(page, "/api/live/forward", {
    ...token,
    "x-live-target": `${server.url}/openapi.json`,
  });
  expect(ok.status).toBe(200);
  const other = await pageFetch(page, "/api/live/forward", { ...token, "x-live-target": `${secret.url}/` });
  expect(other.status).toBe(403);
  expect(JSON.parse(other.text)).toMatchObject({ refused: "other_target" });
  const rebased = await pageFetch(page, "/api/live/forward", {
    ...token,
    "x-live-base": secret.url,
    "x-live-target": `${secret.url}/`,
  });
  expect(JSON.parse(rebased.text)).toMatchObject({ refused: "bad_token" });
  const none = await pageFetch(page, "/api/live/forward", { "x-live-target": `${secret.url}/` });
  expect(none.status).toBe(401);
  expect(secret.hits()).toBe(0);
});
