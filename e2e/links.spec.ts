/**
 * Issue 18 items 5 and 6: a harness chosen for one agent never re-labels another agent's rows; a link carries
 * line, call and filter and, opened in a tab without the file, names the file and applies once it is opened;
 * a reload never shows verified rows as unverified while it restores.
 */
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { buildTriageRun, TRIAGE_RUN_PATH } from "../scripts/gen-triage-run";
import { GOLDEN_WA, loadFiles, openFolder, ROOT, waitReady } from "./helpers";

const TRIAGE = path.join(ROOT, TRIAGE_RUN_PATH);
const run = buildTriageRun();

async function tile(page: Page, name: string): Promise<number> {
  return Number(await page.locator(`[data-summary='${name}']`).getAttribute("data-value"));
}

test("a harness chosen for one agent leaves every other agent's rows as they were", async ({ page }) => {
  await page.goto("/");
  await loadFiles(page, [path.join(GOLDEN_WA, "wa_rollouts.jsonl")]);
  await page.getByLabel("Agent", { exact: true }).selectOption("hermes_prov_agent");
  await expect(page.getByTestId("tiles-scope")).toBeVisible();
  const hermesBefore = await tile(page, "mismatched");
  // 17 agents: their selects are folded behind one line.
  const folded = page.getByTestId("harness-agents-folded");
  await expect(folded).not.toHaveAttribute("open");
  await folded.locator("summary").click();
  await expect(folded).toHaveAttribute("open");
  // Claude Code for its own agent only: the Hermes rows keep their labels.
  await page.getByLabel("Harness for claude_prov_agent").selectOption("claude-code");
  await expect
    .poll(() => new URL(page.url()).searchParams.get("harness"))
    .toBe("claude_prov_agent=claude-code");
  await waitReady(page);
  await expect(page.locator(".harness-agent[data-agent='claude_prov_agent']")).toHaveAttribute(
    "data-harness",
    "claude-code",
  );
  await expect(page.locator(".harness-agent[data-agent='hermes_prov_agent']")).toHaveAttribute(
    "data-harness",
    "",
  );
  expect(await tile(page, "mismatched")).toBe(hermesBefore);
  // The same harness for every agent does re-label them (the test above could fail).
  await page.getByLabel("Harness for every agent").selectOption("claude-code");
  await expect
    .poll(() => new URL(page.url()).searchParams.get("harness"))
    .toBe("claude-code,claude_prov_agent=claude-code");
  await waitReady(page);
  await expect.poll(() => tile(page, "mismatched")).toBeGreaterThan(hermesBefore);
});

test("a link opened in a fresh tab names its file, and applies its line, call and filter once it is opened", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const filter = "agent:http_agent";
  const line = run.intents.find((i) => i.agent === "http_agent" && i.line > 3)?.line ?? 0;
  await page.goto(
    `/?name=${TRIAGE_RUN_PATH.split("/").pop()}&line=${line}&call=0&f=${encodeURIComponent(filter)}`,
  );
  const banner = page.getByTestId("link-needs-file");
  await expect(banner).toContainText(`line ${line}`);
  await expect(banner).toContainText(`filter ${filter}`);
  await expect(page.getByTestId("link-file")).toHaveText(path.basename(TRIAGE));
  await loadFiles(page, [TRIAGE]);
  await expect(page.getByTestId("link-needs-file")).toHaveCount(0);
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", String(line));
  const http = run.intents.filter((i) => i.agent === "http_agent").length;
  await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(http));
  const params = new URL(page.url()).searchParams;
  expect(params.get("f")).toBe(filter);
  expect(params.get("line")).toBe(String(line));
  await context.close();
});

test("a reload never shows a verified row as unverified while it restores", async ({ page }) => {
  // The largest unverified count the tile showed since the page loaded, recorded in the page itself.
  await page.addInitScript(() => {
    const w = window as unknown as { __maxUnverified: number };
    w.__maxUnverified = 0;
    const seen = () => {
      for (const el of document.querySelectorAll("[data-unverified-count]"))
        w.__maxUnverified = Math.max(w.__maxUnverified, Number(el.getAttribute("data-unverified-count")));
    };
    new MutationObserver(seen).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto("/");
  await loadFiles(page, [TRIAGE]);
  const unverified = Number(
    await page.locator("[data-unverified-count]").getAttribute("data-unverified-count"),
  );
  await page.reload();
  await waitReady(page);
  await expect(page.locator("[data-unverified-count]")).toHaveAttribute(
    "data-unverified-count",
    String(unverified),
  );
  const max = await page.evaluate(() => (window as unknown as { __maxUnverified: number }).__maxUnverified);
  expect(max).toBe(unverified);
});

test("a link applies to its file in a folder opened next, though it was made one folder level up", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Made with golden/ opened: the file's path there; here the workplace folder itself is opened.
  const name = `${path.basename(GOLDEN_WA)}/wa_rollouts.jsonl`;
  await page.goto(
    `/?name=${encodeURIComponent(name)}&line=10&call=0&f=${encodeURIComponent("recorded:..0")}`,
  );
  await expect(page.getByTestId("link-needs-file")).toContainText("open the folder that holds it");
  await openFolder(page, GOLDEN_WA);
  await expect(page.getByTestId("link-needs-file")).toHaveCount(0);
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "10");
  const params = new URL(page.url()).searchParams;
  expect(params.get("f")).toBe("recorded:..0");
  expect(params.get("line")).toBe("10");
  expect(params.get("name")).toBe("wa_rollouts.jsonl");
  await context.close();
});

test("a served file's link (a served tab's address bar) opened where another file is shown names its file, never shows another's line", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/");
  await loadFiles(page, [path.join(GOLDEN_WA, "wa_rollouts.jsonl")]);
  // The same tab goes to the link (pasted): its file is not open here, and this app serves no folder.
  await page.goto(
    `/?file=${encodeURIComponent("served:resources_servers/mcqa/data/example_rollouts.jsonl")}&line=3`,
  );
  await expect(page.getByTestId("set-aside-file")).toHaveText(
    "resources_servers/mcqa/data/example_rollouts.jsonl",
  );
  await expect(page.getByTestId("link-set-aside")).toContainText("line 3");
  await expect(page.locator("article[data-detail-line='3']")).toHaveCount(0);
  // No HTTP error of a served folder read that was never this app's to do.
  await expect(page.getByTestId("served-error")).toHaveCount(0);
  await context.close();
});

test("a link opened on a file that is not its own is set aside, said, and applied only when asked", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Made on Gym's calendar run; every Gym server's run is an example_rollouts.jsonl.
  await page.goto(
    `/?name=${encodeURIComponent("calendar/data/example_rollouts.jsonl")}&line=10&f=recorded%3A..0`,
  );
  await loadFiles(page, [path.join(GOLDEN_WA, "wa_rollouts.jsonl")]);
  const banner = page.getByTestId("link-set-aside");
  await expect(banner).toContainText("line 10");
  await expect(page.getByTestId("set-aside-file")).toHaveText("calendar/data/example_rollouts.jsonl");
  await expect.poll(() => new URL(page.url()).searchParams.get("line")).toBeNull();
  expect(new URL(page.url()).searchParams.get("f")).toBeNull();
  await page.getByTestId("link-apply").click();
  await expect(banner).toHaveCount(0);
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "10");
  const params = new URL(page.url()).searchParams;
  expect(params.get("f")).toBe("recorded:..0");
  expect(params.get("name")).toBe("wa_rollouts.jsonl");
  await context.close();
});
