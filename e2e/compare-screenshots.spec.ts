import { expect, test } from "@playwright/test";
import { waitCompared } from "./compare-helpers";
import { screenshotPath } from "./helpers";

/** Screenshots for review (e2e/screenshots/compare-*.png with UPDATE_SCREENSHOTS=1): the three /compare tabs (and runs with materialized inputs), light and dark. */
for (const scheme of ["light", "dark"] as const) {
  test(`compare screenshots, ${scheme} mode`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });

    await page.goto("/compare?pair=4");
    await waitCompared(page);
    await expect(page.getByTestId("alignment")).toBeVisible();
    await page.screenshot({ path: screenshotPath(`compare-runs-${scheme}.png`) });

    // A run without echoed task fields, verified with its bundled materialized inputs.
    await page.goto("/compare?a=workplace-noecho.jsonl&b=workplace-noecho.jsonl");
    await waitCompared(page);
    await expect(page.getByTestId("compare-b-inputs")).toHaveAttribute("data-paired", /\d+/);
    await page.screenshot({ path: screenshotPath(`compare-inputs-${scheme}.png`) });

    await page.goto("/compare?tab=whatif&sample=compare-http.jsonl&line=5");
    await expect(page.getByTestId("whatif-table")).toBeVisible();
    await page.screenshot({ path: screenshotPath(`compare-whatif-${scheme}.png`) });

    await page.goto("/compare?tab=repair");
    await expect(page.getByTestId("repair-server-0")).toHaveValue("workplace_assistant");
    await page.getByTestId("repair-run").click();
    await expect(page.getByTestId("repair-table")).toBeVisible();
    await page.screenshot({ path: screenshotPath(`compare-repair-${scheme}.png`) });
  });
}
