/**
 * /compare with materialized inputs: workplace-noecho.jsonl carries no task fields, so its rewards can only
 * be recomputed with the rows of workplace_materialized_inputs.jsonl. Expected rewards are computed here
 * with lib/verify from the files, pairing each rollout with its input row by Gym's indices.
 */
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { narrowing } from "../lib/schemas/test-helpers";
import { verifyRollout as verifyRolloutTyped } from "../lib/verify";
import { readRows, SAMPLES, waitCompared } from "./compare-helpers";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const verifyRollout = narrowing(verifyRolloutTyped);

const NOECHO = "workplace-noecho.jsonl";
const INPUTS = "workplace_materialized_inputs.jsonl";

type Row = ReturnType<typeof readRows>[number];
const key = (row: Row) => `${row._ng_task_index}:${row._ng_rollout_index}`;

/** pair key -> the contract reward of the rollout verified with its input row. */
function expectedRewards(): Map<string, number> {
  const inputs = new Map(readRows(path.join(SAMPLES, INPUTS)).map((row) => [key(row), row]));
  const rewards = new Map<string, number>();
  for (const rollout of readRows(path.join(SAMPLES, NOECHO))) {
    const input = inputs.get(key(rollout));
    expect(input, `an input row for ${key(rollout)}`).toBeDefined();
    const result = verifyRollout(rollout, { policy: "contract", input });
    if (result.reward === null) throw new Error(`${key(rollout)} does not verify: ${result.error}`);
    rewards.set(key(rollout), result.reward);
  }
  return rewards;
}

/** A picked local file: the URL keeps its dataset id (two files may share a name), the picker shows its name. */
async function expectPicked(page: Page, side: "a" | "b", name: string, inputs: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`[?&]${side}=d-`));
  await expect(page).toHaveURL(new RegExp(`[?&]${side}i=d-`));
  await expect(page.locator(`[data-picker='compare-${side}'] [data-loaded='${name}']`)).toBeVisible();
  await expect(page.getByTestId(`compare-${side}-inputs`)).toHaveAttribute("data-inputs", inputs);
}

async function expectInputsHeader(page: Page, side: "a" | "b", name: string, rows: number): Promise<void> {
  const header = page.getByTestId(`compare-${side}-inputs`);
  await expect(header).toHaveAttribute("data-inputs", name);
  await expect(header).toHaveAttribute("data-rows", String(rows));
  await expect(header).toHaveAttribute("data-paired", String(rows));
  await expect(header).toContainText(`${rows} of ${rows} rollouts paired`);
}

/** Every pair: same verdict, both recomputed rewards numbers equal to the test's own verify. */
async function expectPairsVerified(page: Page, expected: Map<string, number>): Promise<void> {
  await waitCompared(page);
  const rows = page.locator("[data-testid=pair-table] tr[data-verdict]");
  await expect(rows).toHaveCount(expected.size);
  const shown = await rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      pair: tr.getAttribute("data-pair"),
      verdict: tr.getAttribute("data-verdict"),
      a: tr.getAttribute("data-a-reward"),
      b: tr.getAttribute("data-b-reward"),
    })),
  );
  for (const row of shown) {
    const reward = expected.get(row.pair ?? "");
    expect(reward, `pair ${row.pair} is one of the file's`).toBeDefined();
    expect(row.verdict, `pair ${row.pair}`).toBe("same");
    expect(Number(row.a), `A reward of ${row.pair}`).toBe(reward);
    expect(Number(row.b), `B reward of ${row.pair}`).toBe(reward);
  }
  expect(new Set(shown.map((r) => r.pair))).toEqual(new Set(expected.keys()));
}

