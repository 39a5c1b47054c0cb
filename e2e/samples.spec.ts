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

test("the welcome page says while the samples are being listed", async ({ page }) => {
  // Held until the test lets it go: the list's own moment, which a fast server makes too short to see.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/samples/index.json", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/");
  await expect(page.getByTestId("samples-pending")).toContainText("Listing the bundled samples");
  release();
  await expect(page.locator(`[data-sample='${SAMPLE}']`)).toBeVisible();
  await expect(page.getByTestId("samples-pending")).toHaveCount(0);
});

test("where the samples' index answers 404, the pages say so and files still open", async ({ page }) => {
  await page.route("**/samples/index.json", (route) => route.fulfill({ status: 404, body: "gone" }));
  await page.goto("/");
  await expect(page.getByTestId("samples-error")).toContainText(
    "The bundled samples could not be listed: /samples/index.json answered HTTP 404.",
  );
  await page.goto(`/?sample=${SAMPLE}`);
  await expect(page.getByTestId("unknown-sample")).toContainText("could not be listed");
  await expect(page.getByTestId("unknown-sample")).toContainText(SAMPLE);

  // /compare offers no sample, and a file opened there still compares.
  await page.goto("/compare");
  await expect(page.getByTestId("samples-error")).toContainText("Open or drop your own files");
  const file = path.join(ROOT, "public/samples", SAMPLE);
  await page.getByTestId("compare-a-file").setInputFiles(file);
  await page.getByTestId("compare-b-file").setInputFiles(file);
  await expect(page.getByTestId("compare-result")).toHaveAttribute("data-ready", "true");
  await expect(page.locator("[data-testid=pair-table] tr[data-verdict]")).toHaveCount(sampleLines);
});
