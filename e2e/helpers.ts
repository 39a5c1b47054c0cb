import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page } from "@playwright/test";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const GOLDEN_WA = path.join(ROOT, "fixtures/golden/workplace-rollouts");
export const E2E_FIXTURES = path.join(ROOT, "e2e/fixtures");

/** Reads a JSONL file from disk as parsed rows (test-side only: expectations, never app input). */
export function readJsonlFile(file: string): unknown[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

/** The project's CLI run on `args` from the repository root, which must succeed: what it printed. */
export function cli(args: readonly string[]): { stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "cli/main.ts"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return run;
}

/** Loads files through the hidden file input, as the "Open files…" button does. */
export async function loadFiles(page: Page, files: string[]): Promise<void> {
  await page.getByTestId("file-input").first().setInputFiles(files);
  await waitReady(page);
}

/**
 * The list is ready when the workspace says so: the index is complete (data-ready) and, since rewards
 * fill in behind the index, every row's rewards are computed (data-rewarded).
 */
export async function waitReady(page: Page): Promise<void> {
  await expect(page.locator("main[data-ready]")).toHaveAttribute("data-ready", "true");
  await expect(page.locator("main[data-ready]")).toHaveAttribute("data-rewarded", "true");
}

/** Opens a rollout by clicking its row, scrolling the virtual list to it when needed. */
export async function openLine(page: Page, line: number): Promise<void> {
  await page.evaluate((target) => {
    const url = new URL(window.location.href);
    url.searchParams.set("line", String(target));
    url.searchParams.delete("call");
    window.history.pushState(null, "", url);
  }, line);
  await expect(page.locator(`article[data-detail-line="${line}"]`)).toBeVisible();
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-verified", "true");
}

/**
 * Where a review screenshot goes: the committed e2e/screenshots/ only with UPDATE_SCREENSHOTS=1, so an
 * ordinary test run leaves the work tree clean.
 */
export function screenshotPath(name: string): string {
  return process.env.UPDATE_SCREENSHOTS ? `e2e/screenshots/${name}` : `test-results/screenshots/${name}`;
}

/**
 * Picks a folder in a folder picker (`folder-input`, webkitdirectory; the page's first one by default), as a
 * new user would, without waiting for what the page makes of it.
 */
export async function pickFolder(
  page: Page,
  dir: string,
  input = page.getByTestId("folder-input").first(),
): Promise<void> {
  // The picker becomes a directory picker once the page is hydrated (components/Loader.tsx sets webkitdirectory
  // in an effect); before that Playwright refuses a directory.
  await expect(input).toHaveJSProperty("webkitdirectory", true);
  await input.setInputFiles(dir);
}

/** Opens a folder through the folder picker and waits for its rows and rewards. */
export async function openFolder(page: Page, dir: string): Promise<void> {
  await pickFolder(page, dir);
  await waitReady(page);
}

/** One listed rollout as the list shows it: its reward or reason, its verifying server and that server's source. */
export interface ListedRow {
  line: number;
  reward: string | null;
  reason: string | null;
  server: string | null;
  source: string | null;
}

export async function folderRows(page: Page): Promise<ListedRow[]> {
  return page.locator("[data-testid=rollout-scroller] [data-line]").evaluateAll((elements) =>
    elements.map((row) => ({
      line: Number(row.getAttribute("data-line")),
      reward: row.getAttribute("data-reward"),
      reason: row.getAttribute("data-unverified-reason"),
      server: row.getAttribute("data-server"),
      source: row.getAttribute("data-server-source"),
    })),
  );
}

/** Unfolds the folder's file table (it starts folded when every file was recognised). */
export async function unfoldFolderPanel(page: Page): Promise<void> {
  const panel = page.getByTestId("folder-panel");
  if ((await panel.getAttribute("open")) === null) await panel.locator("summary").click();
  await expect(panel).toHaveAttribute("open", "");
}

/** Asserts that the folder panel lists each file (path relative to the folder) with the given role. */
export async function expectRoles(page: Page, roles: Readonly<Record<string, string>>): Promise<void> {
  const panel = page.getByTestId("folder-panel");
  for (const [file, role] of Object.entries(roles))
    await expect(panel.locator(`[data-folder-file='${file}']`)).toHaveAttribute("data-role", role);
}
