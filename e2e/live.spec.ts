/**
 * The Live page against self-contained Gym-contract servers (lib/live/test-helpers.ts: the MCP SDK's own
 * server behind Gym's HTTP contract, serving this project's workplace_assistant tools). The real Gym
 * server is exercised by `npm run test:gym-live`, outside npm test.
 */
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { type FakeGym, type FakeGymOptions, startFakeGym } from "../lib/live/test-helpers";
import { lineCountsText } from "../lib/run";

const GOLDEN = readFileSync(
  new URL("../fixtures/golden/workplace-rollouts/wa_rollouts.jsonl", import.meta.url),
  "utf8",
)
  .trim()
  .split("\n");

const servers: FakeGym[] = [];
async function gym(options: FakeGymOptions): Promise<FakeGym> {
  const server = await startFakeGym(options);
  servers.push(server);
  return server;
}
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function connect(page: Page, url: string) {
  await page.getByTestId("live-url").fill(url);
  await page.getByTestId("live-connect-button").click();
  await expect(page.getByTestId("live-connect-button")).toHaveText("Connect");
}

async function pickRollouts(page: Page, lines: readonly string[]) {
  await page.getByTestId("live-file").setInputFiles({
    name: "picked.jsonl",
    mimeType: "application/json",
    buffer: Buffer.from(`${lines.join("\n")}\n`),
  });
  // lib/run's one wording for counts ("1 rollout", "3 rollouts").
  await expect(page.getByTestId("live-file-summary")).toContainText(
    lineCountsText({ rollouts: lines.length, unreadable: 0 }),
  );
}

test("connect shows the mcp block, unchecked token claims, the SDK session and every parity difference", async ({
  page,
}) => {
  const server = await gym({
    mode: "sse",
    pageSize: 10,
    httpOnlyRoutes: { email_archive_email: { type: "object", properties: { email_id: { type: "string" } } } },
    httpSchemaOverrides: {
      company_directory_find_email_address: { type: "object", properties: { name: { type: "integer" } } },
    },
  });
  await page.goto("/live");
  await connect(page, server.url);
  await expect(page.getByTestId("live-server-name")).toHaveText("workplace_assistant");
  await expect(page.getByTestId("live-allowed-tools")).toHaveText("all tools (no allow-list)");
  await expect(page.getByTestId("live-signature")).toContainText("not checked");
  await expect(page.getByTestId("live-protocol")).toHaveText("2025-11-25");
  await expect(page.getByTestId("live-session-id")).toHaveText(/^[0-9a-f-]{36}$/);
  await expect(page.getByTestId("live-replies")).toContainText("text/event-stream");
  await expect(page.getByTestId("live-delete")).toHaveText("HTTP 200");
  await expect(page.getByTestId("live-parity-summary")).toContainText("27 MCP tools (3 pages)");
  await expect(page.getByTestId("live-parity-summary")).toContainText("2 differences");
  await expect(page.locator('[data-parity-tool="email_archive_email"]')).toHaveAttribute(
    "data-difference",
    "missing_from_mcp",
  );
  await expect(page.locator('[data-parity-tool="company_directory_find_email_address"]')).toContainText(
    'MCP "string", HTTP "integer"',
  );
  await expect(page.locator('[data-difference=""]')).toHaveCount(26);
});

test("replay and verify: an output difference and a /verify disagreement are highlighted", async ({
  page,
}) => {
  const server = await gym({ mode: "json", tamperMcpOutput: ["calendar_search_events"], verifyReward: 0.5 });
  await page.goto("/live");
  await connect(page, server.url);
  await expect(page.getByTestId("live-parity-summary")).toContainText("0 differences");
  await pickRollouts(page, GOLDEN.slice(0, 4));
  await page.getByTestId("live-run-all").click();
  const progress = page.getByTestId("live-progress");
  await expect(progress).toHaveAttribute("data-running", "false");
  await expect(progress).toHaveAttribute("data-done", "8");
  // Every result row: the server said 0.5, the browser 0 or 1.
  await expect(page.locator('[data-verify-verdict="disagree"]')).toHaveCount(8);
  const contract = page.locator('[data-tally-policy="contract"]');
  await expect(contract).toHaveAttribute("data-rollouts", "4");
  await expect(contract).toHaveAttribute("data-disagree", "4");
  // Line 3 searches the calendar: its MCP answer carries a trailing space the HTTP body does not.
  await page.locator('[data-result-line="3"][data-result-policy="contract"] button').click();
  const replay = page.getByTestId("live-replay");
  await expect(replay).toHaveAttribute("data-line", "3");
  await expect(replay.locator('[data-call-verdict="differs"]')).not.toHaveCount(0);
  await expect(replay.locator('[data-call-verdict="same"]')).not.toHaveCount(0);
});

test("a server killed mid-call gives a clear transport error and the page stays usable", async ({ page }) => {
  const doomed = await startFakeGym({ mode: "sse", hang: ["calendar_search_events"] });
  await page.goto("/live");
  await page.getByTestId("live-timeout").fill("20000");
  await connect(page, doomed.url);
  await pickRollouts(page, [GOLDEN[2]!]);
  await page.getByTestId("live-policy").selectOption("contract");
  await page.getByTestId("live-run-one").click();
  await expect.poll(() => doomed.hanging()).toBeGreaterThan(0);
  await doomed.kill();
  await expect(page.getByTestId("live-progress")).toHaveAttribute("data-running", "false");
  // The call in flight and the one after it (the server is gone) fail, each with a transport error.
  const failed = page.locator('[data-call-verdict="failed"]');
  await expect(failed).toHaveCount(2);
  await expect(failed.first()).toContainText("calendar_search_events");
  await expect(failed.first().locator('[data-error-kind="transport_error"]')).toHaveCount(2);
  // The verify of the dead server is a transport error too, shown beside the browser's reward.
  await expect(page.locator('[data-result-line="1"]')).toHaveAttribute("data-server-reward", "—");

  const healthy = await gym({ mode: "stateless" });
  await connect(page, healthy.url);
  await expect(page.getByTestId("live-parity-summary")).toContainText("27 MCP tools");
  await page.getByTestId("live-run-one").click();
  await expect(page.getByTestId("live-progress")).toHaveAttribute("data-running", "false");
  await expect(page.locator('[data-result-line="1"]')).toHaveAttribute("data-verify-verdict", "agree");
});

test("the forwarding route refuses a non-loopback target, and the CSP stays strict", async ({
  page,
  request,
}) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  const response = await page.goto("/live");
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  await connect(page, "http://203.0.113.9:8765");
  await expect(page.locator('[data-error-kind="transport_error"]')).toContainText("not a loopback address");

  const direct = await request.post("/api/live/forward", {
    headers: { "x-live-target": "http://203.0.113.9:8765/seed_session", "content-type": "application/json" },
    data: "{}",
  });
  expect(direct.status()).toBe(403);
  expect(await direct.json()).toMatchObject({ kind: "transport_error" });
  expect(violations).toEqual([]);
});
