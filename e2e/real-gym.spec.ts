/**
 * NeMo Gym's own example files, loaded as a new user would (the file input), with and without their
 * example.jsonl: every row shows a recomputed reward (data-reward) or a stable unverified reason
 * (data-unverified-reason), the summary counts the unverified, and the weather rows reproduce their
 * recorded 1.0 once example_mcp_weather is chosen.
 */
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { loadFiles, ROOT, readJsonlFile } from "./helpers";

const GYM = path.join(ROOT, "fixtures/nemo-gym/resources_servers");

/** What each file's rows are before any server is chosen: the reason, and how the server was (not) chosen. */
const EXPECTED: Record<string, { reason: string; source: string }> = {
  example_mcp_weather: { reason: "no_server", source: "none" },
  example_multi_step: { reason: "missing_field", source: "declared_tools" },
  example_tool_call_multireward: { reason: "no_server", source: "none" },
  indirect_prompt_injection: { reason: "no_server", source: "none" },
  math_advanced_calculations: { reason: "missing_field", source: "declared_tools" },
  workplace_assistant: { reason: "missing_field", source: "declared_tools" },
};

/**
 * With example.jsonl beside them, multi_step's rollouts pair by input once the rows are read as Gym's request
 * model reads them (`type: "message"` filled in), and reproduce their recorded 1.0 (issue 17).
 */
const EXPECTED_WITH_INPUTS: Record<string, { reward: string; source: string }> = {
  example_multi_step: { reward: "1", source: "declared_tools" },
};

function files(server: string, withInputs: boolean): string[] {
  const data = path.join(GYM, server, "data");
  const rollouts = path.join(data, "example_rollouts.jsonl");
  return withInputs ? [path.join(data, "example.jsonl"), rollouts] : [rollouts];
}

/** Every row has exactly one of data-reward / data-unverified-reason; the summary counts the reasons. */
async function checkRows(page: Page, count: number): Promise<void> {
  await expect(page.getByTestId("rollout-count")).toHaveText(String(count));
  const rows = page.locator("[data-testid=rollout-scroller] [data-line]");
  await expect(rows).toHaveCount(count);
  let unverified = 0;
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const reward = await row.getAttribute("data-reward");
    const reason = await row.getAttribute("data-unverified-reason");
    expect((reward === null) !== (reason === null), `row ${i}: reward ${reward}, reason ${reason}`).toBe(
      true,
    );
    if (reason !== null) unverified++;
  }
  await expect(page.locator("[data-unverified-count]")).toHaveAttribute(
    "data-unverified-count",
    String(unverified),
  );
}

for (const server of Object.keys(EXPECTED)) {
  for (const withInputs of [false, true]) {
    test(`${server}${withInputs ? " + example.jsonl" : ""}: every row has a reward or a reason`, async ({
      page,
    }) => {
      await page.goto("/");
      await loadFiles(page, files(server, withInputs));
      const count = readJsonlFile(path.join(GYM, server, "data/example_rollouts.jsonl")).length;
      await checkRows(page, count);
      const want = EXPECTED[server];
      const paired = withInputs ? EXPECTED_WITH_INPUTS[server] : undefined;
      const rows = page.locator("[data-testid=rollout-scroller] [data-line]");
      for (let i = 0; i < count; i++) {
        if (paired !== undefined) {
          await expect(rows.nth(i)).toHaveAttribute("data-reward", paired.reward);
          await expect(rows.nth(i)).toHaveAttribute("data-server-source", paired.source);
          continue;
        }
        await expect(rows.nth(i)).toHaveAttribute("data-unverified-reason", want?.reason ?? "");
        await expect(rows.nth(i)).toHaveAttribute("data-server-source", want?.source ?? "");
      }
      // The detail says why, in a sentence, and never names an empty server.
      await expect(page.locator(".server-source")).toBeVisible();
      await expect(page.locator("article[data-detail-line]")).not.toContainText('""');
      await expect(page.locator("article[data-detail-line]")).not.toContainText("mcp____");
    });
  }
}

test("example_mcp_weather: choosing the server reproduces every recorded 1.0 (replayed session)", async ({
  page,
}) => {
  await page.goto("/");
  await loadFiles(page, files("example_mcp_weather", true));
  await page.getByLabel("Verifying server").selectOption("example_mcp_weather");
  const rows = page.locator("[data-testid=rollout-scroller] [data-line]");
  await expect(rows.first()).toHaveAttribute("data-reward", "1");
  await checkRows(page, 5);
  for (let i = 0; i < 5; i++) {
    await expect(rows.nth(i)).toHaveAttribute("data-reward", "1");
    await expect(rows.nth(i)).toHaveAttribute("data-server-source", "override");
  }
  await expect(page.locator("[data-unverified-count]")).toHaveAttribute("data-unverified-count", "0");
  await expect(page.locator("[data-reward][data-policy='contract']")).toHaveAttribute("data-reward", "1");
});

