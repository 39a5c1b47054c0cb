import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ROOT, waitReady } from "./helpers";

const SAMPLE = "workplace-edge-cases.jsonl";
const sampleLines = readFileSync(path.join(ROOT, "public/samples", SAMPLE), "utf8")
  .trim()
  .split("\n").length;

test("a bundled sample opens from the welcome page and from a URL", async ({ page }) => {
  await page.goto("/");
  await page.locator(`[data-sample='${SAMPLE}']`).click();
  await waitReady(page);
  await expect(page.getByTestId("rollout-count")).toHaveText(String(sampleLines));
  expect(new URL(page.url()).searchParams.get("sample")).toBe(SAMPLE);

  await page.goto(`/?sample=${SAMPLE}`);
  await waitReady(page);
  await expect(page.getByTestId("rollout-count")).toHaveText(String(sampleLines));
});

test("a sample's materialized inputs are loaded and paired with it", async ({ page }) => {
  await page.goto("/?sample=workplace-noecho.jsonl&line=1");
  await waitReady(page);
  await expect(page.locator("[data-inputs='workplace_materialized_inputs.jsonl']")).toBeVisible();
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-verified", "true");
  await expect(page.locator('[data-reward][data-policy="contract"]')).not.toHaveAttribute(
    "data-reward",
    "none",
  );
});

test("a deep link to a call survives a reload", async ({ page }) => {
  const link = `/?sample=${SAMPLE}&line=2&call=1&filter=mismatched`;
  await page.goto(link);
  await waitReady(page);
  for (let attempt = 0; attempt < 2; attempt++) {
    await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "2");
    await expect(page.locator("li[data-call-index][aria-current=true]")).toHaveAttribute(
      "data-call-index",
      "1",
    );
    await expect(
      page.locator("[data-testid=rollout-scroller] [data-line][aria-current=true]"),
    ).toHaveAttribute("data-line", "2");
    await expect(page.locator("[data-filter='mismatched']")).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator("#call-1")).toBeInViewport();
    if (attempt === 0) {
      await page.reload();
      await waitReady(page);
    }
  }
  // The old `filter=` chip parameter is now a clause of the one filter; the link keeps line and call, and
  // names the file it shows.
  const params = new URL(page.url()).searchParams;
  expect(params.get("line")).toBe("2");
  expect(params.get("call")).toBe("1");
  expect(params.get("f")).toBe("flag:mismatched");
  expect(params.get("filter")).toBeNull();
  expect(params.get("name")).toBe(SAMPLE);
});

test("the header links the open sample rollout to its harness what-if", async ({ page }) => {
  await page.goto(`/?sample=${SAMPLE}&line=3`);
  await waitReady(page);
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "3");
  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(/\/compare\?tab=whatif/);
  await expect(page.getByTestId("whatif-result")).toHaveAttribute("data-line", "3");
  await expect(page.getByTestId("whatif-table")).toBeVisible();
});
