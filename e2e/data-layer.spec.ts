/**
 * The one data layer: files added in either order are paired and every shown reward follows, a file opened
 * in the inspector is offered on /compare, and a reload (or a later visit) reopens the files.
 * Expected rewards are the golden file's (Gym's own verifier), never the app's.
 */
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { z } from "zod";
import { formatReward } from "../components/badges";
import { UNVERIFIED_LABEL } from "../lib/verify/unverified";
import { GOLDEN_WA, loadFiles, openFolder, pickFolder, ROOT, readJsonlFile, waitReady } from "./helpers";

const NOECHO = path.join(GOLDEN_WA, "wa_noecho.jsonl");
const INPUTS = path.join(GOLDEN_WA, "wa_inputs.jsonl");
const Expected = z.object({
  contract: z.object({ reward: z.number().nullable() }),
  legacy: z.object({ reward: z.number().nullable() }),
});
const expected = readJsonlFile(path.join(GOLDEN_WA, "wa_noecho_expected.jsonl")).map((row) =>
  Expected.parse(row),
);

interface ShownRow {
  line: number;
  /** data-reward (the contract reward) or null when the row has none. */
  contract: string | null;
  unverified: string | null;
  legacy: string;
}

/** Every rendered row's line, contract reward (or unverified reason) and legacy cell (the list is virtualized). */
async function shownRewards(page: Page): Promise<ShownRow[]> {
  return page.locator("[data-testid=rollout-scroller] [data-line]").evaluateAll((rows) =>
    rows.map((row) => ({
      line: Number(row.getAttribute("data-line")),
      contract: row.getAttribute("data-reward"),
      unverified: row.getAttribute("data-unverified-reason"),
      legacy: row.querySelector("[data-col=legacy]")?.textContent ?? "",
    })),
  );
}

async function expectGoldenRewards(page: Page): Promise<void> {
  await expect(async () => {
    const rows = await shownRewards(page);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const want = expected[row.line - 1];
      expect(want, `line ${row.line}`).toBeDefined();
      const contract = want?.contract.reward ?? null;
      expect([row.line, row.contract, row.unverified === null, row.legacy]).toEqual([
        row.line,
        contract === null ? null : String(contract),
        contract !== null,
        formatReward(want?.legacy.reward),
      ]);
    }
  }).toPass();
}

test("inputs added after the rollouts update every visible reward", async ({ page }) => {
  await page.goto("/");
  await loadFiles(page, [NOECHO]);
  // Without their inputs these rollouts cannot be scored: every shown row says why instead of a reward,
  // under both policies.
  const before = await shownRewards(page);
  expect(before.length).toBeGreaterThan(5);
  const reasons: readonly string[] = Object.values(UNVERIFIED_LABEL);
  for (const row of before) {
    expect([row.contract, row.unverified !== null]).toEqual([null, true]);
    expect(reasons).toContain(row.legacy);
  }
  await loadFiles(page, [INPUTS]);
  await expect(page.locator("[data-dataset='wa_noecho.jsonl']")).toContainText(`${expected.length} paired`);
  await expectGoldenRewards(page);
});

test("rollouts added after an inputs file keep it", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("file-input").first().setInputFiles([INPUTS]);
  await expect(page.getByText("Only materialized inputs are loaded")).toBeVisible();
  await page.getByTestId("file-input").first().setInputFiles([NOECHO]);
  await waitReady(page);
  await expect(page.locator("[data-inputs='wa_inputs.jsonl']")).toBeVisible();
  await expect(page.locator("[data-dataset='wa_noecho.jsonl']")).toContainText(`${expected.length} paired`);
  await expectGoldenRewards(page);
});

test("a file opened in the inspector is offered on /compare, its open rollout in the what-if", async ({
  page,
}) => {
  await page.goto("/");
  await loadFiles(page, [path.join(GOLDEN_WA, "wa_rollouts.jsonl")]);
  await page.locator("[data-testid=rollout-scroller] [data-line='4']").click();
  await expect(page.locator("article[data-detail-line='4']")).toBeVisible();
  await page.getByTestId("compare-link").click();
  // The what-if of the rollout that was open: the same file (by its dataset id), the same line; the only
  // open file is the runs' A and B, not an unrelated bundled pair.
  await expect(page).toHaveURL(/\/compare\?tab=whatif&sample=(d-[^&]+)&line=4&a=\1&b=\1$/);
  await expect(page.getByTestId("whatif-file-select").locator("option:checked")).toHaveText(
    "wa_rollouts.jsonl",
  );
  await expect(page.getByTestId("whatif-line")).toHaveValue("4");
  await page.locator("[data-tab=runs]").click();
  await expect(page.locator("[data-picker='compare-a'] [data-loaded='wa_rollouts.jsonl']")).toBeVisible();
  const select = page.getByTestId("compare-b-select");
  // Offered by dataset id, shown by name.
  await expect(select.locator("option", { hasText: "wa_rollouts.jsonl" })).toHaveCount(1);
  await select.selectOption("wa_rollouts.jsonl");
  await expect(page.locator("[data-picker='compare-b'] [data-loaded='wa_rollouts.jsonl']")).toContainText(
    `${readJsonlFile(path.join(GOLDEN_WA, "wa_rollouts.jsonl")).length} rollouts`,
  );
});

