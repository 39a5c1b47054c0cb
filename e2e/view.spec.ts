/**
 * `cli view DIR`: the app and a folder served on 127.0.0.1 with a token, and a run followed while it writes.
 * The server is started here (its own free port) on this worktree's production build, which the Playwright
 * web server has just made.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { startFakeGym } from "../lib/live/test-helpers";
import {
  expectRoles,
  folderRows,
  GOLDEN_WA,
  loadFiles,
  openFolder,
  openLine,
  ROOT,
  readJsonlFile,
  unfoldFolderPanel,
  waitReady,
} from "./helpers";

/** The product requirement: an appended line shows with its reward within this long (issue #22). */
const FOLLOW_TARGET_MS = 2000;
/**
 * This test fails only when the target is clearly exceeded (several times over): on the shared 2-core
 * machine other jobs' load stretches any wall-clock figure. The measured time is reported with the test.
 */
const FOLLOW_FAIL_MS = 3 * FOLLOW_TARGET_MS;

/** Every `view` process started here (stopped after the tests). */
const views: ChildProcess[] = [];
let url: URL;
let port: number;
let token: string;
let dir: string;
let base: string;
const rolloutLines = readFileSync(path.join(GOLDEN_WA, "wa_noecho.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean);
const expected = readJsonlFile(path.join(GOLDEN_WA, "wa_noecho_expected.jsonl")) as {
  contract: { reward: number };
}[];

test.beforeAll(async () => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "view-e2e-")));
  dir = path.join(base, "run");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "rollouts.jsonl"), `${rolloutLines.slice(0, 3).join("\n")}\n`);
  writeFileSync(path.join(dir, "inputs.jsonl"), readFileSync(path.join(GOLDEN_WA, "wa_inputs.jsonl")));
  writeFileSync(path.join(base, "secret.txt"), "not to be served\n");
  symlinkSync(path.join(base, "secret.txt"), path.join(dir, "escape.jsonl"));
  url = await startView(dir);
  port = Number(url.port);
  token = url.searchParams.get("token") ?? "";
});

/** A copy of one of Gym's example folders (resources_servers/<server>) under the tests' temporary folder. */
function gymFolderCopy(name: string, server: string): string {
  const copy = path.join(base, name);
  cpSync(path.join(ROOT, "fixtures/gym-examples/resources_servers", server), copy, { recursive: true });
  return copy;
}

/**
 * Gym's example_multi_step folder with a second run of its tasks (its rollouts copied to
 * data/second_rollouts.jsonl), served and open in `page`; resolves with the copy's path.
 */
async function servedTwoRuns(page: Page, name: string): Promise<string> {
  const copy = gymFolderCopy(name, "example_multi_step");
  cpSync(path.join(copy, "data/example_rollouts.jsonl"), path.join(copy, "data/second_rollouts.jsonl"));
  await page.goto((await startView(copy)).toString());
  await waitReady(page);
  return copy;
}

/** A run folder under the tests' temporary folder: `rollouts.jsonl` of the first `lines` golden lines. */
function runFolder(name: string, lines: number): string {
  const folder = path.join(base, name);
  mkdirSync(folder);
  writeFileSync(path.join(folder, "rollouts.jsonl"), `${rolloutLines.slice(0, lines).join("\n")}\n`);
  return folder;
}

/** Starts `cli view DIR --port N` (0: a free one); resolves with the URL it printed. */
async function startView(folder: string, listen = 0): Promise<URL> {
  // Its own process group, so the whole tree (npx, tsx, node) is stopped after the tests.
  const child = spawn("npx", ["tsx", "cli/main.ts", "view", folder, "--port", String(listen)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  views.push(child);
  const printed = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`view printed no URL:\n${out}`)), 90_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/\?\S+/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on("exit", (code) => reject(new Error(`view exited ${code}:\n${out}`)));
  });
  return new URL(printed);
}

/** Stops a `view` started here (its whole process group), if it still runs. */
function stopView(view: ChildProcess | undefined): void {
  if (view?.pid === undefined || view.exitCode !== null || view.signalCode !== null) return;
  try {
    process.kill(-view.pid, "SIGINT");
  } catch {
    // Already gone.
  }
}

test.afterAll(() => {
  for (const view of views) stopView(view);
  rmSync(base, { recursive: true, force: true });
});