test.describe("compare with materialized inputs", () => {
  test("via the URL: ai=/bi= name the inputs; without them each pair fails to verify", async ({ page }) => {
    const expected = expectedRewards();
    const rows = expected.size;
    await page.goto(`/compare?a=${NOECHO}&b=${NOECHO}&ai=${INPUTS}&bi=${INPUTS}`);
    await expectPairsVerified(page, expected);
    await expectInputsHeader(page, "a", INPUTS, rows);
    await expectInputsHeader(page, "b", INPUTS, rows);

    // ai=none&bi=none: no inputs, so no reward can be recomputed (the rollouts carry no task fields).
    await page.goto(`/compare?a=${NOECHO}&b=${NOECHO}&ai=none&bi=none`);
    await waitCompared(page);
    await expect(page.getByTestId("compare-a-inputs")).toHaveAttribute("data-inputs", "");
    await expect(page.locator("[data-testid=pair-table] tr[data-verdict]")).toHaveCount(rows);
    const rewards = await page
      .locator("[data-testid=pair-table] tr[data-verdict]")
      .evaluateAll((trs) =>
        trs.flatMap((tr) => [tr.getAttribute("data-a-reward"), tr.getAttribute("data-b-reward")]),
      );
    expect(rewards).toHaveLength(rows * 2);
    expect(rewards.every((r) => r === "none")).toBe(true);
  });

  test("choosing the bundled rollouts sample loads the inputs its description names", async ({ page }) => {
    const expected = expectedRewards();
    await page.goto("/compare");
    await waitCompared(page);
    await page.getByTestId("compare-a-select").selectOption(NOECHO);
    await page.getByTestId("compare-b-select").selectOption(NOECHO);
    await expectPairsVerified(page, expected);
    await expectInputsHeader(page, "a", INPUTS, expected.size);
    await expectInputsHeader(page, "b", INPUTS, expected.size);
    // Automatic pairing is the default, so the URL names no inputs.
    await expect(page).not.toHaveURL(/[?&][ab]i=/);

    // Turned off for B: compareRuns takes one inputs map (as the CLI's --inputs), so A's verifies B too,
    // and B's header says so.
    await page.getByTestId("compare-b-inputs-select").selectOption("");
    await expect(page).toHaveURL(/bi=none/);
    const bHeader = page.getByTestId("compare-b-inputs");
    await expect(bHeader).toHaveAttribute("data-inputs", "");
    await expect(bHeader).toHaveAttribute("data-shared-from", "a");
    await expect(bHeader).toContainText(`A's ${INPUTS}`);
    await expectPairsVerified(page, expected);
    // Off for both: nothing can be recomputed (the rollouts carry no task fields).
    await page.getByTestId("compare-a-inputs-select").selectOption("");
    await expect(page).toHaveURL(/ai=none/);
    await expect(page.locator("tr[data-verdict][data-a-reward=none][data-b-reward=none]")).toHaveCount(
      expected.size,
    );
  });

  test("via file picking: a rollouts file and its inputs picked together, in either order", async ({
    page,
  }) => {
    const expected = expectedRewards();
    // Local names unlike the bundled samples', so nothing bundled can stand in for them.
    const dir = mkdtempSync(path.join(tmpdir(), "compare-inputs-"));
    const local = (from: string, to: string) => {
      const target = path.join(dir, to);
      copyFileSync(path.join(SAMPLES, from), target);
      return target;
    };
    const runA = local(NOECHO, "run-a.jsonl");
    const inputsA = local(INPUTS, "run-a-inputs.jsonl");
    const runB = local(NOECHO, "run-b.jsonl");
    const inputsB = local(INPUTS, "run-b-inputs.jsonl");

    await page.goto("/compare");
    await waitCompared(page);
    await page.getByTestId("compare-a-file").setInputFiles([runA, inputsA]);
    await expectPicked(page, "a", "run-a.jsonl", "run-a-inputs.jsonl");
    await page.getByTestId("compare-b-file").setInputFiles([inputsB, runB]);
    await expectPicked(page, "b", "run-b.jsonl", "run-b-inputs.jsonl");
    await expectPairsVerified(page, expected);
    await expectInputsHeader(page, "a", "run-a-inputs.jsonl", expected.size);
    await expectInputsHeader(page, "b", "run-b-inputs.jsonl", expected.size);

    // The what-if of a pair's B line uses B's inputs: its HTTP reward is the verified one.
    const first = page.locator("tr[data-verdict]").first();
    const pair = (await first.getAttribute("data-pair")) ?? "";
    await first.click();
    await page.getByTestId("pair-whatif").click();
    await expect(page.getByTestId("whatif-result")).toBeVisible();
    await expect(page.getByTestId("whatif-file-inputs")).toHaveAttribute("data-inputs", "run-b-inputs.jsonl");
    await expect(page.getByTestId("whatif-http")).toHaveAttribute("data-reward", String(expected.get(pair)));
  });

  test("dropped together: two runs and one inputs file, which serves both", async ({ page }) => {
    const expected = expectedRewards();
    const files = [
      { name: "drop-inputs.jsonl", text: readFileSync(path.join(SAMPLES, INPUTS), "utf8") },
      { name: "drop-a.jsonl", text: readFileSync(path.join(SAMPLES, NOECHO), "utf8") },
      { name: "drop-b.jsonl", text: readFileSync(path.join(SAMPLES, NOECHO), "utf8") },
    ];
    await page.goto("/compare");
    await waitCompared(page);
    const dataTransfer = await page.evaluateHandle((list) => {
      const transfer = new DataTransfer();
      for (const f of list) transfer.items.add(new File([f.text], f.name, { type: "application/x-ndjson" }));
      return transfer;
    }, files);
    const target = page.getByTestId("drop-target");
    await target.dispatchEvent("dragover", { dataTransfer });
    await target.dispatchEvent("drop", { dataTransfer });
    await expectPicked(page, "a", "drop-a.jsonl", "drop-inputs.jsonl");
    await expectPicked(page, "b", "drop-b.jsonl", "drop-inputs.jsonl");
    await expectPairsVerified(page, expected);
    await expectInputsHeader(page, "a", "drop-inputs.jsonl", expected.size);
    await expectInputsHeader(page, "b", "drop-inputs.jsonl", expected.size);
  });
});
