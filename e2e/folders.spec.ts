/**
 * Gym's example folders opened as a new user would: the folder picker (`folder-input`, webkitdirectory).
 * Every file shows its role and why; the folder's configs route every line (server source "config"); every
 * line has a reward, a reason code or a per-line kind; the rewards Gym recorded are reproduced where the
 * folder holds what its verifier reads; a changed role plans the folder again.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  cli,
  expectRoles,
  openFolder,
  pickFolder,
  ROOT,
  readJsonlFile,
  folderRows as rows,
  unfoldFolderPanel,
  waitReady,
} from "./helpers";

const SERVERS = path.join(ROOT, "fixtures/gym-examples/resources_servers");

const RecordedSchema = (value: unknown): number | null => {
  if (typeof value !== "object" || value === null || !("reward" in value)) return null;
  return typeof value.reward === "number" ? value.reward : null;
};

/** What Done-when asks of each of the six ported servers' folders. */
const EXPECTED: Record<string, "recorded" | "one" | "missing_field"> = {
  example_multi_step: "recorded",
  example_tool_call_multireward: "recorded",
  example_mcp_weather: "one",
  workplace_assistant: "missing_field",
  math_advanced_calculations: "missing_field",
  indirect_prompt_injection: "missing_field",
};

for (const [server, want] of Object.entries(EXPECTED)) {
  test(`${server} opened as a folder: roles, config routing, an answer for every line`, async ({ page }) => {
    const dir = path.join(SERVERS, server);
    await page.goto("/");
    await openFolder(page, dir);

    // Every file is listed with its role and why, in a table that starts folded: every file is recognised.
    const panel = page.getByTestId("folder-panel");
    await expect(panel).not.toHaveAttribute("open");
    await unfoldFolderPanel(page);
    await expectRoles(page, {
      "data/example_rollouts.jsonl": "rollouts",
      "data/example.jsonl": "inputs",
      "data/example_metrics.json": "metrics",
    });
    // Each file's why reads whole: the table fits its panel (a long path in a reason wraps, not cut off).
    const fit = await panel.evaluate((el) => {
      const table = el.querySelector("table");
      return {
        panel: el.getBoundingClientRect().right,
        table: table?.getBoundingClientRect().right ?? Infinity,
      };
    });
    expect(fit.table).toBeLessThanOrEqual(fit.panel + 0.5);
    const configs = panel.locator("[data-folder-file^='configs/']");
    expect(await configs.count()).toBeGreaterThan(0);
    for (const role of await configs.evaluateAll((els) => els.map((el) => el.getAttribute("data-role"))))
      expect(role).toBe("config");

    const recorded = readJsonlFile(path.join(dir, "data/example_rollouts.jsonl")).map(RecordedSchema);
    const listed = await rows(page);
    const kinds = await page.locator("[data-error-line]").count();
    // Every line: a row (a reward or a reason code) or a per-line kind.
    expect(listed.length + kinds).toBe(recorded.length);
    for (const row of listed) {
      expect(row.reward !== null || row.reason !== null, `line ${row.line}`).toBe(true);
      // The configs route every line: never no_server, and the source says config.
      expect(row.reason).not.toBe("no_server");
      expect(row.source, `line ${row.line}`).toBe("config");
      expect(row.server).toBe(server);
    }
    if (want === "recorded") {
      // Paired as Gym's request model reads the task rows: the recorded rewards, with nothing chosen.
      for (const row of listed) expect(row.reward, `line ${row.line}`).toBe(String(recorded[row.line - 1]));
    } else if (want === "one") {
      expect(listed.map((r) => r.reward)).toEqual(["1", "1", "1", "1", "1"]);
    } else {
      for (const row of listed) expect(row.reason, `line ${row.line}`).toBe("missing_field");
      // The sentence says the line did not pair with the open task rows and why, never "open the inputs".
      await page.locator("[data-testid=rollout-scroller] [data-line]").first().click();
      const detail = page.locator("article[data-detail-line]");
      await expect(detail).toHaveAttribute("data-verified", "true");
      await expect(detail).toContainText("did not pair with the open inputs");
      // The closest row is named as the CLI names it (lib/verify rowLabel): its file and line.
      await expect(detail).toContainText("The closest is data/example.jsonl line");
      await expect(detail).not.toContainText("open the materialized inputs file");
    }
    // The verifying server's source reads as the folder's config.
    await page.locator("[data-testid=rollout-scroller] [data-line]").first().click();
    await expect(page.locator("p.server-source[data-server-source='config']")).toContainText("Gym config");
    // Gym's own numbers beside ours.
    await expect(page.getByTestId("gym-metrics")).toContainText("example_metrics.json");
    // The CLI that gives the same rows reads the folder (its configs route the lines), not the file alone.
    await expect(page.getByTestId("export-cli")).toHaveText(
      `npm run --silent cli -- triage '${server}' --format csv`,
    );
    // Its report is the folder's, named after it (every Gym folder's rollouts file is example_rollouts.jsonl).
    const [report] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("export-report").click(),
    ]);
    expect(report.suggestedFilename()).toBe(`${server}-report.html`);
  });
}