/** A raw request (the Host header is ours to set, unlike fetch's). */
function raw(pathname: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: pathname, headers }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => {
        body += c.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const host = () => `127.0.0.1:${port}`;

test("a request without the token is refused", async () => {
  expect((await raw("/", { host: host() })).status).toBe(403);
  expect((await raw("/view-api/files", { host: host() })).status).toBe(403);
  expect((await raw("/view-api/file?path=rollouts.jsonl", { host: host() })).status).toBe(403);
  expect((await raw("/view-api/files", { host: host(), "x-view-token": token })).status).toBe(200);
});

test("a request with another Host is refused, token or not (DNS rebinding)", async () => {
  for (const other of [
    `attacker.example:${port}`,
    "attacker.example",
    `127.0.0.1.attacker.example:${port}`,
  ]) {
    const answer = await raw("/view-api/files", { host: other, "x-view-token": token });
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain("rollouts.jsonl");
  }
});

test("a path with .. is refused", async () => {
  for (const outside of ["../secret.txt", "../run/../secret.txt", "sub/../../secret.txt"]) {
    const answer = await raw(`/view-api/file?path=${encodeURIComponent(outside)}`, {
      host: host(),
      "x-view-token": token,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).not.toContain("not to be served");
  }
  // The raw path form, too: it reaches the app, never a file.
  const dotted = await raw("/view-api/../../secret.txt", { host: host(), "x-view-token": token });
  expect(dotted.body).not.toContain("not to be served");
});

test("a symlink out of the folder is refused", async () => {
  const answer = await raw("/view-api/file?path=escape.jsonl", { host: host(), "x-view-token": token });
  expect(answer.status).toBe(403);
  expect(answer.body).not.toContain("not to be served");
});

test("the printed URL opens the folder; an appended line shows with its reward", async ({ page }) => {
  await page.goto(url.toString());
  // The token leaves the address bar at once (the cookie carries it).
  await expect(page).not.toHaveURL(/token=/);
  await waitReady(page);
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]")).toHaveCount(3);
  await expect(page.locator("[data-testid=rollout-scroller] [data-line='2']")).toHaveAttribute(
    "data-reward",
    String(expected[1]?.contract.reward),
  );
  await expect(page.getByTestId("follow-state")).toBeVisible();

  // Half a line first: it waits for its line break.
  const fourth = rolloutLines[3] ?? "";
  appendFileSync(path.join(dir, "rollouts.jsonl"), fourth.slice(0, 100));
  await expect(page.getByTestId("follow-state")).toContainText("waits for its line break");
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]")).toHaveCount(3);
  // The run's answer says the line is left out of its counts, not only the file's banner.
  await expect(page.getByTestId("triage-headline")).toContainText(
    "· 1 line still being written, not counted",
  );

  const started = Date.now();
  appendFileSync(path.join(dir, "rollouts.jsonl"), `${fourth.slice(100)}\n`);
  const row = page.locator("[data-testid=rollout-scroller] [data-line='4']");
  await expect(row.locator("[data-rewards='done']")).toBeVisible({ timeout: FOLLOW_FAIL_MS });
  const elapsed = Date.now() - started;
  test.info().annotations.push({
    type: "follow",
    description: `appended line shown with its reward after ${elapsed} ms (target ${FOLLOW_TARGET_MS} ms)`,
  });
  console.log(
    `view follow: appended line with its reward after ${elapsed} ms (target ${FOLLOW_TARGET_MS} ms)`,
  );
  await expect(row).toHaveAttribute("data-reward", String(expected[3]?.contract.reward));

  // A rollout marked for the report before the file is rewritten.
  await openLine(page, 2);
  await page.getByTestId("mark-rollout").check();
  await expect(page.getByTestId("export-report")).toHaveText("Report (1 marked)");

  // Truncated: said, and the rows read stay as they were.
  writeFileSync(path.join(dir, "rollouts.jsonl"), `${rolloutLines[0]}\n`);
  await expect(page.getByTestId("follow-problem")).toContainText("shrank");
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]")).toHaveCount(4);
  // Read again: its line 2 is not the rollout marked (it is gone here), so the mark is dropped, not moved.
  await page.getByTestId("follow-read-again").click();
  await waitReady(page);
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]")).toHaveCount(1);
  await expect(page.getByTestId("export-report")).toHaveText("Report");
  // Put back for the tests after this one.
  writeFileSync(path.join(dir, "rollouts.jsonl"), `${rolloutLines.slice(0, 3).join("\n")}\n`);
});

