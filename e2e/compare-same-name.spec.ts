/**
 * /compare names an opened file by its dataset id, not its name (issue 9): two files called the same are
 * two choices ("run.jsonl #1", "run.jsonl #2"), each selectable on either side, each comparing its own rows.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { SAMPLES, waitCompared } from "./compare-helpers";

const NAME = "run.jsonl";

function lines(sample: string): string[] {
  return readFileSync(path.join(SAMPLES, sample), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** Two files of the same name in two folders: the HTTP run, and the first lines of the Claude Code run. */
function twoFilesNamedAlike(): { first: string; second: string; rows: [number, number] } {
  const dir = mkdtempSync(path.join(tmpdir(), "compare-same-name-"));
  const http = lines("compare-http.jsonl");
  const claude = lines("compare-mcp-claude.jsonl").slice(0, 5);
  expect(http.length).not.toBe(claude.length);
  const write = (folder: string, rows: string[]) => {
    mkdirSync(path.join(dir, folder));
    const file = path.join(dir, folder, NAME);
    writeFileSync(file, `${rows.join("\n")}\n`);
    return file;
  };
  return { first: write("one", http), second: write("two", claude), rows: [http.length, claude.length] };
}

const loaded = (page: Page, side: "a" | "b") => page.locator(`[data-picker='compare-${side}'] [data-loaded]`);

test("two opened files with the same name are two choices, each selectable on either side", async ({
  page,
}) => {
  const { first, second, rows } = twoFilesNamedAlike();
  await page.goto("/compare");
  await waitCompared(page);
  await page.getByTestId("compare-a-file").setInputFiles(first);
  await expect(loaded(page, "a")).toContainText(`${rows[0]} rollouts`);
  await page.getByTestId("compare-b-file").setInputFiles(second);
  await expect(loaded(page, "b")).toContainText(`${rows[1]} rollouts`);

  // Both pickers offer both files, told apart by their opening order.
  for (const side of ["a", "b"] as const) {
    const select = page.getByTestId(`compare-${side}-select`);
    await expect(select.locator("option", { hasText: `${NAME} #1` })).toHaveCount(1);
    await expect(select.locator("option", { hasText: `${NAME} #2` })).toHaveCount(1);
  }
  const a = new URL(page.url()).searchParams.get("a");
  const b = new URL(page.url()).searchParams.get("b");
  expect(a).toMatch(/^d-/);
  expect(b).toMatch(/^d-/);
  expect(a).not.toBe(b);
  await expect(page.getByTestId("compare-result")).toHaveAttribute("data-ready", "true");

  // Swap them through the pickers: each side now compares the other file's rows.
  await page.getByTestId("compare-a-select").selectOption({ label: `${NAME} #2` });
  await expect(loaded(page, "a")).toContainText(`${rows[1]} rollouts`);
  await page.getByTestId("compare-b-select").selectOption({ label: `${NAME} #1` });
  await expect(loaded(page, "b")).toContainText(`${rows[0]} rollouts`);
  await expect(page).toHaveURL(new RegExp(`[?&]a=${b}`));
  await expect(page).toHaveURL(new RegExp(`[?&]b=${a}`));

  // A reload keeps both: the URL names ids, and the store restores the tab's files.
  await page.reload();
  await expect(loaded(page, "a")).toContainText(`${rows[1]} rollouts`);
  await expect(loaded(page, "b")).toContainText(`${rows[0]} rollouts`);
});
