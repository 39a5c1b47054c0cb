import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { narrowing } from "../lib/schemas/test-helpers";
import { verifyRollout as verifyRolloutTyped } from "../lib/verify";
import { readRows, SAMPLES, verdictCounts, verdictsShown, waitCompared } from "./compare-helpers";
import { cli } from "./helpers";

// lib takes Rollouts narrowed at the edge; these tests write plain JSON, narrowed here (failing loudly).
const verifyRollout = narrowing(verifyRolloutTyped);

const HTTP = "compare-http.jsonl";
const CLAUDE = "compare-mcp-claude.jsonl";
const HERMES = "compare-mcp-hermes-noprov.jsonl";

const rows = (name: string) => readRows(path.join(SAMPLES, name));

test.describe("compare runs", () => {
  test("HTTP vs Claude Code with provenance: full parity", async ({ page }) => {
    const expected = verdictCounts(rows(HTTP), rows(CLAUDE));
    await page.goto(`/compare?a=${HTTP}&b=${CLAUDE}`);
    await waitCompared(page);
    await expect.poll(() => verdictsShown(page)).toEqual(expected);
    const pairs = expected.same + expected["identity-bug"] + expected["different-actions"];
    await expect(page.getByTestId("compare-summary")).toHaveAttribute("data-pairs", String(pairs));
    await expect(page.getByTestId("compare-summary")).toHaveAttribute(
      "data-parity",
      String(expected.same / pairs),
    );
  });

  test("Download CSV: every pair, the bytes cli compare --format csv prints, under either policy", async ({
    page,
  }) => {
    const expected = verdictCounts(rows(HTTP), rows(HERMES));
    await page.goto(`/compare?a=${HTTP}&b=${HERMES}&verdict=same`);
    await waitCompared(page);
    const download = async (policy: string) => {
      const [file] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("compare-csv").click(),
      ]);
      expect(file.suggestedFilename()).toBe(
        `compare-http-vs-compare-mcp-hermes-noprov.${policy}.compare.csv`,
      );
      return readFileSync(await file.path(), "utf8");
    };
    const csv = await download("contract");
    const files = [path.join(SAMPLES, HTTP), path.join(SAMPLES, HERMES)];
    expect(csv).toBe(cli(["compare", ...files, "--format", "csv"]).stdout);
    // Every pair, not only the verdict the page shows: the identity bugs are in it.
    const verdicts = csv.split("\r\n").filter((line) => line.includes(`,"same actions, different reward",`));
    expect(verdicts).toHaveLength(expected["identity-bug"]);
    expect(expected["identity-bug"]).toBeGreaterThan(0);

    await page.getByTestId("compare-policy").selectOption("legacy");
    await waitCompared(page);
    expect(await download("legacy")).toBe(
      cli(["compare", ...files, "--format", "csv", "--policy", "legacy"]).stdout,
    );
  });

  test("one file as A and B: the page says each rollout is compared with itself", async ({ page }) => {
    await page.goto(`/compare?a=${HTTP}&b=${HTTP}`);
    await waitCompared(page);
    await expect(page.getByTestId("same-run")).toContainText("A and B are the same file");
    await page.getByTestId("compare-b-select").selectOption(HERMES);
    await waitCompared(page);
    await expect(page.getByTestId("same-run")).toHaveCount(0);
  });

  test("at 800 px the pairs' table fits the page: no column is reached by scrolling sideways", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto(`/compare?a=${HTTP}&b=${HERMES}`);
    await waitCompared(page);
    const table = page.getByTestId("pair-table");
    await expect(table.locator("tr[data-verdict]").first()).toBeVisible();
    const { scroll, client } = await table.evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(client);
  });

  test("HTTP vs Hermes without provenance: identity-bug verdicts, regressions sorted first, filter", async ({
    page,
  }) => {
    const expected = verdictCounts(rows(HTTP), rows(HERMES));
    // The rule must see a mix here, or the test would not tell verdicts apart.
    expect(expected["identity-bug"]).toBeGreaterThan(0);
    expect(expected.same).toBeGreaterThan(0);

    await page.goto(`/compare?a=${HTTP}&b=${CLAUDE}`);
    await waitCompared(page);
    await page.getByTestId("compare-b-select").selectOption(HERMES);
    // HERMES is the default B, so the URL drops the parameter.
    await expect(page).not.toHaveURL(/b=compare-mcp-claude/);
    await waitCompared(page);
    await expect(page.locator("tr[data-verdict=identity-bug]")).toHaveCount(expected["identity-bug"]);
    await expect.poll(() => verdictsShown(page)).toEqual(expected);
    await expect(page.getByTestId("identity-bugs")).toHaveAttribute(
      "data-count",
      String(expected["identity-bug"]),
    );
    const total = expected.same + expected["identity-bug"] + expected["different-actions"];
    await expect(page.getByTestId("compare-summary")).toHaveAttribute(
      "data-parity",
      String(expected.same / total),
    );

    // Sorted by verdict: every identity bug comes before every same-reward pair.
    const order = await page
      .locator("tr[data-verdict]")
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-verdict")));
    expect(order.lastIndexOf("identity-bug")).toBeLessThan(order.indexOf("same"));

    // Filter to identity bugs only; the URL keeps it.
    await page.locator("[data-filter-verdict=identity-bug]").click();
    await expect(page).toHaveURL(/verdict=identity-bug/);
    await expect(page.locator("tr[data-verdict]")).toHaveCount(expected["identity-bug"]);
    await expect(page.locator("tr[data-verdict=same]")).toHaveCount(0);

    // An identity-bug pair opened: the same tools on both sides, B under the Hermes alias.
    await page.locator("tr[data-verdict=identity-bug]").first().click();
    const alignment = page.getByTestId("alignment");
    await expect(alignment).toBeVisible();
    await expect(alignment.locator("[data-step]").first()).toHaveAttribute("data-step", "same");
    await expect(alignment.locator("[data-first-divergence]")).toHaveCount(0);
    await expect(alignment).toContainText("mcp_workplace_assistant_");

    // From the pair to the harness what-if of B's line.
    const bLine = await page.locator("tr[data-verdict=identity-bug]").first().getAttribute("data-b-line");
    await page.getByTestId("pair-whatif").click();
    await expect(page).toHaveURL(/tab=whatif/);
    await expect(page.getByTestId("whatif-result")).toHaveAttribute("data-line", bLine ?? "");
  });

  test("a local file with one changed argument: different actions, first divergence, text never HTML", async ({
    page,
  }) => {
    // B: the Claude Code run with one argument of the first multi-call rollout replaced by markup.
    const lines = readFileSync(path.join(SAMPLES, CLAUDE), "utf8").split("\n");
    const target = lines.findIndex((line) => (line.match(/"type":\s*"function_call"/g) ?? []).length > 1);
    expect(target).toBeGreaterThanOrEqual(0);
    const row = JSON.parse(lines[target] ?? "");
    const calls = row.response.output.filter((item: { type: string }) => item.type === "function_call");
    const second = calls[1];
    const args = JSON.parse(second.arguments);
    const field = Object.keys(args).at(-1) ?? "";
    args[field] = "<img src=x onerror=window.__xss=1>";
    second.arguments = JSON.stringify(args);
    lines[target] = JSON.stringify(row);
    const dir = mkdtempSync(path.join(tmpdir(), "compare-"));
    const file = path.join(dir, "claude-edited.jsonl");
    writeFileSync(file, lines.join("\n"));

    const expected = verdictCounts(rows(HTTP), readRows(file));
    expect(expected["different-actions"]).toBe(1);

    await page.goto(`/compare?a=${HTTP}&b=${CLAUDE}`);
    await waitCompared(page);
    await page.getByTestId("compare-b-file").setInputFiles(file);
    // The URL keeps the stored file's dataset id; the picker shows its name.
    await expect(page).toHaveURL(/[?&]b=d-/);
    await expect(page.locator("[data-picker='compare-b'] [data-loaded='claude-edited.jsonl']")).toBeVisible();
    await expect(page.locator("tr[data-verdict=different-actions]")).toHaveCount(1);
    await expect.poll(() => verdictsShown(page)).toEqual(expected);

    const pair = page.locator("tr[data-verdict=different-actions]");
    await expect(pair).toHaveAttribute("data-pair", `${row._ng_task_index}:${row._ng_rollout_index}`);
    await pair.click();
    const first = page.locator("[data-testid=alignment] [data-first-divergence]");
    await expect(first).toHaveCount(1);
    await expect(first).toHaveAttribute("data-step", "changed");
    await expect(first).toContainText("<img src=x onerror=window.__xss=1>");
    await expect(page.locator("[data-testid=alignment] img")).toHaveCount(0);
    expect(await page.evaluate(() => Reflect.get(window, "__xss"))).toBeUndefined();
  });
});