test("a served Gym folder is opened as the folder picker opens it: roles, config routing, pairing, metrics", async ({
  page,
}) => {
  const copy = gymFolderCopy("example_multi_step", "example_multi_step");
  const recorded = readJsonlFile(path.join(copy, "data/example_rollouts.jsonl")).map((row) =>
    typeof row === "object" && row !== null && "reward" in row ? String(row.reward) : null,
  );

  // The folder picker's answer on the app the tests build.
  await page.goto("/");
  await openFolder(page, copy);
  const picked = await folderRows(page);

  // The same folder served.
  await page.goto((await startView(copy)).toString());
  await waitReady(page);
  await expectRoles(page, {
    "data/example_rollouts.jsonl": "rollouts",
    "data/example.jsonl": "inputs",
    "configs/example_multi_step.yaml": "config",
  });
  const served = await folderRows(page);
  expect(served).toEqual(picked);
  expect(served.length).toBe(recorded.length);
  for (const row of served) {
    expect(row.server).toBe("example_multi_step");
    expect(row.source).toBe("config");
    // Paired with the folder's task rows as Gym's request model reads them: the rewards Gym recorded.
    expect(row.reward, `line ${row.line}`).toBe(recorded[row.line - 1]);
  }
  await expect(page.getByTestId("gym-metrics")).toContainText("example_metrics.json");
});

test("a served Gym folder whose files end without a line break (workplace_assistant) reads every line, as picked", async ({
  page,
}) => {
  const copy = gymFolderCopy("workplace_assistant", "workplace_assistant");
  await page.goto("/");
  await openFolder(page, copy);
  const picked = await folderRows(page);
  expect(picked.length).toBe(readJsonlFile(path.join(copy, "data/example_rollouts.jsonl")).length);
  await page.goto((await startView(copy)).toString());
  await waitReady(page);
  expect(await folderRows(page)).toEqual(picked);
  await expect(page.getByTestId("follow-state")).not.toContainText("waits for its line break");
});

test("reading a served folder again keeps the roles chosen in it and the rollouts marked", async ({
  page,
}) => {
  const copy = gymFolderCopy("roles-run", "example_multi_step");
  await page.goto((await startView(copy)).toString());
  await waitReady(page);
  await unfoldFolderPanel(page);
  await page
    .getByTestId("folder-panel")
    .locator("[data-folder-file='data/example.jsonl'] [data-testid='role-select']")
    .selectOption("ignore");
  await expectRoles(page, { "data/example.jsonl": "ignore" });
  await waitReady(page);
  const chosen = await folderRows(page);
  // The shell command names the folder where view serves it from: run in the checkout as it is, it writes
  // the page's CSV.
  const command = `npm run --silent cli -- triage '${copy}' --role 'data/example.jsonl=ignore' --format csv`;
  await expect(page.getByTestId("export-cli")).toHaveText(command);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-csv").click(),
  ]);
  const shell = spawnSync("bash", ["-c", command], { cwd: ROOT, encoding: "utf8" });
  expect(shell.status).toBe(0);
  expect(readFileSync(await download.path(), "utf8")).toBe(shell.stdout);
  await page.getByTestId("mark-rollout").check();
  await expect(page.getByTestId("export-report")).toHaveText("Report (1 marked)");

  // A reload reads the served folder again (new datasets): the role and the mark stay.
  await page.reload();
  await waitReady(page);
  await unfoldFolderPanel(page);
  await expectRoles(page, { "data/example.jsonl": "ignore", "data/example_rollouts.jsonl": "rollouts" });
  expect(await folderRows(page)).toEqual(chosen);
  await expect(page.getByTestId("export-report")).toHaveText("Report (1 marked)");
  await expect(page.getByTestId("mark-rollout")).toBeChecked();
});

