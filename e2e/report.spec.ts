/**
 * The report to share: written by `cli report` and by the page's Report button (the same bytes), then opened
 * from file:// in Chromium with the network off, where it shows the why-zero breakdown and the marked
 * rollout and requests nothing but itself.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { E2E_FIXTURES, loadFiles, openLine, ROOT } from "./helpers";

const FILE = path.join(E2E_FIXTURES, "triage-run.jsonl");
const MARKED = 2;
let dir: string;
let cliReport: string;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "report-e2e-"));
  cliReport = path.join(dir, "cli-report.html");
  execFileSync("npx", ["tsx", "cli/main.ts", "report", FILE, "--mark", String(MARKED), "--out", cliReport], {
    cwd: ROOT,
    stdio: "pipe",
  });
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the page's report of a marked rollout is the CLI's, byte for byte", async ({ page }) => {
  await page.goto("/");
  await loadFiles(page, [FILE]);
  await openLine(page, MARKED);
  await page.getByTestId("mark-rollout").check();
  await expect(page.getByTestId("export-report")).toContainText("1 marked");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-report").click(),
  ]);
  const saved = path.join(dir, "page-report.html");
  await download.saveAs(saved);
  expect(readFileSync(saved).equals(readFileSync(cliReport))).toBe(true);
});

test("a report opens from file:// offline, shows the breakdown and the marked rollout, and loads nothing", async ({
  browser,
}) => {
  const context = await browser.newContext({ offline: true });
  const page = await context.newPage();
  const url = pathToFileURL(cliReport).toString();
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  const blocked: string[] = [];
  page.on("console", (message) => blocked.push(message.text()));
  await page.goto(url);
  await expect(page.getByTestId("report-breakdown")).toBeVisible();
  await expect(page.getByTestId("report-causes")).toBeVisible();
  const rollout = page.locator(`[data-testid="report-rollout"][data-line="${MARKED}"]`);
  await expect(rollout).toBeVisible();
  await expect(rollout.getByTestId("report-calls")).toBeVisible();
  await expect(page.locator("script")).toHaveCount(0);
  expect(requests).toEqual([url]);
  await context.close();
});
