import { expect, test } from "@playwright/test";
import { screenshotPath, waitReady } from "./helpers";

/** Screenshots for review (committed in e2e/screenshots/ when run with UPDATE_SCREENSHOTS=1): the welcome page and a busy rollout, light and dark. */
for (const scheme of ["light", "dark"] as const) {
  test(`screenshots, ${scheme} mode`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/");
    await expect(page.locator("[data-sample]").first()).toBeVisible();
    await page.screenshot({ path: screenshotPath(`welcome-${scheme}.png`) });

    await page.goto("/?sample=workplace-edge-cases.jsonl&line=2");
    await waitReady(page);
    await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-verified", "true");
    await expect(page.locator("[data-outcome-policy]")).toHaveAttribute("data-outcome-policy", "contract");
    await page.screenshot({ path: screenshotPath(`inspector-${scheme}.png`) });

    await page.goto("/?sample=workplace-edge-cases.jsonl&line=2&call=1");
    await waitReady(page);
    await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-verified", "true");
    await expect(page.locator("[data-transcript-call] pre .code-line > span").first()).toBeVisible();
    await page.screenshot({ path: screenshotPath(`call-${scheme}.png`) });

    await page.goto("/?sample=workplace-harnesses.jsonl&filter=changed&line=22");
    await waitReady(page);
    await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-verified", "true");
    // 1 under the contract, 0 under the legacy policy: the calls' badges are the legacy replay's, and say so.
    await expect(page.locator("[data-outcome-policy]")).toHaveText(
      "what each did in the legacy policy's replay, the one that scored 0",
    );
    await page.screenshot({ path: screenshotPath(`changed-${scheme}.png`) });
  });
}
