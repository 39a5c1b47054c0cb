import { expect, test } from "@playwright/test";

test("home page renders in Chromium", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Rollout Inspector" })).toBeVisible();
});