test("/compare and /live links name the served folder's files by path: a reload and a new tab open the same files", async ({
  page,
  context,
}) => {
  const copy = await servedTwoRuns(page, "compare-run");
  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(/sample=served%3Adata%2Fexample_rollouts\.jsonl/);
  await page.getByRole("tab", { name: "Compare runs" }).click();
  await expect(page).toHaveURL(/a=served%3Adata%2Fexample_rollouts\.jsonl/);
  await expect(page).toHaveURL(/b=served%3Adata%2Fsecond_rollouts\.jsonl/);
  const summary = page.getByTestId("compare-summary");
  await expect(summary).toBeVisible();
  // Both runs verified with the folder's task rows, as the inspector pairs them (not the recorded rewards).
  await expect(summary).toContainText("5 of 5 pairs score the same");
  await expect(summary).not.toContainText("as the files recorded them");
  const answer = (await summary.textContent()) ?? "";
  const shown = async (target: typeof page) => {
    await expect(target.locator("[data-picker=compare-a] [data-loaded]")).toHaveAttribute(
      "data-loaded",
      /data\/example_rollouts\.jsonl$/,
    );
    await expect(target.locator("[data-picker=compare-b] [data-loaded]")).toHaveAttribute(
      "data-loaded",
      /data\/second_rollouts\.jsonl$/,
    );
    await expect(target.getByTestId("compare-summary")).toHaveText(answer);
  };
  await page.reload();
  await shown(page);
  // B rewritten on disk (shorter): /compare says so, as the inspector does, and keeps the rows as first read.
  const second = path.join(copy, "data/second_rollouts.jsonl");
  writeFileSync(second, `${readFileSync(second, "utf8").split("\n")[0]}\n`);
  await expect(page.getByTestId("compare-b-changed")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("compare-a-changed")).toHaveCount(0);
  await expect(page.getByTestId("compare-summary")).toHaveText(answer);
  cpSync(path.join(copy, "data/example_rollouts.jsonl"), second);
  // A colleague's tab on the same tunnel (the cookie, none of this tab's storage): the same comparison.
  const other = await context.newPage();
  await other.goto(page.url());
  await shown(other);
  // The inspector of that tab shows the served folder.
  await other.getByRole("link", { name: "← Inspector" }).click();
  await waitReady(other);
  await expectRoles(other, { "data/second_rollouts.jsonl": "rollouts" });
  await other.close();

  // /live's link too (the page names the file; no server is needed to see that it found it).
  const live = `/live?dataset=${encodeURIComponent("served:data/example_rollouts.jsonl")}&line=2`;
  await page.goto(new URL(live, page.url()).toString());
  await expect(page.getByTestId("live-file-summary")).toContainText("data/example_rollouts.jsonl");
  // Its forwarding route answers the page `view` serves (its Host is view's port, or a tunnel's): it was
  // refused as "not this app" (no PORT in view's process).
  const refused = await page.evaluate(async () => {
    const response = await fetch("/api/live/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ baseUrl: "http://127.0.0.1:9" }),
    });
    const body: unknown = await response.json().catch(() => null);
    return typeof body === "object" && body !== null && "refused" in body ? String(body.refused) : null;
  });
  expect(refused).not.toBe("foreign_host");
});

test("the address bar of a served tab, opened in another tab, shows the same file and rollout", async ({
  page,
  context,
}) => {
  await servedTwoRuns(page, "address-bar-run");
  await page.locator("[data-dataset='data/second_rollouts.jsonl']").click();
  await openLine(page, 2);
  // The file is named by its path in the served folder, not by this tab's dataset id.
  await expect(page).toHaveURL(/file=served%3Adata%2Fsecond_rollouts\.jsonl/);
  const other = await context.newPage();
  await other.goto(page.url());
  await waitReady(other);
  await expect(other.locator("article[data-detail-line='2']")).toBeVisible();
  await expect(other.locator("[data-dataset='data/second_rollouts.jsonl']")).toHaveClass(/fileChipOn/);
  await other.close();
  // Back and forth between the inspector and /compare: each file offered once (the inspector read the served
  // folder again at every return, and /compare listed a copy of each file per trip).
  for (let trip = 0; trip < 2; trip++) {
    await page.getByTestId("compare-link").click();
    await page.getByRole("tab", { name: "Compare runs" }).click();
    await expect(page.locator("[data-picker=compare-a] [data-loaded]")).toBeVisible();
    await page.getByRole("link", { name: "← Inspector" }).click();
    await waitReady(page);
    // Back on the file compared as A (it landed on the folder's first file).
    await expect(page).toHaveURL(/file=served%3Adata%2Fsecond_rollouts\.jsonl/);
    await expect(page.locator("[data-dataset='data/second_rollouts.jsonl']")).toHaveClass(/fileChipOn/);
  }
  await page.getByTestId("compare-link").click();
  await page.getByRole("tab", { name: "Compare runs" }).click();
  const offered = await page.locator("[data-picker=compare-a] select option").allTextContents();
  expect(offered.filter((text) => text.includes("second_rollouts.jsonl"))).toHaveLength(1);
});