test("example_tool_call_multireward: a line without expected_call is missing_field, never scored with Gym's default", async ({
  page,
}) => {
  await page.goto("/");
  await loadFiles(page, files("example_tool_call_multireward", false));
  await page.getByLabel("Verifying server").selectOption("example_tool_call_multireward");
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]").first()).toHaveAttribute(
    "data-unverified-reason",
    "missing_field",
  );
  await expect(page.locator("[data-unverified-count]")).toHaveAttribute("data-unverified-count", "5");
  await expect(page.locator("article[data-detail-line]")).toContainText("This line carries no expected_call");
  // With example.jsonl the lines pair by input (Gym's defaults applied) and reproduce the recorded 2.0; the
  // chart's axes follow the data, so the axis reaches 2 (no clamp to 1).
  // A new tab: this one would reopen its files on the next load.
  const paired = await page.context().newPage();
  await paired.goto("/");
  await loadFiles(paired, files("example_tool_call_multireward", true));
  await paired.getByLabel("Verifying server").selectOption("example_tool_call_multireward");
  await expect(paired.locator("[data-testid=rollout-scroller] [data-line]").first()).toHaveAttribute(
    "data-reward",
    "2",
  );
  await expect(paired.locator("[data-testid=reward-chart] [data-axis-max]")).toHaveAttribute(
    "data-axis-max",
    "2",
  );
});

test("a recorded NaN reward is not drawn (no cx=NaN) and the axes stay finite", async ({ page }) => {
  await page.goto("/");
  const line = JSON.stringify({
    environment_name: "example_mcp_weather",
    verifier_metadata: { expected_city: "Paris" },
    responses_create_params: { input: "weather?" },
    response: {
      output: [
        { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city": "Paris"}' },
        {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "The weather in Paris is sunny and 72 F." }],
        },
      ],
    },
    reward: 1,
  });
  const text = `${line}\n${line.replace('"reward":1', '"reward":NaN')}\n`;
  await page
    .getByTestId("file-input")
    .first()
    .setInputFiles({
      name: "nan.jsonl",
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(text),
    });
  await expect(page.getByTestId("rollout-count")).toHaveText("2");
  // Rewards fill in behind the rows and the chart renders from a deferred value: wait for both.
  await expect(page.locator("[data-rewards='pending']")).toHaveCount(0);
  await expect(page.locator("[data-testid=reward-chart] circle").first()).toBeAttached();
  const cx = await page
    .locator("[data-testid=reward-chart] circle")
    .evaluateAll((els) => els.map((e) => e.getAttribute("cx")));
  expect(cx.length).toBeGreaterThan(0);
  for (const value of cx) expect(Number.isFinite(Number(value))).toBe(true);
  await expect(page.locator("[data-testid=reward-chart] [data-axis-max]")).toHaveAttribute(
    "data-axis-max",
    "1",
  );
});

test("files with the same name are distinct datasets", async ({ page }) => {
  await page.goto("/");
  await loadFiles(page, [
    path.join(GYM, "workplace_assistant/data/example_rollouts.jsonl"),
    path.join(GYM, "math_advanced_calculations/data/example_rollouts.jsonl"),
  ]);
  const chips = page.locator("[data-dataset='example_rollouts.jsonl']");
  await expect(chips).toHaveCount(2);
  await expect(chips.nth(0)).toContainText("example_rollouts.jsonl #1");
  await expect(chips.nth(1)).toContainText("example_rollouts.jsonl #2");
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]").first()).toHaveAttribute(
    "data-server",
    "workplace_assistant",
  );
  await chips.nth(1).click();
  await expect(page.locator("[data-testid=rollout-scroller] [data-line]").first()).toHaveAttribute(
    "data-server",
    "math_advanced_calculations",
  );
  // Dataset ids are unique per opened file and survive a reload ("d-" and a random UUID).
  await expect(page).toHaveURL(/file=d-[0-9a-f-]+/);
});

test("a CSV file gets one message saying it is not rollouts JSONL", async ({ page }) => {
  await page.goto("/");
  await loadFiles(page, [path.join(GYM, "workplace_assistant/csv_data/processed/emails.csv")]);
  await expect(page.getByTestId("file-problem")).toContainText("CSV");
  await expect(page.locator("[data-error-line]")).toHaveCount(0);
});