test("per-line kinds: a placeholder row says what it is, never invalid JSON", async ({ page }) => {
  await page.goto("/");
  await openFolder(page, path.join(SERVERS, "tavily_search"));
  const placeholder = page.locator("[data-error-line][data-kind='placeholder']");
  await expect(placeholder.first()).toContainText("placeholder");
  await expect(placeholder.first()).not.toContainText("invalid JSON");
});

test("changing a file's role plans the folder again: pairing and routing follow", async ({ page }) => {
  await page.goto("/");
  await openFolder(page, path.join(SERVERS, "example_mcp_weather"));
  const panel = page.getByTestId("folder-panel");
  await unfoldFolderPanel(page);
  const rowsBefore = await rows(page);
  expect(rowsBefore.every((r) => r.source === "config")).toBe(true);

  // The config set aside: the lines are no longer routed by it.
  await panel
    .locator("[data-folder-file='configs/example_mcp_weather.yaml'] [data-testid='role-select']")
    .selectOption("ignore");
  await expectRoles(page, {
    "configs/example_mcp_weather.yaml": "ignore",
  });
  await waitReady(page);
  // The CLI line that gives the same rows carries the role chosen here.
  await expect(page.getByTestId("export-cli")).toHaveText(
    "npm run --silent cli -- triage 'example_mcp_weather' --role 'configs/example_mcp_weather.yaml=ignore' --format csv",
  );
  await expect.poll(async () => (await rows(page)).map((r) => r.source)).not.toContain("config");

  // The task rows set aside too: nothing pairs, and the inputs chip is gone.
  await panel
    .locator("[data-folder-file='data/example.jsonl'] [data-testid='role-select']")
    .selectOption("ignore");
  await waitReady(page);
  await expect(page.locator("[data-inputs]")).toHaveCount(0);

  // Both back: routed by the config again, paired, 5 of 5 at 1.0.
  await panel
    .locator("[data-folder-file='configs/example_mcp_weather.yaml'] [data-testid='role-select']")
    .selectOption("config");
  await panel
    .locator("[data-folder-file='data/example.jsonl'] [data-testid='role-select']")
    .selectOption("inputs");
  await waitReady(page);
  await expect(page.locator("[data-inputs]")).toHaveCount(1);
  await expect
    .poll(async () => (await rows(page)).map((r) => `${r.source} ${r.reward}`))
    .toEqual(Array(5).fill("config 1"));
});