test("the address a served folder opens at reopens it in another tab", async ({ page, context }) => {
  const copy = gymFolderCopy("first-address-run", "example_multi_step");
  await page.goto((await startView(copy)).toString());
  await waitReady(page);
  // The file shown first is named by its path (with `name=` alone another tab found no file).
  await expect(page).toHaveURL(/file=served%3Adata%2Fexample_rollouts\.jsonl/);
  const other = await context.newPage();
  await other.goto(page.url());
  await waitReady(other);
  await expect(other.locator("[data-dataset='data/example_rollouts.jsonl']")).toHaveClass(/fileChipOn/);
  await other.close();
});

test("/compare typed in a served tab compares the folder's runs, not the bundled samples", async ({
  page,
}) => {
  await servedTwoRuns(page, "typed-compare-run");
  // The whole folder's answer offers its two runs of the same tasks side by side.
  const offer = page.getByTestId("folder-compare");
  await expect(offer).toHaveText("data/example_rollouts.jsonl vs data/second_rollouts.jsonl");
  await offer.click();
  await expect(page).toHaveURL(
    /a=served%3Adata%2Fexample_rollouts\.jsonl&b=served%3Adata%2Fsecond_rollouts\.jsonl/,
  );
  await expect(page.getByTestId("compare-summary")).toContainText("pairs");
  await page.getByRole("link", { name: "← Inspector" }).click();
  await waitReady(page);
  // The address typed: a new page, its worker holds nothing; the tab shows the served folder.
  await page.goto(new URL("/compare", page.url()).toString());
  // The folder's first run as A, the run of the same task rows as B (the inspector's link offers the same).
  await expect(page).toHaveURL(/a=served%3Adata%2Fexample_rollouts\.jsonl/);
  await expect(page).toHaveURL(/b=served%3Adata%2Fsecond_rollouts\.jsonl/);
  await expect(page.locator("[data-picker=compare-a] [data-loaded]")).toBeVisible();
  const offered = await page.locator("[data-picker=compare-b] select option").allTextContents();
  expect(offered.some((text) => text.includes("second_rollouts.jsonl"))).toBe(true);
  await expect(page.getByTestId("compare-summary")).toContainText("pairs");
});

test("files opened in a served tab replace the folder there: a reload reopens them, not the folder", async ({
  page,
}) => {
  await page.goto((await startView(runFolder("replaced-run", 2))).toString());
  await waitReady(page);
  await loadFiles(page, [path.join(GOLDEN_WA, "wa_rollouts.jsonl")]);
  await expect(page.locator("[data-dataset='wa_rollouts.jsonl']")).toBeVisible();
  await page.reload();
  await waitReady(page);
  await expect(page.locator("[data-dataset='wa_rollouts.jsonl']")).toBeVisible();
  await expect(page.locator("[data-dataset='rollouts.jsonl']")).toHaveCount(0);
});