test("with two rollouts files open, /compare's runs are those two, the shown one as A", async ({ page }) => {
  await page.goto("/");
  await loadFiles(page, [path.join(GOLDEN_WA, "wa_rollouts.jsonl"), NOECHO]);
  await page.locator("[data-dataset='wa_noecho.jsonl']").click();
  await waitReady(page);
  await page.getByTestId("compare-link").click();
  await page.locator("[data-tab=runs]").click();
  await expect(page.getByTestId("compare-a-select").locator("option:checked")).toHaveText("wa_noecho.jsonl");
  await expect(page.getByTestId("compare-b-select").locator("option:checked")).toHaveText(
    "wa_rollouts.jsonl",
  );
});

test("a reload reopens the tab's files, and a new tab offers them as recent files", async ({
  page,
  context,
}) => {
  await page.goto("/");
  await loadFiles(page, [NOECHO, INPUTS]);
  await expect(page.locator("[data-dataset='wa_noecho.jsonl']")).toContainText(`${expected.length} paired`);
  await page.reload();
  await waitReady(page);
  await expect(page.locator("[data-inputs='wa_inputs.jsonl']")).toBeVisible();
  await expect(page.locator("[data-dataset='wa_noecho.jsonl']")).toContainText(`${expected.length} paired`);
  await expectGoldenRewards(page);

  // Another tab starts empty (the open files are the tab's), and lists what this browser kept.
  const other = await context.newPage();
  await other.goto("/");
  const recent = other.getByTestId("recent-files");
  await expect(recent.locator("[data-recent='wa_noecho.jsonl']")).toBeVisible();
  await recent.locator("[data-recent='wa_noecho.jsonl']").first().click();
  await waitReady(other);
  await expect(other.getByTestId("rollout-count")).toHaveText(String(expected.length));
});

test("a reload after a folder names the folder to open again, rather than showing a part of it or nothing", async ({
  page,
}) => {
  // A page cannot reopen a folder (its files are not kept): Gym's xlam_fc folder, reloaded, once showed only
  // "Only materialized inputs are loaded" with no file open at all.
  const dir = path.join(ROOT, "fixtures/gym-examples/resources_servers/xlam_fc");
  await page.goto("/");
  await openFolder(page, dir);
  await expect(page.locator("[data-dataset='data/example_rollouts.jsonl']")).toBeVisible();
  await page.reload();
  const banner = page.getByTestId("folder-not-reopened");
  await expect(banner).toContainText("The folder xlam_fc was open before the reload");
  await expect(page.getByText("Only materialized inputs are loaded")).toHaveCount(0);
  await expect(page.getByTestId("link-needs-file")).toHaveCount(0);
  // Opened again from the banner's own button, the folder is back and the banner gone.
  await pickFolder(page, dir, banner.getByTestId("folder-input"));
  await waitReady(page);
  await expect(page.locator("[data-dataset='data/example_rollouts.jsonl']")).toBeVisible();
  await expect(banner).toHaveCount(0);
});

test("a bundled sample's fallback server comes back with it: rewards after a reload equal those before", async ({
  page,
  context,
}) => {
  // Multireward's example rollouts name no server (no environment_name; their declared tools fit two
  // verifiers): only the sample's declared server verifies them. They lack expected_call and pair no
  // inputs row, so each is unverified missing_field (a default is never scored, issue 17).
  const sample = "gym-example_tool_call_multireward-example_rollouts.jsonl";
  const lines = readJsonlFile(path.join(ROOT, "public/samples", sample)).length;
  const rewardsShown = async (p: Page) => {
    await expect(async () => {
      const rows = await shownRewards(p);
      expect(rows.map((row) => row.line)).toEqual(Array.from({ length: lines }, (_, i) => i + 1));
      expect(rows.every((row) => row.contract !== null || row.unverified !== null)).toBe(true);
    }).toPass();
    return shownRewards(p);
  };
  await page.goto(`/?sample=${sample}`);
  await waitReady(page);
  const before = await rewardsShown(page);
  expect(before.map((row) => [row.contract, row.unverified])).toEqual(
    Array.from({ length: lines }, () => [null, "missing_field"]),
  );

  // The same tab without ?sample= reopens its files from the origin-private file system...
  await page.goto("/");
  await waitReady(page);
  expect(await rewardsShown(page)).toEqual(before);

  // ...and so does a recent file reopened in another tab.
  const other = await context.newPage();
  await other.goto("/");
  await other.getByTestId("recent-files").locator(`[data-recent='${sample}']`).first().click();
  await waitReady(other);
  expect(await rewardsShown(other)).toEqual(before);
});
