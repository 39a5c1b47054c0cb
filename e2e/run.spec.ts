/**
 * The run view (issue 12): why-zero triage counts on the generated run, run metrics, structured filter and
 * export (equal to the CLI's bytes), markdown safety, search typing, Back and the title link, and the
 * phone-sized layout. Expected values come from the generator's intents and the file itself, never from the
 * app.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { ZERO_CAUSES } from "../lib/triage";
import { buildTriageRun, TRIAGE_RUN_PATH } from "../scripts/gen-triage-run";
import { cli, loadFiles, openFolder, ROOT, screenshotPath, waitReady } from "./helpers";

const FILE = path.join(ROOT, TRIAGE_RUN_PATH);
const run = buildTriageRun();

const cliOut = (args: string[]) => cli(args).stdout;

async function download(page: Page, testId: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
  const saved = await file.path();
  return readFileSync(saved, "utf8");
}

async function metric(page: Page, name: string): Promise<number> {
  return Number(await page.locator(`[data-metric='${name}']`).getAttribute("data-value"));
}

test.describe("run view on the generated triage run", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/");
    await loadFiles(page, [FILE]);
    await expect(page.getByTestId("triage")).toBeVisible();
  });

  test("the why-zero counts are the run's recorded zeros per cause, and each cause filters the list", async ({
    page,
  }) => {
    const recordedZero = run.intents.filter((i) => i.recorded === 0);
    await expect(page.getByTestId("triage")).toHaveAttribute("data-view", "recorded");
    await expect(page.getByTestId("triage")).toHaveAttribute("data-zero", String(recordedZero.length));
    for (const cause of ZERO_CAUSES) {
      if (cause === "drift") continue;
      const n = recordedZero.filter((i) => i.cause === cause).length;
      await expect(page.locator(`[data-cause='${cause}']`)).toHaveAttribute("data-count", String(n));
    }
    // Drift is counted apart from the causes, with its own count: every drifted rollout, a recorded 1
    // recomputed 0 as well as a recorded 0 recomputed 1.
    const drift = run.intents.filter((i) => i.cause === "drift").length;
    expect(drift).toBeGreaterThan(recordedZero.filter((i) => i.cause === "drift").length);
    await expect(page.getByTestId("triage-drift")).toHaveAttribute("data-count", String(drift));
    await expect(page.getByTestId("triage-drift").locator("[data-cause='drift']")).toHaveCount(1);
    await expect(page.locator("[data-testid=triage-causes] [data-cause='drift']")).toHaveCount(0);
    // A click-through: the list keeps exactly that cause's recorded zeros (lines that are rollouts).
    const lines = recordedZero.filter((i) => i.cause === "tool_failed").map((i) => i.line);
    await page.locator("[data-cause='tool_failed']").click();
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(lines.length));
    expect(new URL(page.url()).searchParams.get("f")).toBe("recorded:..0 cause:tool_failed");
    const shown = await page
      .locator("[data-testid=rollout-scroller] [data-line]")
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-line"))));
    expect(shown.sort((a, b) => a - b)).toEqual(lines);
    await expect(page.locator("[data-cause='tool_failed']")).toHaveAttribute("aria-pressed", "true");
    // Pressing it again lifts the filter.
    await page.locator("[data-cause='tool_failed']").click();
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(run.intents.length));
  });

  test("the switch shows a policy's recomputed zeros; the recorded-1 drift is one of them", async ({
    page,
  }) => {
    const rows = cliOut(["triage", FILE, "--format", "jsonl"])
      .trim()
      .split("\n")
      .map((t) => JSON.parse(t) as { contract: number | null; cause: string | null });
    await page.locator("[data-reward-choice='contract']").click();
    await expect(page.getByTestId("triage")).toHaveAttribute("data-view", "contract");
    const zero = rows.filter((r) => r.contract === 0).length;
    await expect(page.getByTestId("triage")).toHaveAttribute("data-zero", String(zero));
    await expect(page.getByTestId("triage-headline")).toContainText(
      `${zero} of ${run.intents.length} rollouts recompute to 0 under contract`,
    );
    // Drift is counted apart over the whole run, whichever reward decides what a zero is.
    const drift = rows.filter((r) => r.cause === "drift").length;
    expect(drift).toBeGreaterThan(rows.filter((r) => r.contract === 0 && r.cause === "drift").length);
    await expect(page.getByTestId("triage-drift")).toHaveAttribute("data-count", String(drift));
  });

  test("one wording for the counts: the chip, the why-zero headline and the metrics say the same", async ({
    page,
  }) => {
    // The line built without response.output is an unreadable line: named everywhere, in no total.
    const rollouts = run.intents.length;
    expect(run.unreadable).toHaveLength(1);
    const zero = run.intents.filter((i) => i.recorded === 0).length;
    const counts = `${rollouts} rollouts · 1 unreadable line`;
    await expect(page.getByTestId("chip-counts")).toHaveText(counts);
    await expect(page.getByTestId("triage-headline")).toHaveText(
      `${zero} of ${rollouts} rollouts recorded 0 (${((100 * zero) / rollouts).toFixed(1)}%) · 1 unreadable line, not counted`,
    );
    await expect(page.getByTestId("run-metrics").locator("summary")).toContainText(counts);
    await expect(page.getByTestId("rollout-count")).toHaveText(String(rollouts));
    await expect(page.getByTestId("error-count")).toHaveText("1");
  });

  test("run metrics equal values computed from the file", async ({ page }) => {
    await page.getByTestId("run-metrics").locator("summary").click();
    // Over the rollouts: the unreadable line is in no mean.
    const recordedMean = run.intents.reduce((s, i) => s + (i.recorded ?? 0), 0) / run.intents.length;
    expect(await metric(page, "mean-recorded")).toBeCloseTo(recordedMean, 10);
    const tokens = run.intents.reduce((s, i) => s + i.input_tokens + i.output_tokens, 0);
    expect(await metric(page, "tokens-total")).toBe(tokens);
    for (const model of new Set(run.intents.map((i) => i.model))) {
      const t = run.intents
        .filter((i) => i.model === model)
        .reduce((s, i) => s + i.input_tokens + i.output_tokens, 0);
      await expect(page.locator(`[data-model='${model}']`)).toHaveAttribute("data-tokens", String(t));
    }
    // Provenance recorded: contract 1 where Gym (legacy) gave 0.
    const gained = run.intents.filter((i) => i.scenario === "identity_contract").length;
    expect(await metric(page, "policy-gained")).toBe(gained);
    const agents = new Set(run.intents.map((i) => i.agent));
    for (const agent of agents) {
      const rows = run.intents.filter((i) => i.agent === agent);
      const row = page.locator(`table[data-group='agent'] tr[data-key='${agent}']`);
      await expect(row.locator("td").first()).toHaveText(String(rows.length));
      const mean = rows.reduce((s, i) => s + (i.recorded ?? 0), 0) / rows.length;
      expect(Number(await row.locator("td").nth(1).getAttribute("data-value"))).toBeCloseTo(mean, 10);
    }
  });

  test("an export downloaded from the UI equals the CLI's output for the same filter", async ({ page }) => {
    const filter = "recorded:0 field:agent_ref.name=http_agent";
    await page.getByTestId("structured-filter").fill(filter);
    const kept = run.intents.filter((i) => i.recorded === 0 && i.agent === "http_agent").length;
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", /\d+/);
    await expect.poll(() => new URL(page.url()).searchParams.get("f")).toBe(filter);
    await expect(page.getByTestId("export-cli")).toContainText("--filter");
    const csv = await download(page, "export-csv");
    expect(csv).toBe(cliOut(["triage", FILE, "--format", "csv", "--filter", filter]));
    expect(csv.trim().split("\r\n")).toHaveLength(kept + 1);
    const jsonl = await download(page, "export-jsonl");
    expect(jsonl).toBe(cliOut(["triage", FILE, "--format", "jsonl", "--filter", filter]));
  });

  test("chips, selects, search and causes are clauses of one filter: list, tiles, breakdown, metrics and export follow it and say their scope", async ({
    page,
  }) => {
    // The "recorded ≤ 0" chip and the agent select: two clauses of ?f=.
    await page.locator("[data-filter='zero']").click();
    await page.getByLabel("Agent", { exact: true }).selectOption("http_agent");
    const filter = "recorded:..0 agent:http_agent";
    await expect.poll(() => new URL(page.url()).searchParams.get("f")).toBe(filter);
    const kept = run.intents.filter((i) => i.recorded === 0 && i.agent === "http_agent");
    const http = run.intents.filter((i) => i.agent === "http_agent");
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(run.intents.length);
    // The list.
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(kept.length));
    // The totals beside the tiles are the kept rows' too, out of the file's.
    await expect(page.getByTestId("rollout-count")).toHaveText(String(kept.length));
    // The tiles: counted over the kept rows, and saying so.
    await expect(page.getByTestId("tiles-scope")).toHaveText(
      `${kept.length} of ${run.intents.length} rollouts (filter: ${filter})`,
    );
    await expect(page.locator("[data-summary='zero']")).toHaveAttribute("data-value", String(kept.length));
    await expect(page.locator("[data-summary='zero']")).toHaveAttribute("aria-pressed", "true");
    // The metrics.
    await expect(page.getByTestId("run-metrics")).toHaveAttribute("data-rollouts", String(kept.length));
    await expect(page.getByTestId("metrics-scope")).toContainText(
      `${kept.length} of ${run.intents.length} rollouts (filter: ${filter})`,
    );
    // The breakdown: the same filter (no cause clause here), over the http agent's zeros.
    await expect(page.getByTestId("triage-scope")).toContainText(
      `Breakdown of ${kept.length} of ${run.intents.length} rollouts (filter: ${filter})`,
    );
    // The export: the kept rows only, the CLI's bytes, and the hint says which.
    await expect(page.getByTestId("export-cli")).toContainText(`--filter '${filter}'`);
    const csv = await download(page, "export-csv");
    expect(csv.trim().split("\r\n")).toHaveLength(kept.length + 1);
    expect(csv).toBe(cliOut(["triage", FILE, "--format", "csv", "--filter", filter]));
    // A cause click adds a clause; the breakdown leaves it out (and says so), the list and metrics follow it.
    await page.locator("[data-filter='zero']").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("f")).toBe("agent:http_agent");
    // A cause click adds the breakdown view's zero clause with it (the list holds what the count counts).
    const httpZero = http.filter((i) => i.recorded === 0);
    const cause = (["tool_failed", "wrong_end_state", "identity", "no_tool_call"] as const).find((c) =>
      httpZero.some((i) => i.cause === c),
    );
    if (cause === undefined) throw new Error("no cause among the http agent's recorded zeros");
    const withCause = httpZero.filter((i) => i.cause === cause);
    await page.locator(`[data-cause='${cause}']`).click();
    await expect
      .poll(() => new URL(page.url()).searchParams.get("f"))
      .toBe(`agent:http_agent recorded:..0 cause:${cause}`);
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(withCause.length));
    await expect(page.getByTestId("triage-scope")).toContainText("cause clause is left out");
    await expect(page.getByTestId("triage-scope")).toHaveAttribute("data-rollouts", String(httpZero.length));
    await expect(page.locator(`[data-cause='${cause}']`)).toHaveAttribute(
      "data-count",
      String(withCause.length),
    );
    await expect(page.getByTestId("run-metrics")).toHaveAttribute("data-rollouts", String(withCause.length));
    await expect(page.locator("[data-summary='zero']")).toHaveAttribute(
      "data-value",
      String(withCause.length),
    );
    const jsonl = await download(page, "export-jsonl");
    expect(jsonl.trim().split("\n")).toHaveLength(withCause.length);
    // The search box is the text clause.
    await page.getByLabel("Search rollouts").fill("model-b");
    await expect
      .poll(() => new URL(page.url()).searchParams.get("f"))
      .toBe(`agent:http_agent recorded:..0 cause:${cause} text:model-b`);
    await expect(page.getByTestId("structured-filter")).toHaveValue(
      `agent:http_agent recorded:..0 cause:${cause} text:model-b`,
    );
  });

  test("one reward switch, kept in the URL: headline, breakdown, zero tile, list, pass@k and the report's scope follow it", async ({
    page,
  }) => {
    const rows = cliOut(["triage", FILE, "--format", "jsonl"])
      .trim()
      .split("\n")
      .map((t) => JSON.parse(t) as { recorded: number | null; contract: number | null });
    const total = run.intents.length;
    const recordedZero = rows.filter((r) => r.recorded === 0).length;
    const contractZero = rows.filter((r) => r.contract === 0).length;
    expect(contractZero).not.toBe(recordedZero);
    await page.getByTestId("run-metrics").locator("summary").click();
    await expect(page.getByTestId("pass-at-k-label")).toHaveAttribute("data-reward", "recorded");
    await expect(page.getByTestId("metrics-scope")).toContainText("pass@k on the recorded reward");
    await page.locator("[data-reward-choice='contract']").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("reward")).toBe("contract");
    await expect(page.getByTestId("reward-switch")).toHaveAttribute("data-reward", "contract");
    await expect(page.getByTestId("triage-headline")).toContainText(
      `${contractZero} of ${total} rollouts recompute to 0 under contract`,
    );
    await expect(page.getByTestId("pass-at-k-label")).toHaveAttribute("data-reward", "contract");
    await expect(page.getByTestId("metrics-scope")).toContainText("pass@k on the contract reward");
    await expect(page.locator("[data-summary='zero']")).toHaveAttribute("data-value", String(contractZero));
    await expect(page.locator("[data-summary='zero']")).toContainText("contract ≤ 0");
    await expect(page.getByTestId("export-reward")).toHaveAttribute("data-reward", "contract");
    // The zero tile filters the contract zeros; switching back moves that clause to the recorded reward.
    await page.locator("[data-summary='zero']").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("f")).toBe("contract:..0");
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(contractZero));
    await page.locator("[data-reward-choice='recorded']").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("reward")).toBeNull();
    expect(new URL(page.url()).searchParams.get("f")).toBe("recorded:..0");
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(recordedZero));
    await expect(page.getByTestId("triage-headline")).toContainText(
      `${recordedZero} of ${recordedZero} rollouts recorded 0`,
    );
    await expect(page.getByTestId("pass-at-k-label")).toHaveAttribute("data-reward", "recorded");
  });

  test("a link with ?reward= opens the file with the switch applied", async ({ context }) => {
    const page = await context.newPage();
    await page.goto(`/?reward=legacy`);
    await loadFiles(page, [FILE]);
    const rows = cliOut(["triage", FILE, "--format", "jsonl"])
      .trim()
      .split("\n")
      .map((t) => JSON.parse(t) as { legacy: number | null });
    const legacyZero = rows.filter((r) => r.legacy === 0).length;
    await expect(page.getByTestId("reward-switch")).toHaveAttribute("data-reward", "legacy");
    await expect(page.getByTestId("triage")).toHaveAttribute("data-view", "legacy");
    await expect(page.getByTestId("triage-headline")).toContainText(
      `${legacyZero} of ${run.intents.length} rollouts recompute to 0 under legacy`,
    );
    await expect(page.getByTestId("pass-at-k-label")).toHaveAttribute("data-reward", "legacy");
    await expect(page.locator("[data-summary='zero']")).toHaveAttribute("data-value", String(legacyZero));
    expect(new URL(page.url()).searchParams.get("reward")).toBe("legacy");
  });

  test("an open rollout the filter hides stays open and says it is not in the list", async ({ page }) => {
    const first = run.intents[1];
    if (first === undefined) throw new Error("the run has one rollout");
    // Opened by a click (the line in the URL), not the first row's default, which follows the list.
    await page.locator(`[data-testid=rollout-table] [data-line='${first.line}']`).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("line")).toBe(String(first.line));
    await expect(page.locator(`[data-detail-line='${first.line}']`)).toBeVisible();
    await expect(page.getByTestId("detail-unlisted")).toHaveCount(0);
    // A search no rollout matches: the list empties, the open rollout stays, named as hidden.
    await page.getByLabel("Search rollouts").fill("zzzz-no-rollout-has-this");
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", "0");
    await expect(page.locator(`[data-detail-line='${first.line}']`)).toBeVisible();
    await expect(page.getByTestId("detail-unlisted")).toHaveText("not in the list under the current filter");
    await page.getByLabel("Search rollouts").fill("");
    await expect(page.getByTestId("detail-unlisted")).toHaveCount(0);
  });

  test("a bad filter says why, and the list stays unfiltered", async ({ page }) => {
    await page.getByTestId("structured-filter").fill("cause:bogus");
    await expect(page.getByTestId("filter-error")).toContainText("cause is one of");
    // Nothing names the filter as its scope, and the CLI line beside the export does not offer it.
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(run.intents.length));
    await expect(page.getByTestId("tiles-scope")).toHaveCount(0);
    await expect(page.getByTestId("triage-scope")).toHaveCount(0);
    await expect(page.getByTestId("metrics-scope")).not.toContainText("filter:");
    await expect(page.getByTestId("export-cli")).not.toContainText("--filter");
    await expect(page.getByText("The export and the report wait for a filter that reads")).toBeVisible();
  });
});

test("a file opened with its inputs file: the command shown beside the export gives the same bytes", async ({
  page,
}) => {
  const samples = path.join(ROOT, "public/samples");
  const names = ["workplace-noecho.jsonl", "workplace_materialized_inputs.jsonl"];
  await page.goto("/");
  await loadFiles(
    page,
    names.map((name) => path.join(samples, name)),
  );
  await expect(page.getByTestId("triage")).toBeVisible();
  const shown = (await page.getByTestId("export-cli").textContent()) ?? "";
  expect(shown).toContain(`--inputs '${names[1]}'`);
  // The command's words, the file names read as the paths beside each other (run where the files are).
  const words = [...shown.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1] === undefined ? (m[2] ?? "") : m[1].replaceAll("'\\''", "'"),
  );
  expect(words.slice(0, 4)).toEqual(["npm", "run", "--silent", "cli"]);
  const args = words.slice(5).map((word) => (names.includes(word) ? path.join(samples, word) : word));
  const csv = await download(page, "export-csv");
  expect(csv).toBe(cliOut(args));
  // Every row was verified with the inputs' task data: without them the same command leaves them unverified.
  expect(csv).not.toBe(cliOut(args.filter((_, i) => args[i - 1] !== "--inputs" && args[i] !== "--inputs")));
});

test("typing quickly into search keeps every character", async ({ page }) => {
  await page.goto("/");
  await loadFiles(page, [FILE]);
  const search = page.getByLabel("Search rollouts");
  const text = "hermes-legacy";
  for (let trial = 0; trial < 8; trial++) {
    await search.fill("");
    await search.pressSequentially(text, { delay: 60 });
    await expect(search).toHaveValue(text);
    await expect.poll(() => new URL(page.url()).searchParams.get("f")).toBe(`text:${text}`);
    await expect(search).toHaveValue(text);
  }
});

test("Back from a sample returns to the landing page, and the title links home", async ({ page }) => {
  await page.goto("/");
  const sample = page.locator("[data-sample='workplace-harnesses.jsonl']");
  await sample.click();
  await waitReady(page);
  await page.goBack();
  await expect(page.getByTestId("welcome")).toBeVisible();
  await expect(page.locator("main[data-ready]")).toHaveCount(0);
  await page.goForward();
  await waitReady(page);
  await page.getByTestId("home-link").click();
  await expect(page.getByTestId("welcome")).toBeVisible();
  expect(new URL(page.url()).search).toBe("");
  // Another sample still opens from there.
  await page.locator("[data-sample='workplace-edge-cases.jsonl']").click();
  await waitReady(page);
});

test("Back past the first rollout opened closes it (the first-row default does not re-open line 1)", async ({
  page,
}) => {
  await page.goto("/");
  await page.locator("[data-sample='workplace-harnesses.jsonl']").click();
  await waitReady(page);
  // A file just opened shows its first rollout.
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "1");
  await page.locator("[data-testid=rollout-scroller] [data-line='3']").click();
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "3");
  await page.goBack();
  await expect.poll(() => new URL(page.url()).searchParams.get("line")).toBeNull();
  await expect(page.locator("article[data-detail-line]")).toHaveCount(0);
  await expect(page.locator("[data-testid=rollout-scroller] [data-line][aria-current=true]")).toHaveCount(0);
  // Forward re-opens it.
  await page.goForward();
  await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "3");
});

test("assistant markdown with HTML and an image renders text only and loads nothing", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "md-"));
  const file = path.join(dir, "markdown.jsonl");
  const base = JSON.parse(run.text.split("\n")[0] ?? "{}") as { response: { output: unknown[] } };
  const payload =
    '# Title\n\n**bold** <b>tag</b> <img src="http://127.0.0.1:9/html.png" onerror="window.__x=1">\n\n' +
    "![alt text](http://127.0.0.1:9/md.png) [a link](javascript:window.__x=2) <script>window.__x=3</script>\n";
  base.response.output = [
    { type: "message", role: "assistant", content: [{ type: "output_text", text: payload }] },
  ];
  writeFileSync(file, `${JSON.stringify(base)}\n`);
  const requests: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith("http://127.0.0.1:") || request.url().includes(":9/"))
      requests.push(request.url());
  });
  await page.goto("/");
  await loadFiles(page, [file]);
  const md = page.getByTestId("markdown").first();
  await expect(md).toBeVisible();
  await expect(md.locator("h1")).toHaveText("Title");
  await expect(md.locator("strong")).toHaveText("bold");
  await expect(md).toContainText("<b>tag</b>");
  await expect(md).toContainText("[image: alt text]");
  await expect(md.locator("img, script, iframe, a, b")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined();
  expect(requests).toEqual([]);
});

test.describe("phone-sized screen", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const url of ["/", "/compare", "/compare?tab=whatif", "/compare?tab=repair"]) {
    test(`no horizontal scroll on ${url}`, async ({ page }) => {
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
    });
  }

  test("a loaded run has no horizontal scroll and the list shows at least 8 rows", async ({ page }) => {
    await page.goto("/");
    await loadFiles(page, [FILE]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const scroller = page.getByTestId("rollout-scroller");
    await scroller.scrollIntoViewIfNeeded();
    const box = await scroller.boundingBox();
    if (!box) throw new Error("no list");
    const visible = await page.locator("[data-testid=rollout-scroller] [data-line]").evaluateAll(
      (rows, frame) =>
        rows.filter((row) => {
          const r = row.getBoundingClientRect();
          return (
            r.top >= frame.y - 1 && r.bottom <= frame.y + frame.height + 1 && r.bottom <= window.innerHeight
          );
        }).length,
      box,
    );
    expect(visible).toBeGreaterThanOrEqual(8);
  });
});

test.describe("an 800 px screen", () => {
  test.use({ viewport: { width: 800, height: 900 } });

  test("a folder's file chips take a row of their own, one line each, clear of the header's buttons", async ({
    page,
  }) => {
    // Gym's openenv: one rollouts file and four task-row files, five chips.
    await page.goto("/");
    await openFolder(page, path.join(ROOT, "fixtures/gym-examples/resources_servers/openenv"));
    const chips = page.locator("[data-dataset], [data-inputs]");
    await expect(chips).toHaveCount(5);
    const buttons = await page.getByTestId("compare-link").boundingBox();
    if (!buttons) throw new Error("no compare link");
    for (const chip of await chips.all()) {
      const box = await chip.boundingBox();
      if (!box) throw new Error("a chip is not laid out");
      expect(box.height).toBeLessThan(30);
      expect(box.y).toBeGreaterThanOrEqual(buttons.y + buttons.height);
    }
  });
});

test.describe("review screenshots", () => {
  for (const width of [390, 1440]) {
    for (const scheme of ["light", "dark"] as const) {
      test(`run view at ${width} px, ${scheme}`, async ({ page }) => {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto("/");
        await loadFiles(page, [FILE]);
        await page.getByTestId("run-metrics").locator("summary").click();
        await page.screenshot({
          path: screenshotPath(`run-${width}-${scheme}.png`),
          fullPage: width === 390,
        });
      });
    }
  }
});