/** The comparison lines `cli verify DIR` prints on stderr for Gym's metrics files. */
function cliMetricsLines(dir: string): string[] {
  return cli(["verify", dir])
    .stderr.split("\n")
    .filter((line) => /^[^:]+: Gym's (dataset|aggregate) metrics (of |\()/.test(line));
}

test("Gym's own numbers beside ours: each figure, Gym's value, ours and the difference, as `cli verify DIR` says", async ({
  page,
}) => {
  // iheval's example_metrics.json says every row has one user turn; the example.jsonl it ships has a row
  // with two. Its one row that declares tools (one) agrees, as Gym counts tools.
  const dir = path.join(SERVERS, "iheval");
  await page.goto("/");
  await openFolder(page, dir);
  const panel = page.getByTestId("gym-metrics");
  await expect(panel).toContainText("difference");
  await expect(panel).toHaveJSProperty("open", true);
  const row = panel.locator("tbody tr[data-metric='Number of turns Max']");
  await expect(row.locator("td")).toHaveText([
    "Number of turns Max",
    "resources_servers/iheval/data/example.jsonl",
    "1",
    "2",
    "differs by 1 (data/example.jsonl)",
  ]);
  await expect(panel.locator("tbody tr[data-metric='Number of tools Average'] td").nth(4)).toHaveText(
    "the same (data/example.jsonl)",
  );
  await expect(panel.locator("tbody tr[data-metric='Number of examples'] td").nth(4)).toHaveText(
    "the same (data/example.jsonl)",
  );
  // The page's sentence is the CLI's, word for word.
  const summary = await panel.getByTestId("metrics-summary").textContent();
  expect(cliMetricsLines(dir)).toEqual([
    `data/example_metrics.json: ${summary} (2 figures not recomputed here)`,
  ]);

  // A folder whose figures all agree says so, closed.
  await page.goto("/");
  await openFolder(page, path.join(SERVERS, "example_multi_step"));
  await expect(page.getByTestId("gym-metrics")).toContainText(": 21 recomputed figures agree");
  await expect(page.getByTestId("gym-metrics")).toHaveJSProperty("open", false);
});

test("a folder dropped onto the page is read recursively, as the picker reads it", async ({ page }) => {
  const dir = path.join(SERVERS, "example_tool_call_multireward");
  await page.goto("/");
  await expect(page.getByTestId("folder-input").first()).toHaveJSProperty("webkitdirectory", true);
  // A real drop of a directory from the operating system, through Chromium's input domain: the page gets
  // DataTransfer items whose entries (webkitGetAsEntry) are the directory's, as when a person drops it.
  const cdp = await page.context().newCDPSession(page);
  const box = await page.getByTestId("drop-target").boundingBox();
  if (box === null) throw new Error("no drop target");
  const at = { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 200) };
  const data = { items: [], files: [dir], dragOperationsMask: 1 };
  for (const type of ["dragEnter", "dragOver", "drop"] as const)
    await cdp.send("Input.dispatchDragEvent", { type, ...at, data });
  await waitReady(page);

  const panel = page.getByTestId("folder-panel");
  await expect(panel).toContainText("Folder example_tool_call_multireward");
  await expectRoles(page, {
    "data/example_rollouts.jsonl": "rollouts",
    "data/example.jsonl": "inputs",
  });
  const configs = panel.locator("[data-folder-file^='configs/']");
  expect(await configs.count()).toBeGreaterThan(0);
  // Routed by the folder's config and paired: the recorded rewards, nothing chosen.
  const recorded = readJsonlFile(path.join(dir, "data/example_rollouts.jsonl")).map(RecordedSchema);
  await expect
    .poll(async () => (await rows(page)).map((r) => `${r.source} ${r.reward}`))
    .toEqual(recorded.map((reward) => `config ${reward}`));
});