test.describe("harness what-if", () => {
  test("with provenance every variant equals HTTP; without, Claude Code survives and Hermes legacy breaks", async ({
    page,
  }) => {
    const lineIndex = rows(HTTP).findIndex((r) => r.reward === 1);
    expect(lineIndex).toBeGreaterThanOrEqual(0);
    const line = lineIndex + 1;
    await page.goto(`/compare?tab=whatif&sample=${HTTP}&line=${line}`);
    const table = page.getByTestId("whatif-table");
    await expect(table).toBeVisible();
    await expect(page.getByTestId("whatif-http")).toHaveAttribute("data-reward", "1");

    const withProvenance = table.locator("tr[data-with-provenance=true]");
    const n = await withProvenance.count();
    expect(n).toBeGreaterThanOrEqual(6);
    for (let i = 0; i < n; i++) await expect(withProvenance.nth(i)).toHaveAttribute("data-reward", "1");

    await expect(table.locator("tr[data-harness=claude-code][data-with-provenance=false]")).toHaveAttribute(
      "data-reward",
      "1",
    );
    await expect(table.locator("tr[data-harness=hermes-legacy][data-with-provenance=false]")).toHaveAttribute(
      "data-reward",
      "0",
    );
    await expect(table.locator("tr[data-harness=hermes-legacy][data-with-provenance=false]")).toContainText(
      "breaks",
    );
  });
});

