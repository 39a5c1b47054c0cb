import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_FIXTURES, GOLDEN_WA, loadFiles, openLine, readJsonlFile, waitReady } from "./helpers";

test("loads a rollouts file through the file input", async ({ page }) => {
  await page.goto("/");
  await loadFiles(page, [path.join(GOLDEN_WA, "wa_rollouts.jsonl")]);
  const count = readJsonlFile(path.join(GOLDEN_WA, "wa_rollouts.jsonl")).length;
  await expect(page.getByTestId("rollout-count")).toHaveText(String(count));
  await expect(page.locator("[data-dataset='wa_rollouts.jsonl']")).toBeVisible();
  await expect(page.locator("[data-testid=rollout-scroller] [data-line='1']")).toBeVisible();
});

test("loads files dropped onto the page", async ({ page }) => {
  await page.goto("/");
  const text = readFileSync(path.join(GOLDEN_WA, "wa_rollouts.jsonl"), "utf8");
  const dataTransfer = await page.evaluateHandle((content) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([content], "dropped.jsonl", { type: "application/x-ndjson" }));
    return transfer;
  }, text);
  const target = page.getByTestId("drop-target");
  await target.dispatchEvent("dragover", { dataTransfer });
  await target.dispatchEvent("drop", { dataTransfer });
  await waitReady(page);
  await expect(page.locator("[data-dataset='dropped.jsonl']")).toBeVisible();
  await expect(page.getByTestId("rollout-count")).toHaveText(String(text.trim().split("\n").length));
});

test("gzip files are read in the browser", async ({ page }) => {
  const { gzipSync } = await import("node:zlib");
  const bytes = gzipSync(readFileSync(path.join(GOLDEN_WA, "wa_rollouts.jsonl")));
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles({
    name: "wa_rollouts.jsonl.gz",
    mimeType: "application/gzip",
    buffer: bytes,
  });
  await waitReady(page);
  await expect(page.getByTestId("rollout-count")).toHaveText(
    String(readJsonlFile(path.join(GOLDEN_WA, "wa_rollouts.jsonl")).length),
  );
});

test("malformed lines are listed with their line number while the good rows stay usable", async ({
  page,
}) => {
  await page.goto("/");
  await loadFiles(page, [path.join(E2E_FIXTURES, "malformed.jsonl")]);
  await expect(page.getByTestId("rollout-count")).toHaveText("4");
  await expect(page.getByTestId("error-count")).toHaveText("4");
  for (const line of [2, 4, 6, 7]) {
    await expect(page.locator(`[data-error-line='${line}']`)).toContainText(`line ${line}`);
  }
  await expect(page.locator("[data-error-line='2']")).toContainText("invalid JSON");
  await expect(page.locator("[data-error-line='7']")).toContainText("UTF-8");
  for (const line of [1, 3, 5, 8])
    await expect(page.locator(`[data-testid=rollout-scroller] [data-line='${line}']`)).toBeVisible();
  await openLine(page, 5);
  await expect(page.locator("li[data-call-index]").first()).toBeVisible();
});

test("a load in progress can be cancelled and leaves the page as it was", async ({ page }, testInfo) => {
  // About 60 MB: long enough to still be loading when cancel is clicked.
  const lines = readFileSync(path.join(GOLDEN_WA, "wa_rollouts.jsonl"), "utf8").trim().split("\n");
  const copies = 30;
  const big = testInfo.outputPath("big.jsonl");
  writeFileSync(big, `${Array.from({ length: copies }, () => lines.join("\n")).join("\n")}\n`);
  await page.goto("/");
  await loadFiles(page, [path.join(E2E_FIXTURES, "malformed.jsonl")]);
  await page.getByTestId("file-input").first().setInputFiles(big);
  const progress = page.getByTestId("load-progress");
  await expect(progress).toBeVisible();
  await progress.getByRole("button", { name: "cancel" }).click();
  await expect(progress).toBeHidden();
  // The previous file is still the one shown, and nothing reports an error.
  await expect(page.locator("[data-dataset='malformed.jsonl']")).toBeVisible();
  await expect(page.locator("[data-dataset='big.jsonl']")).toHaveCount(0);
  await expect(page.getByTestId("load-error")).toHaveCount(0);
  await expect(page.getByTestId("rollout-count")).toHaveText("4");
});

test("download gives back the original bytes of the line", async ({ page }) => {
  const file = path.join(GOLDEN_WA, "wa_rollouts.jsonl");
  const original = readFileSync(file).toString("utf8").split("\n")[2]!;
  await page.goto("/");
  await loadFiles(page, [file]);
  await openLine(page, 3);
  const download = page.waitForEvent("download");
  await page.getByTestId("download-line").click();
  const stream = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  expect(Buffer.concat(chunks).toString("utf8")).toBe(original);
  await page.getByRole("button", { name: "raw line" }).click();
  await expect(page.getByTestId("raw-line")).toHaveText(original);
});