test("pairing and tasks as Gym has them: aviary says why it is not paired, code_gen's tasks are its rows, structeval's metrics once", async ({
  page,
}) => {
  // aviary: the lines carry task_idx (the agent's /seed_session index), never a key Gym pairs on.
  await page.goto("/");
  await openFolder(page, path.join(SERVERS, "aviary"));
  const cells = page.locator("[data-testid=rollout-scroller] [data-line] [data-task]");
  await expect(cells).toHaveText(Array(5).fill("not paired"));
  await page.locator("[data-testid=rollout-scroller] [data-line]").first().click();
  const reason = page.getByTestId("pairing-reason");
  await expect(reason).toContainText("the line has no (_ng_task_index, _ng_rollout_index)");
  await expect(reason).toContainText("differing in task_idx");
  await expect(reason).toContainText("never guessed");

  // code_gen: no index, paired by equal input: each line's task is its row of example.jsonl, and pass@k
  // counts 5 tasks, as `cli triage` does.
  await page.goto("/");
  await openFolder(page, path.join(SERVERS, "code_gen"));
  await expect.poll(async () => new Set(await cells.allTextContents()).size).toBe(5);
  // The narrow cell says which row ("row 3"); the whole label, file included, is its title and data-task.
  for (const text of await cells.allTextContents()) expect(text).toMatch(/^row [1-5]$/);
  for (const task of await cells.evaluateAll((els) => els.map((el) => el.getAttribute("title"))))
    expect(task).toMatch(/^data\/example\.jsonl line [1-5]$/);
  await page.getByTestId("run-metrics").locator("summary").click();
  await expect(page.locator("[data-metric='pass-at-1']").locator("..")).toHaveAttribute(
    "title",
    "5 tasks with ≥ 1 rollouts",
  );

  // structeval: one example_metrics.json beside two rollouts files goes with example_rollouts.jsonl only.
  await page.goto("/");
  await openFolder(page, path.join(SERVERS, "structeval"));
  await page.locator("[data-dataset='data/example_rollouts.jsonl']").click();
  await expect(page.getByTestId("gym-metrics")).toContainText("example_metrics.json");
  await page.locator("[data-dataset='data/structeval_nonrenderable_example_rollouts.jsonl']").click();
  await waitReady(page);
  await expect(page.getByTestId("gym-metrics")).toHaveCount(0);
});

test("a folder without a JSONL file shows its files and says none holds rollouts, not the landing page", async ({
  page,
}) => {
  // Only Gym configs: nothing to list, but the folder panel says what each file is.
  const dir = mkdtempSync(path.join(tmpdir(), "configs-only-"));
  mkdirSync(path.join(dir, "configs"));
  copyFileSync(
    path.join(SERVERS, "example_mcp_weather/configs/example_mcp_weather.yaml"),
    path.join(dir, "configs/example_mcp_weather.yaml"),
  );
  await page.goto("/");
  await pickFolder(page, dir);
  await expect(page.getByText("No file of this folder holds rollouts")).toBeVisible();
  await expect(page.getByTestId("folder-panel")).toBeVisible();
});

test("a folder line's harness what-if is verified by the server the folder's config routes it to", async ({
  page,
}) => {
  // Gym's example_mcp_weather rollouts name no environment_name: only the config names their server.
  await page.goto("/");
  await openFolder(page, path.join(SERVERS, "example_mcp_weather"));
  await page.locator("[data-testid=rollout-scroller] [data-line='1']").click();
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "1");
  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(/\/compare\?tab=whatif/);
  await expect(page.getByTestId("whatif-result")).toHaveAttribute("data-line", "1");
  await expect(page.getByTestId("whatif-table")).toBeVisible();
  const server = page.getByTestId("whatif-server");
  await expect(server).toHaveText("verifier sees (example_mcp_weather)");
  await expect(server).toHaveAttribute("title", /the configs' only agent, .*, calls example_mcp_weather/);
});