test.describe("repair", () => {
  test("a run whose calls are bare (HTTP) has nothing to repair: the page says so and offers no download", async ({
    page,
  }) => {
    await page.goto(`/compare?tab=repair&r=${HTTP}&harness=hermes-legacy`);
    await page.getByTestId("repair-run").click();
    await expect(page.getByTestId("repair-summary")).toHaveAttribute("data-repaired", "0");
    await expect(page.getByTestId("repair-nothing")).toContainText("Nothing to repair");
    await expect(page.getByTestId("repair-download")).toHaveCount(0);
    // Bare names are no harness's aliases: no harness is offered instead.
    await expect(page.getByTestId("repair-suggested")).toHaveCount(0);

    // Hermes' older names repaired as Claude Code's: nothing, and the harness whose aliases they are is offered.
    await page.goto(`/compare?tab=repair&r=${HERMES}&harness=claude-code`);
    await page.getByTestId("repair-run").click();
    await expect(page.getByTestId("repair-summary")).toHaveAttribute("data-repaired", "0");
    await page.getByTestId("repair-suggested").and(page.locator("[data-harness=hermes-legacy]")).click();
    // hermes-legacy is the default harness: the URL then names none.
    await expect(page).not.toHaveURL(/harness=/);
    await expect(page.getByTestId("repair-harness")).toHaveValue("hermes-legacy");
    // And repaired under it at once.
    await expect(page.getByTestId("repair-summary")).not.toHaveAttribute("data-repaired", "0");
    await expect(page.getByTestId("repair-download")).toBeVisible();

    // A run whose rollouts all carry a map: nothing to derive, and the page says why (not the harness).
    await page.goto(`/compare?tab=repair&r=${CLAUDE}&harness=claude-code`);
    await page.getByTestId("repair-run").click();
    await expect(page.getByTestId("repair-summary")).toHaveAttribute("data-repaired", "0");
    await expect(page.getByTestId("repair-nothing")).toContainText(
      "already carries a mcp_tool_call_provenance map",
    );
  });

  test("Hermes legacy run repaired and downloaded scores like the HTTP run, line by line", async ({
    page,
  }) => {
    await page.goto("/compare?tab=repair");
    await page.getByTestId("repair-file-select").selectOption(HERMES);
    await page.getByTestId("repair-harness").selectOption("hermes-legacy");
    // The default server is the file's verifying server with its known tools.
    await expect(page.getByTestId("repair-server-0")).toHaveValue("workplace_assistant");
    await expect(page.getByTestId("repair-tools-0")).toHaveValue(/email_reply_email/);
    await page.getByTestId("repair-run").click();
    await expect(page.getByTestId("repair-banner")).toContainText("DERIVED PROVENANCE");

    const downloadEvent = page.waitForEvent("download");
    await page.getByTestId("repair-download").click();
    const download = await downloadEvent;
    const dir = mkdtempSync(path.join(tmpdir(), "repair-"));
    const saved = path.join(dir, download.suggestedFilename());
    await download.saveAs(saved);

    const http = rows(HTTP);
    const repaired = readRows(saved);
    expect(repaired).toHaveLength(http.length);
    repaired.forEach((rollout, i) => {
      const expected = verifyRollout(http[i], { policy: "contract" }).reward;
      expect(expected).toBe(http[i]?.reward);
      expect(verifyRollout(rollout, { policy: "contract" }).reward, `line ${i + 1}`).toBe(expected);
      expect(rollout.mcp_tool_call_provenance_derived).toBeDefined();
    });

    // Repaired lines keep every original byte: the original object, then the two added keys.
    const original = readFileSync(path.join(SAMPLES, HERMES), "utf8").split("\n");
    const written = readFileSync(saved, "utf8").split("\n");
    expect(written).toHaveLength(original.length);
    written.forEach((line, i) => {
      const before = original[i] ?? "";
      if (before.trim() === "") expect(line).toBe(before);
      else expect(line.startsWith(before.slice(0, before.lastIndexOf("}")))).toBe(true);
    });
  });

  test("lines the repair does not change are byte-identical (mixed file, CRLF, bad line)", async ({
    page,
  }) => {
    const claude = readFileSync(path.join(SAMPLES, CLAUDE), "utf8")
      .split("\n")
      .filter((l) => l !== "");
    const hermes = readFileSync(path.join(SAMPLES, HERMES), "utf8")
      .split("\n")
      .filter((l) => l !== "");
    // A line with a map (skipped), a Hermes line with CRLF (repaired), a bad line, a blank line,
    // a spaced-out Hermes line, and no final newline.
    const spaced = JSON.stringify(JSON.parse(hermes[1] ?? ""), null, 0).replace(/,"/g, ', "');
    const source = [
      claude[0],
      `${hermes[0]}\r`,
      "{not json",
      "",
      spaced,
      `{"_ng_task_index": 9, "reward": 1.0, "note": "not a rollout"}`,
    ].join("\n");
    const dir = mkdtempSync(path.join(tmpdir(), "repair-mixed-"));
    const file = path.join(dir, "mixed.jsonl");
    writeFileSync(file, source);

    await page.goto("/compare?tab=repair&harness=hermes-legacy");
    await page.getByTestId("repair-file-file").setInputFiles(file);
    await expect(page).toHaveURL(/[?&]r=d-/);
    await expect(page.getByTestId("repair-server-0")).toHaveValue("workplace_assistant");
    await page.getByTestId("repair-run").click();
    await expect(page.getByTestId("repair-summary")).toHaveAttribute("data-repaired", "2");
    await expect(page.locator("tr[data-repair-status=skipped]")).toHaveCount(1);

    const downloadEvent = page.waitForEvent("download");
    await page.getByTestId("repair-download").click();
    const saved = path.join(dir, "out.jsonl");
    await (await downloadEvent).saveAs(saved);
    const out = readFileSync(saved, "utf8").split("\n");
    const input = source.split("\n");
    expect(out).toHaveLength(input.length);
    // Unchanged: the line with a map, the bad line, the blank line, the non-rollout.
    for (const i of [0, 2, 3, 5]) expect(out[i], `line ${i + 1}`).toBe(input[i]);
    // Changed: CRLF kept, original bytes kept as a prefix, spacing style kept.
    expect(out[1]?.endsWith("}\r")).toBe(true);
    for (const i of [1, 4]) {
      const before = input[i] ?? "";
      expect(out[i]?.startsWith(before.slice(0, before.lastIndexOf("}")))).toBe(true);
      expect(out[i]).not.toBe(before);
    }
    // The line's own separator style (", " between members, no space after ":").
    expect(out[4]).toContain(', "mcp_tool_call_provenance":{');
    expect(readFileSync(saved).at(-1)).not.toBe(0x0a);
  });
});
