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

test("a server killed mid-call stops the run with one clear error and the page stays usable", async ({
  page,
}) => {
  const doomed = await startFakeGym({ mode: "sse", hang: ["calendar_search_events"] });
  await page.goto("/live");
  await page.getByTestId("live-timeout").fill("20000");
  await connect(page, doomed.url);
  // Line 1 of the picked file searches the calendar at its second call; lines 2 and 3 come after it.
  await pickRollouts(page, [GOLDEN[2]!, GOLDEN[3]!, GOLDEN[4]!]);
  await page.getByTestId("live-policy").selectOption("contract");
  await page.getByTestId("live-run-all").click();
  await expect.poll(() => doomed.hanging()).toBeGreaterThan(0);
  await doomed.kill();
  const progress = page.getByTestId("live-progress");
  // The run stops at the call in flight (inside expect's 15 s, before the 20 s deadline).
  await expect(progress).toHaveAttribute("data-running", "false");
  await expect(progress).toHaveAttribute("data-done", "1");
  await expect(progress).toHaveAttribute("data-total", "3");
  const error = page.getByTestId("live-run-error");
  await expect(error.locator('[data-error-kind="transport_error"]')).toHaveCount(1);
  await expect(error).toContainText("stopped at line 1 (contract)");
  await expect(error).toContainText("calendar_search_events");
  await expect(error).toContainText("2 later checks were not run");
  // The call in flight failed; the one after it was not replayed; /verify was not asked.
  const replay = page.getByTestId("live-replay");
  await expect(replay.locator('[data-call-verdict="failed"]')).toHaveCount(1);
  await expect(replay.locator('[data-call-verdict="failed"]')).toContainText("calendar_search_events");
  await expect(page.getByTestId("live-not-replayed")).toHaveAttribute("data-not-replayed", "1");
  const row = page.locator('[data-result-line="1"]');
  await expect(row).toHaveAttribute("data-verify-verdict", "no_answer");
  await expect(row).toHaveAttribute("data-server-reward", "—");

  // Usable: the controls are back, and a healthy server connects and runs.
  await expect(page.getByTestId("live-run-all")).toBeEnabled();
  const healthy = await gym({ mode: "stateless" });
  await connect(page, healthy.url);
  await expect(page.getByTestId("live-parity-summary")).toContainText("27 MCP tools");
  await page.getByTestId("live-run-all").click();
  await expect(progress).toHaveAttribute("data-running", "false");
  await expect(progress).toHaveAttribute("data-done", "3");
  await expect(page.getByTestId("live-run-error")).toHaveCount(0);
  await expect(page.locator('[data-verify-verdict="agree"]')).toHaveCount(3);
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
