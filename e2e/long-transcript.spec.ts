/**
 * A transcript longer than a browser lets one element be (issue 23): 100k calls with a reasoning item before
 * each are 200k items, 33.6M px at the row estimate, past Chromium's height limit, where n showed item 740
 * instead of the call it selected. The rows are estimated to fit (components/virtual.ts MAX_LIST_PX).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { line, realisticLongRollout, rollout } from "../scripts/gen-hostile";

test("n and p on a 200k-item transcript show the call they select", async ({ page }) => {
  test.setTimeout(240_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "long-transcript-")), "reasoning-100k.jsonl");
  writeFileSync(
    file,
    line(rollout([{ name: "email_reply_email" }], {}, 1)) +
      line(
        realisticLongRollout(100_000, {
          harness: "hermes-legacy",
          distinctArguments: false,
          reasoning: true,
        }),
      ),
  );
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles(file);
  await page.locator("main[data-ready][data-rewarded='true']").waitFor({ timeout: 180_000 });
  await page.locator("[data-line='2']").click();
  const detail = page.locator("article[data-detail-line='2']");
  await detail.locator("[data-transcript-call]").first().waitFor({ timeout: 60_000 });
  await expect(detail.locator("[data-testid=transcript-space]")).toHaveAttribute("data-items", "200001");
  for (const [key, call] of [
    ["n", 0],
    ["n", 1],
    ["n", 2],
    ["p", 1],
  ] as const) {
    await page.keyboard.press(key);
    await expect(detail.locator("li[data-call-index][aria-current=true]")).toHaveAttribute(
      "data-call-index",
      String(call),
    );
    await expect(page.locator(`#call-${call}`)).toHaveAttribute("aria-current", "true");
    await expect(page.locator(`#call-${call}`)).toBeInViewport();
  }
});
