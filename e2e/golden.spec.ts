import path from "node:path";
import { expect, test } from "@playwright/test";
import { z } from "zod";
import { GOLDEN_WA, loadFiles, openLine, readJsonlFile } from "./helpers";

const PolicyExpectation = z.object({
  // null: Gym's request model refuses the request (gym_refuses / gym_refuses_contract): unverified.
  reward: z.number().nullable(),
  calls: z.array(z.object({ status: z.string(), verifier_name: z.string(), flags: z.array(z.string()) })),
});
const Expectation = z.object({ scheme: z.string(), contract: PolicyExpectation, legacy: PolicyExpectation });

const expected = readJsonlFile(path.join(GOLDEN_WA, "wa_expected.jsonl")).map((row) =>
  Expectation.parse(row),
);

test.describe("golden workplace_assistant rollouts", () => {
  test("every call's status, verifier name and both policies' rewards match the golden file", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.goto("/");
    await loadFiles(page, [path.join(GOLDEN_WA, "wa_rollouts.jsonl")]);
    await expect(page.getByTestId("rollout-count")).toHaveText(String(expected.length));

    for (const [index, expectation] of expected.entries()) {
      const line = index + 1;
      await openLine(page, line);
      const rows = page.locator("li[data-call-index]");
      await expect(rows).toHaveCount(expectation.contract.calls.length);
      const seen = await rows.evaluateAll((elements) =>
        elements.map((element) => ({
          status: element.getAttribute("data-status"),
          verifier: element.getAttribute("data-verifier-name"),
          legacy: element.getAttribute("data-legacy-status"),
        })),
      );
      expect(seen, `line ${line} (${expectation.scheme})`).toEqual(
        expectation.contract.calls.map((call, at) => ({
          status: call.status,
          verifier: call.verifier_name,
          legacy: expectation.legacy.calls[at]?.status ?? null,
        })),
      );
      for (const policy of ["contract", "legacy"] as const) {
        const shown = page.locator(`[data-reward][data-policy="${policy}"]`);
        const want = expectation[policy].reward;
        await expect(shown, `line ${line} ${policy} reward`).toHaveAttribute(
          "data-reward",
          String(want ?? "none"),
        );
        if (want === null) await expect(shown).toHaveAttribute("data-unverified-reason", "gym_refuses");
      }
    }
  });

  test("materialized inputs are paired by (_ng_task_index, _ng_rollout_index)", async ({ page }) => {
    const noecho = readJsonlFile(path.join(GOLDEN_WA, "wa_noecho_expected.jsonl")).map((row) =>
      Expectation.parse(row),
    );
    await page.goto("/");
    await loadFiles(page, [path.join(GOLDEN_WA, "wa_noecho.jsonl"), path.join(GOLDEN_WA, "wa_inputs.jsonl")]);
    await expect(page.locator("[data-inputs='wa_inputs.jsonl']")).toBeVisible();
    await expect(page.locator("[data-dataset='wa_noecho.jsonl']")).toContainText(`${noecho.length} paired`);
    for (const line of [1, 2, Math.ceil(noecho.length / 2), noecho.length]) {
      await openLine(page, line);
      const expectation = noecho[line - 1]!;
      for (const policy of ["contract", "legacy"] as const) {
        await expect(page.locator(`[data-reward][data-policy="${policy}"]`)).toHaveAttribute(
          "data-reward",
          String(expectation[policy].reward ?? "none"),
        );
      }
    }
  });
});
