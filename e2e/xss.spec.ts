import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_FIXTURES, loadFiles, openLine } from "./helpers";

test("model-generated text is shown as text and never executed", async ({ page }) => {
  const dialogs: string[] = [];
  const consoleHits: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  page.on("console", (message) => {
    if (message.text().includes("xss-executed")) consoleHits.push(message.text());
  });
  await page.goto("/");
  await loadFiles(page, [path.join(E2E_FIXTURES, "xss.jsonl")]);
  for (const line of [1, 2, 3]) {
    await openLine(page, line);
    // Open everything that is folded: prompt, fields, raw line, verifier details.
    await page.getByRole("button", { name: /show prompt/ }).click();
    await page.locator("details").evaluateAll((elements) => {
      for (const element of elements) element.setAttribute("open", "");
    });
    await page.getByRole("button", { name: "raw line" }).click();
    await expect(page.getByTestId("raw-line")).toContainText("<script>");
    await expect(page.locator("article[data-detail-line] [data-testid=msg-text]").first()).toContainText(
      "<script>window.__xss=1",
    );
    await expect(page.locator("li[data-call-index]").first()).toContainText(
      '<img src=x onerror="window.__xss=1">',
    );
  }
  // Rendered as text: the payloads created no elements.
  expect(
    await page
      .locator(
        "article[data-detail-line] img, article[data-detail-line] svg, article[data-detail-line] a[href^='javascript']",
      )
      .count(),
  ).toBe(0);
  expect(
    await page
      .locator("script:not([src])")
      .evaluateAll((s) => s.filter((e) => e.textContent?.includes("__xss")).length),
  ).toBe(0);
  expect(await page.evaluate(() => Reflect.get(window, "__xss"))).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(consoleHits).toEqual([]);
});

test("the page is served with a nonce-based CSP and the worker still runs", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto("/");
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).toContain("worker-src 'self' blob:");
  await loadFiles(page, [path.join(E2E_FIXTURES, "malformed.jsonl")]);
  await openLine(page, 1);
  expect(violations).toEqual([]);
});
