/**
 * The Live page against NeMo Gym's real workplace_assistant server (started by run.ts, URL in GYM_URL):
 * connect, parity, and every golden workplace rollout replayed through both doors and verified on the
 * server under both policies. Writes what it read from the page to GYM_LIVE_BROWSER_OUT for the summary.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";

const GYM_URL = process.env.GYM_URL ?? "";
const OUT = process.env.GYM_LIVE_BROWSER_OUT ?? "";
const ROLLOUTS = fileURLToPath(
  new URL("../../fixtures/golden/workplace-rollouts/wa_rollouts.jsonl", import.meta.url),
);

test("live mode against Gym's own server, in Chromium", async ({ page }) => {
  expect(GYM_URL, "run through npm run test:gym-live").not.toBe("");
  await page.goto("/live");
  await page.getByTestId("live-url").fill(GYM_URL);
  await page.getByTestId("live-connect-button").click();
  const parity = page.getByTestId("live-parity");
  await expect(parity).toHaveAttribute("data-tools", "27");
  await expect(parity).toHaveAttribute("data-differences", "0");
  await expect(page.getByTestId("live-signature")).toContainText("not checked");
  const connect = {
    parity: (await page.getByTestId("live-parity-summary").textContent())?.trim() ?? "",
    protocol: await page.getByTestId("live-protocol").textContent(),
    sessionId: await page.getByTestId("live-session-id").textContent(),
    replies: await page.getByTestId("live-replies").textContent(),
    deleteOnClose: await page.getByTestId("live-delete").textContent(),
    allowedTools: await page.getByTestId("live-allowed-tools").textContent(),
  };

  await page.getByTestId("live-file").setInputFiles(ROLLOUTS);
  await expect(page.getByTestId("live-file-summary")).toContainText("114 rollouts");
  await page.getByTestId("live-policy").selectOption("both");
  const started = Date.now();
  await page.getByTestId("live-run-all").click();
  const progress = page.getByTestId("live-progress");
  await expect(progress).toHaveAttribute("data-running", "false", { timeout: 540_000 });
  await expect(progress).toHaveAttribute("data-done", "228");
  const seconds = (Date.now() - started) / 1000;

  const rows = await page.locator("[data-result-line]").evaluateAll((els) =>
    els.map((el) => ({
      line: Number(el.getAttribute("data-result-line")),
      policy: el.getAttribute("data-result-policy"),
      verdict: el.getAttribute("data-verify-verdict"),
      browser: el.getAttribute("data-browser-reward"),
      server: el.getAttribute("data-server-reward"),
    })),
  );
  const tallies = await page.locator("[data-tally-policy]").evaluateAll((els) =>
    els.map((el) => ({
      policy: el.getAttribute("data-tally-policy"),
      rollouts: Number(el.getAttribute("data-rollouts")),
      differs: Number(el.getAttribute("data-differs")),
      failed: Number(el.getAttribute("data-failed")),
      disagree: Number(el.getAttribute("data-disagree")),
      cells: [...el.querySelectorAll("td")].map((td) => td.textContent),
    })),
  );
  expect(rows).toHaveLength(228);
  for (const t of tallies) {
    expect(t.rollouts).toBe(114);
    expect(t.differs).toBe(0);
    expect(t.failed).toBe(0);
  }
  expect(tallies.find((t) => t.policy === "legacy")?.disagree).toBe(0);
  if (OUT !== "") writeFileSync(OUT, JSON.stringify({ connect, seconds, rows, tallies }, null, 1));
});
