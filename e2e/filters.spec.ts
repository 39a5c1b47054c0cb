import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { z } from "zod";
import { GOLDEN_WA, loadFiles, readJsonlFile } from "./helpers";

const Call = z.object({ status: z.string(), flags: z.array(z.string()) });
const Expectation = z.object({
  // null: Gym's request model refuses the request, so the line is unverified.
  contract: z.object({ reward: z.number().nullable(), calls: z.array(Call) }),
  legacy: z.object({ reward: z.number().nullable() }),
});
const Rollout = z.looseObject({ reward: z.number(), agent_ref: z.object({ name: z.string() }) });

const expected = readJsonlFile(path.join(GOLDEN_WA, "wa_expected.jsonl")).map((row) =>
  Expectation.parse(row),
);
const rollouts = readJsonlFile(path.join(GOLDEN_WA, "wa_rollouts.jsonl")).map((row) => Rollout.parse(row));

function linesWhere(predicate: (index: number) => boolean): number[] {
  return expected.flatMap((_, index) => (predicate(index) ? [index + 1] : []));
}

async function shownLines(page: Page): Promise<number> {
  return Number(await page.getByTestId("shown-count").getAttribute("data-shown"));
}

test.describe("filters", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/");
    await loadFiles(page, [path.join(GOLDEN_WA, "wa_rollouts.jsonl")]);
  });

  test("reward 0, reward changed and external filters select the expected rollouts", async ({ page }) => {
    const zero = linesWhere((i) => rollouts[i]!.reward === 0);
    const changed = linesWhere(
      (i) => expected[i]!.contract.reward !== null && expected[i]!.contract.reward !== rollouts[i]!.reward,
    );
    const unverified = linesWhere((i) => expected[i]!.contract.reward === null);
    // External highlight: an external call without a mismatched flag (near-miss servers are mismatched).
    const external = linesWhere((i) =>
      expected[i]!.contract.calls.some(
        (call) => call.status === "external" && !call.flags.includes("server_near_miss"),
      ),
    );

    await page.locator("[data-filter='zero']").click();
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(zero.length));
    await page.locator("[data-filter='zero']").click();

    await page.locator("[data-filter='changed']").click();
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(changed.length));
    expect(new URL(page.url()).searchParams.get("f")).toBe("is:changed");
    const firstChanged = page.locator("[data-testid=rollout-scroller] [data-line]").first();
    await expect(firstChanged).toHaveAttribute("data-line", String(changed[0]));
    await page.locator("[data-filter='changed']").click();

    await page.locator("[data-filter='external']").click();
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(external.length));
    expect(await shownLines(page)).toBeGreaterThan(0);
    await page.locator("[data-filter='external']").click();

    // The unverified tile counts what Gym's server refuses, and filters to it.
    expect(unverified.length).toBeGreaterThan(0);
    await expect(page.locator("[data-unverified-count]")).toHaveAttribute(
      "data-unverified-count",
      String(unverified.length),
    );
    await page.locator("[data-summary='unverified']").click();
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(unverified.length));
    await expect(page.locator("[data-testid=rollout-scroller] [data-line]").first()).toHaveAttribute(
      "data-unverified-reason",
      "gym_refuses",
    );
  });

  test("agent filter and text search narrow the list", async ({ page }) => {
    const agent = "near_miss_agent";
    const count = rollouts.filter((row) => row.agent_ref.name === agent).length;
    await page.getByLabel("Agent", { exact: true }).selectOption(agent);
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(count));
    await page.getByRole("button", { name: "clear" }).click();
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(rollouts.length));
    await page.getByLabel("Search rollouts").fill("duplicate_ids_agent");
    const duplicates = rollouts.filter((row) => row.agent_ref.name === "duplicate_ids_agent").length;
    await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", String(duplicates));
  });

  test("j/k move between rollouts and n/p between calls", async ({ page }) => {
    // The first rollout is open before any key is pressed.
    await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "1");
    await page.keyboard.press("j");
    await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "2");
    await page.keyboard.press("k");
    await expect(page.locator("article[data-detail-line]")).toHaveAttribute("data-detail-line", "1");
    const target = expected.findIndex((row) => row.contract.calls.length >= 3) + 1;
    for (let line = 1; line < target; line++) await page.keyboard.press("j");
    await expect(page.locator("article[data-detail-line]")).toHaveAttribute(
      "data-detail-line",
      String(target),
    );
    await page.keyboard.press("n");
    await expect(page.locator("li[data-call-index][aria-current=true]")).toHaveAttribute(
      "data-call-index",
      "0",
    );
    await page.keyboard.press("n");
    await expect(page.locator("li[data-call-index][aria-current=true]")).toHaveAttribute(
      "data-call-index",
      "1",
    );
    await page.keyboard.press("p");
    await expect(page.locator("li[data-call-index][aria-current=true]")).toHaveAttribute(
      "data-call-index",
      "0",
    );
    expect(new URL(page.url()).searchParams.get("call")).toBe("0");
  });
});
