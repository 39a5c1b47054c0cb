/**
 * /compare by task: two runs with Gym's repeats (k rollouts of each task) compared task by task, the tasks
 * B scores lower listed first, as `cli compare` says them.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { waitCompared } from "./compare-helpers";

/** A run of `perTask` recorded rewards per task, one rollout per line. */
function run(dir: string, name: string, perTask: number[][]): string {
  const lines = perTask.flatMap((rewards, task) =>
    rewards.map((reward, k) =>
      JSON.stringify({ _ng_task_index: task, _ng_rollout_index: k, response: { output: [] }, reward }),
    ),
  );
  const file = path.join(dir, name);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

test("two runs with repeats are compared by task: the tasks B scores lower first", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "compare-tasks-"));
  const a = run(dir, "http.jsonl", [
    [1, 1, 1, 1],
    [1, 0, 0, 0],
    [0, 0, 1, 1],
    [1, 1, 0, 0],
  ]);
  const b = run(dir, "mcp.jsonl", [
    [1, 0, 0, 0],
    [1, 1, 0, 0],
    [0, 0, 1, 1],
    [1, 1, 1, 0],
  ]);
  await page.goto("/compare");
  await waitCompared(page);
  await page.getByTestId("compare-a-file").setInputFiles(a);
  await page.getByTestId("compare-b-file").setInputFiles(b);
  await expect(page.getByTestId("compare-result")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("compare-tasks-summary")).toHaveText(
    "4 tasks, 4 with several rollouts paired: over the paired rollouts, B's mean reward is lower on 1, higher on 2, the same on 1.",
  );
  const rows = page.getByTestId("compare-tasks-table").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toHaveAttribute("data-task", "task 0");
  await expect(rows.first().locator("td")).toHaveText([
    "task 0",
    "4",
    "4 / 4",
    "1 / 4",
    "1.0000",
    "0.2500",
    "−0.7500",
  ]);
  await page.screenshot({ path: test.info().outputPath("compare-tasks.png"), fullPage: true });
});