test("/compare verifies a folder's run as the inspector does: its config's server, its task rows", async ({
  page,
}) => {
  await page.goto("/");
  await openFolder(page, path.join(SERVERS, "example_mcp_weather"));
  const listed = await rows(page);
  expect(listed.length).toBeGreaterThan(0);
  expect(listed.every((r) => r.reward !== null && r.reward !== "none")).toBe(true);

  await page.getByTestId("compare-link").click();
  await page.locator("[data-tab=runs]").click();
  // The folder's rollouts file, offered by its dataset id, as both runs.
  const option = page.getByTestId("compare-a-select").locator("option[value^='d-']", {
    hasText: "data/example_rollouts.jsonl",
  });
  const id = await option.getAttribute("value");
  expect(id).toMatch(/^d-/);
  await page.getByTestId("compare-a-select").selectOption(id ?? "");
  await page.getByTestId("compare-b-select").selectOption(id ?? "");
  await expect(page.getByTestId("compare-result")).toHaveAttribute("data-ready", "true");
  // Its task rows come with it, as the inspector paired them.
  await expect(page.getByTestId("compare-a-inputs")).toHaveAttribute("data-inputs", /example\.jsonl$/);
  await expect(page.getByTestId("compare-a-inputs")).toHaveAttribute("data-paired", String(listed.length));
  const pairs = page.locator("[data-testid=pair-table] tr[data-verdict]");
  await expect(pairs).toHaveCount(listed.length);
  const shown = await pairs.evaluateAll((trs) =>
    trs.map((tr) => ({
      line: Number(tr.getAttribute("data-a-line")),
      reward: tr.getAttribute("data-a-reward"),
    })),
  );
  for (const pair of shown)
    expect(pair.reward, `line ${pair.line}`).toBe(listed.find((r) => r.line === pair.line)?.reward);

  // A folder's files are not kept for a reload: the picker says so, without the dataset id the URL holds.
  await page.reload();
  const picker = page.locator("[data-picker='compare-a']");
  await expect(picker).toContainText("A file chosen here before is no longer open");
  await expect(picker).not.toContainText(id ?? "");
});

test("/compare never reads an unscored or call-free difference as the names': math without its fields, structeval's text runs", async ({
  page,
}) => {
  // math_advanced_calculations' folder lacks the fields its verifier reads: nothing is recomputed.
  await page.goto("/");
  await openFolder(page, path.join(SERVERS, "math_advanced_calculations"));
  await page.getByTestId("compare-link").click();
  await expect(page.getByTestId("whatif-table")).toBeVisible();
  await expect(page.getByTestId("whatif-verdict")).toHaveAttribute("data-scored", "false");
  await expect(page.getByTestId("whatif-verdict")).toContainText("No reward could be computed");
  await expect(page.getByTestId("whatif-table")).not.toContainText("= HTTP");
  // Gym's example rows there are other tasks than its rollouts': the page says the line found no row.
  await expect(page.getByTestId("whatif-input")).toHaveAttribute("data-paired", "false");
  // Named under its folder, as the pickers name it.
  await expect(page.getByTestId("whatif-input")).toContainText(
    "Task row in math_advanced_calculations/data/example.jsonl: Not paired",
  );
  // Why it did not pair is said once, not again at the end of the unverified line's sentence.
  const verdict = (await page.getByTestId("whatif-verdict").textContent()) ?? "";
  expect(verdict).toContain("it did not pair with the open inputs.");
  expect(verdict.split("Not paired:").length - 1).toBe(1);

  await page.locator("[data-tab=runs]").click();
  const option = page.getByTestId("compare-a-select").locator("option[value^='d-']", {
    hasText: "data/example_rollouts.jsonl",
  });
  const id = (await option.getAttribute("value")) ?? "";
  await page.getByTestId("compare-a-select").selectOption(id);
  await page.getByTestId("compare-b-select").selectOption(id);
  await expect(page.getByTestId("compare-result")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("reward-parity")).toHaveAttribute("data-recomputed", "0");
  await expect(page.getByTestId("reward-parity")).toContainText("no pair had both rewards recomputed");
  await expect(page.locator("[data-verdict-badge][data-basis=recorded]").first()).toContainText("(recorded)");

  // structeval's two runs answer in text, with no tool call: their different rewards are not the names'.
  const structeval = await page.context().newPage();
  await structeval.goto("/");
  await openFolder(structeval, path.join(SERVERS, "structeval"));
  await structeval.getByTestId("compare-link").click();
  await structeval.locator("[data-tab=runs]").click();
  const pick = async (side: "a" | "b", name: string) => {
    const value = await structeval
      .getByTestId(`compare-${side}-select`)
      .locator("option[value^='d-']", { hasText: name })
      .first()
      .getAttribute("value");
    await structeval.getByTestId(`compare-${side}-select`).selectOption(value ?? "");
  };
  await pick("a", "data/example_rollouts.jsonl");
  await pick("b", "structeval_nonrenderable_example_rollouts.jsonl");
  await expect(structeval.getByTestId("compare-result")).toHaveAttribute("data-ready", "true");
  await expect(structeval.getByTestId("identity-bugs")).toHaveAttribute("data-count", "0");
  // Its lines have no verifier port here: that is said once above the pairs, not on every row.
  await expect(structeval.getByTestId("pair-errors")).toContainText("pairs could not be verified here");
  await expect(structeval.locator("[data-pair-errors]").first()).toContainText("see above the table");
  const differing = structeval.locator("[data-verdict-badge=identity-bug]");
  expect(await differing.count()).toBeGreaterThan(0);
  for (const badge of await differing.all())
    await expect(badge).toHaveAttribute("title", /Here not the names/);
  // A pair opened: no what-if to offer without a call; its files' paths as written (innerText applies CSS case).
  await structeval.locator("[data-testid=pair-table] tr[data-verdict]").first().click();
  const alignment = structeval.getByTestId("alignment");
  await expect(alignment).toBeVisible();
  // biome-ignore lint/performance/useDomNodeTextContent: innerText applies CSS text-transform, what is tested here
  expect(await alignment.innerText()).toContain("structeval_nonrenderable_example_rollouts.jsonl");
  await expect(structeval.getByTestId("pair-whatif")).toHaveCount(0);
});