test("/live checks a served folder's lines with the task rows the inspector paired them with", async ({
  page,
}) => {
  // Rollouts that echo no task field: only the folder's inputs file gives them their ground truth.
  const run = runFolder("live-paired-run", 3);
  writeFileSync(path.join(run, "inputs.jsonl"), readFileSync(path.join(GOLDEN_WA, "wa_inputs.jsonl")));
  const gym = await startFakeGym({ mode: "json" });
  try {
    await page.goto((await startView(run)).toString());
    await waitReady(page);
    // The header's Live link carries the file shown and its open line (it opened /live with no file).
    await openLine(page, 2);
    await page.getByTestId("live-link").click();
    await expect(page).toHaveURL(/\/live\?dataset=served%3Arollouts\.jsonl&line=2$/);
    await expect(page.getByTestId("live-line-options")).toContainText(
      "Line 2 is checked as the inspector verifies it: verifying server workplace_assistant. Paired with inputs.jsonl line",
    );
    await page.getByTestId("live-url").fill(gym.url);
    await page.getByTestId("live-connect-button").click();
    await expect(page.getByTestId("live-connected")).toHaveAttribute("data-ready", "true");
    await page.getByTestId("live-policy").selectOption("contract");
    await page.getByTestId("live-run-all").click();
    const progress = page.getByTestId("live-progress");
    await expect(progress).toHaveAttribute("data-running", "false");
    await expect(progress).toHaveAttribute("data-done", "3");
    // The server scored the task row with the rollout's response: both sides give the golden rewards.
    for (const [at, want] of expected.slice(0, 3).entries()) {
      const row = page.locator(`[data-result-line="${at + 1}"][data-result-policy="contract"]`);
      await expect(row).toHaveAttribute("data-verify-verdict", "agree");
      await expect(row).toHaveAttribute("data-server-reward", String(want.contract.reward));
    }
  } finally {
    await gym.close();
  }
});

test("a file that appears in the served folder (a second run's output) is named, and reading the folder again adds it", async ({
  page,
}) => {
  const grows = runFolder("grows-run", 2);
  await page.goto((await startView(grows)).toString());
  await waitReady(page);
  await expect(page.getByTestId("served-new-files")).toHaveCount(0);
  writeFileSync(path.join(grows, "rollouts_run2.jsonl"), `${rolloutLines.slice(2, 3).join("\n")}\n`);
  const notice = page.getByTestId("served-new-files");
  await expect(notice).toContainText(
    "A file appeared in the served folder since it was read: rollouts_run2.jsonl",
    {
      timeout: 15_000,
    },
  );
  await notice.getByRole("button", { name: "Read the folder again" }).click();
  await waitReady(page);
  await expect(page.locator("[data-dataset='rollouts_run2.jsonl']")).toBeVisible();
  await expect(page.getByTestId("served-new-files")).toHaveCount(0);
});

test("a served folder's Gym config or metrics file changed or deleted is said, until the folder is read again", async ({
  page,
}) => {
  const copy = gymFolderCopy("config-edit-run", "example_multi_step");
  await page.goto((await startView(copy)).toString());
  await waitReady(page);
  const notice = page.getByTestId("served-changed-files");
  await expect(notice).toHaveCount(0);
  appendFileSync(path.join(copy, "configs/example_multi_step.yaml"), "\n# edited\n");
  rmSync(path.join(copy, "data/example_metrics.json"));
  await expect(notice).toContainText(
    "2 Gym config and metrics files changed in the served folder since it was read: configs/example_multi_step.yaml, data/example_metrics.json (gone).",
    { timeout: 15_000 },
  );
  await notice.getByRole("button", { name: "Read the folder again" }).click();
  await waitReady(page);
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId("gym-metrics")).toHaveCount(0);
});

test("a view that stops answering is said: the page never claims to follow it", async ({ page }) => {
  const gone = runFolder("gone-run", 2);
  const served = await startView(gone);
  const view = views.at(-1);
  await page.goto(served.toString());
  await waitReady(page);
  await expect(page.getByTestId("follow-state")).toBeVisible();
  stopView(view);
  await expect(page.getByTestId("follow-unreachable")).toContainText("has not answered since", {
    timeout: 15_000,
  });
  await expect(page.getByTestId("follow-state")).toHaveCount(0);
  // Started again on its port: it answers, with a new token, so it refuses this tab; the page says that.
  await expect(async () => {
    await startView(gone, Number(served.port));
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId("follow-unreachable")).toContainText(
    "the view server refuses this tab since",
    { timeout: 15_000 },
  );
});

test("a served gzip file is read once, and the page says it is not followed", async ({ page }) => {
  const gz = path.join(base, "gz-run");
  mkdirSync(gz);
  writeFileSync(path.join(gz, "rollouts.jsonl.gz"), gzipSync(`${rolloutLines.slice(0, 3).join("\n")}\n`));
  await page.goto((await startView(gz)).toString());
  await waitReady(page);
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]")).toHaveCount(3);
  await expect(page.getByTestId("follow-none")).toContainText("gzip file was read once and is not followed");
  await expect(page.getByTestId("follow-state")).toHaveCount(0);
});
