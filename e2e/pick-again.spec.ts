/**
 * A local file picked again (issue #22, "Follow a run"): when it is the open file grown, its new lines join
 * that file with their rewards (same file id, rows numbered on); a different file of the same name opens as a
 * new file. The same file input is set twice with different contents, as a user re-picking a file that a run
 * keeps writing.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { GOLDEN_WA, readJsonlFile, waitReady } from "./helpers";

const whole = readFileSync(path.join(GOLDEN_WA, "wa_noecho.jsonl"));
const inputs = readFileSync(path.join(GOLDEN_WA, "wa_inputs.jsonl"));
const lineEnds = [...whole.entries()].flatMap(([at, byte]) => (byte === 0x0a ? [at + 1] : []));
const expected = readJsonlFile(path.join(GOLDEN_WA, "wa_noecho_expected.jsonl")) as {
  contract: { reward: number };
}[];

function runFile(bytes: Buffer) {
  return { name: "run.jsonl", mimeType: "application/x-ndjson", buffer: bytes };
}

async function pick(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.getByTestId("file-input").first().setInputFiles(files);
  await waitReady(page);
}

const chip = (page: Page) => page.locator("[data-dataset='run.jsonl']");
const row = (page: Page, line: number) =>
  page.locator(`[data-testid=rollout-scroller] [data-line='${line}']`);

test("a file picked again: grown, its new lines join it with their rewards; changed, it opens anew", async ({
  page,
}) => {
  await page.goto("/");
  await pick(page, [
    { name: "wa_inputs.jsonl", mimeType: "application/x-ndjson", buffer: inputs },
    runFile(whole.subarray(0, lineEnds[2])),
  ]);
  await expect(chip(page)).toHaveCount(1);
  await expect(chip(page).getByTestId("chip-counts")).toContainText("3 rollouts");
  const id = await chip(page).getAttribute("data-dataset-id");
  await expect(row(page, 3)).toHaveAttribute("data-reward", String(expected[2]?.contract.reward));
  await expect(row(page, 4)).toHaveCount(0);

  // The same file, grown by the run: the open file gains the new lines, each with its reward.
  await pick(page, [runFile(whole)]);
  await expect(chip(page)).toHaveCount(1);
  await expect(chip(page)).toHaveAttribute("data-dataset-id", id ?? "");
  await expect(chip(page).getByTestId("chip-counts")).toContainText(`${lineEnds.length} rollouts`);
  for (const line of [1, 4, 5, 6]) {
    await expect(row(page, line)).toHaveAttribute("data-reward", String(expected[line - 1]?.contract.reward));
  }

  // A different file of the same name (its first bytes changed): a new file, read from its start.
  await pick(page, [runFile(Buffer.concat([Buffer.from("{}\n"), whole]))]);
  await expect(chip(page)).toHaveCount(1);
  await expect(chip(page)).not.toHaveAttribute("data-dataset-id", id ?? "");
  await expect(chip(page).getByTestId("chip-counts")).toContainText(
    `${lineEnds.length} rollouts · 1 unreadable line`,
  );
  await expect(row(page, 1)).toHaveCount(0);
  await expect(row(page, 2)).toBeVisible();
});