test("Gym's whole resources_servers/ tree: one select of its rollouts files, and the inspector below it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await openFolder(page, SERVERS);
  // 86 rollouts files: a chip each filled the window and left the list no height.
  const select = page.getByTestId("file-select").getByRole("combobox");
  await expect(select).toBeVisible();
  const options = await select.locator("option").count();
  expect(options).toBeGreaterThan(50);
  await expect(page.locator("button[data-dataset-id]")).toHaveCount(0);
  // The header leaves the inspector the window (it had 0 px); its list is reached by scrolling its pane.
  const main = await page.locator("main[data-ready]").boundingBox();
  expect(main?.height ?? 0).toBeGreaterThan(600);
  // What each file is read with is folded: one line per file put the list 6,300 px down its pane.
  const table = await page.getByTestId("rollout-table").boundingBox();
  expect(table?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(2000);
  const row = page.locator("[data-testid=rollout-scroller] [data-line]").first();
  await row.scrollIntoViewIfNeeded();
  await expect(row).toBeInViewport();
  // Another file chosen in the select is the one the list shows.
  const second = await select.locator("option").nth(1).getAttribute("value");
  await select.selectOption(second ?? "");
  await expect.poll(() => new URL(page.url()).searchParams.get("file")).toBe(second);
  await expect(select).toHaveValue(second ?? "");
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]").first()).toBeAttached();
});

test("a folder whose only JSONL lines are no rollouts (Gym's bbq: records with a reward, no response) says so", async ({
  page,
}) => {
  await page.goto("/");
  await pickFolder(page, path.join(SERVERS, "bbq"));
  await expect(page.getByTestId("rollout-table")).toContainText("No line of this file is a rollout");
  await expect(page.getByTestId("rollout-table")).not.toContainText("No rollout matches these filters");
  await expect(page.getByText("Select a rollout on the left")).toHaveCount(0);
  await expect(page.getByTestId("line-errors")).toContainText("not a rollout");
});

