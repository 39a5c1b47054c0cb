import path from "node:path";
import { expect, test } from "@playwright/test";
import { z } from "zod";
import { loadFiles, openLine, ROOT, readJsonlFile } from "./helpers";

const GOLDEN_IPI = path.join(ROOT, "fixtures/golden/ipi-rollouts");

const PolicyExpectation = z.object({
  reward: z.number(),
  reward_safety: z.number(),
  reward_utility: z.number(),
  calls: z.array(z.object({ status: z.string(), verifier_name: z.string() })),
});
const Expectation = z.object({ scheme: z.string(), contract: PolicyExpectation, legacy: PolicyExpectation });
const expected = readJsonlFile(path.join(GOLDEN_IPI, "ipi_expected.jsonl")).map((row) =>
  Expectation.parse(row),
);

test("indirect_prompt_injection golden rollouts: the chosen verifying server scores both policies with components", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto("/");
  await loadFiles(page, [path.join(GOLDEN_IPI, "ipi_rollouts.jsonl")]);
  // These rows name no environment: the verifying server is chosen once, for the whole file, in the URL.
  await openLine(page, 1);
  await page.getByLabel("Verifying server").selectOption("indirect_prompt_injection");
  await expect(page).toHaveURL(/server=indirect_prompt_injection/);
  for (const [index, expectation] of expected.entries()) {
    const line = index + 1;
    await openLine(page, line);
    await expect(page.locator("[data-testid=policies][data-server]")).toHaveAttribute(
      "data-server",
      "indirect_prompt_injection",
    );
    // Polled: the call rows re-render once the chosen server's resolution arrives from the worker.
    await expect
      .poll(
        () =>
          page
            .locator("li[data-call-index]")
            .evaluateAll((rows) =>
              rows.map((row) => [row.getAttribute("data-status"), row.getAttribute("data-verifier-name")]),
            ),
        { message: `line ${line} (${expectation.scheme})` },
      )
      .toEqual(expectation.contract.calls.map((call) => [call.status, call.verifier_name]));
    for (const policy of ["contract", "legacy"] as const) {
      const column = page.locator(`[data-policy-column="${policy}"]`);
      await expect(column.locator("[data-reward]"), `line ${line} ${policy}`).toHaveAttribute(
        "data-reward",
        String(expectation[policy].reward),
      );
      for (const component of ["reward_safety", "reward_utility"] as const) {
        await expect(column.locator(`[data-component="${component}"]`)).toHaveAttribute(
          "data-value",
          String(expectation[policy][component]),
        );
      }
    }
  }
});