test("where no port verifies the zeros, the breakdown says what Gym's verifier recorded on them, as `cli triage` does (Gym's image_tools)", async ({
  page,
}) => {
  const dir = path.join(SERVERS, "image_tools");
  const triage = cli(["triage", dir]);
  const heading = triage.stdout.split("\n").find((line) => line.startsWith("What Gym's verifier wrote"));
  expect(heading).toBeDefined();
  await page.goto("/");
  await openFolder(page, dir);
  const recorded = page.getByTestId("triage-recorded");
  // Every zero of this run is one no port verifies: the section is open, its heading the CLI's.
  await expect(recorded).toHaveJSProperty("open", true);
  await expect(recorded.locator("summary")).toHaveText(heading ?? "");
  const reason = recorded.locator("[data-field='failure_reason']");
  await expect(reason).toContainText('above 0: "none" ×2');
  // A value narrows the list to the zeros with it: line 5 is the one tool_name_mismatch.
  const mismatch = reason.locator("button[data-value='\"tool_name_mismatch\"']");
  await mismatch.click();
  await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", "1");
  await expect.poll(async () => (await rows(page)).map((r) => r.line)).toEqual([5]);
  expect(new URL(page.url()).searchParams.get("f")).toBe(
    "recorded:..0 verifier:failure_reason=tool_name_mismatch",
  );
  await expect(mismatch).toHaveAttribute("aria-pressed", "true");
  // The counts stay the run's, and say so while a value is chosen.
  await expect(recorded.locator("summary")).toHaveText(heading ?? "");
  await expect(page.getByTestId("triage-recorded-chosen")).toBeVisible();
  // Again: every rollout.
  await mismatch.click();
  await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", "5");
});

test("a folder of several runs: the whole folder's answer sums them as `cli triage DIR` does, and a file's line shows it", async ({
  page,
}) => {
  // Three of Gym's folders as Gym ships them, configs included: each run's server is known.
  const dir = mkdtempSync(path.join(tmpdir(), "runs-"));
  for (const server of ["image_tools", "swebench", "example_multi_step"])
    cpSync(path.join(SERVERS, server), path.join(dir, server), { recursive: true });
  const triage = cli(["triage", dir]);
  const said = triage.stdout.split("\n");
  await page.goto("/");
  await openFolder(page, dir);
  const whole = page.getByTestId("folder-triage");
  await expect(whole).toHaveAttribute("data-files", "3");
  await expect(page.getByTestId("folder-triage-headline")).toHaveText(said[0] ?? "");
  // Each cause with rollouts, as the CLI counts it.
  for (const row of await whole.locator("[data-testid=folder-triage-causes] tbody tr").all()) {
    const cause = await row.getAttribute("data-cause");
    const n = await row.getAttribute("data-count");
    expect(said.some((line) => new RegExp(`^  ${cause} +${n} `).test(line))).toBe(true);
  }
  // Each server's fields apart, named as the CLI names them.
  const headings = said.filter((line) => line.includes("What Gym's verifier wrote"));
  expect(headings).toHaveLength(2);
  // Several verifiers are folded behind one line that counts them.
  await expect(whole.getByTestId("folder-triage-recorded-summary")).toContainText("2 verifiers");
  await whole.getByTestId("folder-triage-recorded-summary").click();
  await expect(whole.locator("[data-testid=folder-triage-recorded] > p:first-child")).toHaveText(headings);
  const means = said.filter((line) => line.startsWith("mean reward:") || line.startsWith("pass@k"));
  await expect(page.getByTestId("folder-triage-means")).toHaveText(means.join("; "));
  // Each file's line shows that file; the folder's answer stays.
  const swebench = whole.locator("[data-file='swebench/data/example_rollouts.jsonl']");
  await expect(swebench).toHaveAttribute("data-zero", "4");
  // A short window: the file's own panels, below the folder's table, are brought into view.
  await page.setViewportSize({ width: 1280, height: 560 });
  await expect(page.getByTestId("file-section")).not.toBeInViewport();
  await swebench.getByRole("button").click();
  // Its top at the list pane's top (clicking the row alone scrolls only the row into view).
  const pane = page.locator("[data-testid=list-pane]");
  await expect
    .poll(async () => {
      const section = await page.getByTestId("file-section").boundingBox();
      const top = await pane.boundingBox();
      return section === null || top === null ? null : Math.round(section.y - top.y);
    })
    .toBe(0);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(swebench.getByRole("button")).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("triage")).toHaveAttribute("data-zero", "4");
  await expect(page.getByTestId("folder-triage-headline")).toHaveText(said[0] ?? "");
  // A file's CSV is the folder's rows, named after the folder, as `cli triage DIR --format csv` writes them
  // (the paths in next steps are the folder's here, the command line's there).
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-csv").click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${path.basename(dir)}-rows.csv`);
  const csv = readFileSync((await download.path()) ?? "", "utf8");
  expect(csv).toBe(cli(["triage", dir, "--format", "csv"]).stdout.replaceAll(`${dir}/`, ""));
  expect(csv.startsWith("file,line,")).toBe(true);
  // A cause of the folder's table: each file's count of it, and a file opens on just those rollouts.
  const firstCause = whole.locator("[data-testid=folder-triage-causes] tbody tr").first();
  const causeName = (await firstCause.getAttribute("data-cause")) ?? "";
  await firstCause.getByTestId("folder-cause").click();
  const withIt = whole.locator("[data-cause-count]:not([data-cause-count='0'])").first();
  const inFile = Number(await withIt.getAttribute("data-cause-count"));
  await withIt.locator("xpath=..").getByRole("button").click();
  await expect(page).toHaveURL(new RegExp(`f=[^&]*cause%3A${causeName}`));
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]")).toHaveCount(inFile);
  // The cause set aside, a file opens without it (it lingered, listing nothing in a file without it).
  await firstCause.getByTestId("folder-cause").click();
  await swebench.getByRole("button").click();
  await expect(page).not.toHaveURL(/cause%3A/);
  await expect(page.getByTestId("triage")).toHaveAttribute("data-zero", "4");
});

test("files picked together with their Gym config are read as a folder of them: the config routes the lines, as `cli triage` on a folder of those files", async ({
  page,
}) => {
  const dir = path.join(SERVERS, "example_multi_step");
  const picked = ["data/example_rollouts.jsonl", "configs/example_multi_step.yaml", "data/example.jsonl"];
  await page.goto("/");
  await page
    .getByTestId("file-input")
    .first()
    .setInputFiles(picked.map((p) => path.join(dir, p)));
  await waitReady(page);
  await expect(page.getByTestId("folder-panel").locator("summary")).toContainText(
    "Files picked together, read as a folder: 3 files, 1 rollouts file",
  );
  const recorded = readJsonlFile(path.join(dir, "data/example_rollouts.jsonl")).map(RecordedSchema);
  const listed = await rows(page);
  expect(listed.length).toBe(recorded.length);
  for (const row of listed) {
    expect(row.source, `line ${row.line}`).toBe("config");
    expect(row.server).toBe("example_multi_step");
    expect(row.reward, `line ${row.line}`).toBe(String(recorded[row.line - 1]));
  }
  // The CLI reads them as a folder holding only them: the page cannot name one, so the command says DIR.
  await expect(page.getByTestId("export-cli")).toHaveText("npm run --silent cli -- triage DIR --format csv");
  const folder = mkdtempSync(path.join(tmpdir(), "picked-"));
  for (const p of picked) copyFileSync(path.join(dir, p), path.join(folder, path.basename(p)));
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-csv").click(),
  ]);
  const csv = readFileSync(await download.path(), "utf8");
  expect(csv).toBe(cli(["triage", folder, "--format", "csv"]).stdout);
});
