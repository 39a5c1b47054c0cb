/**
 * A tool call the model wrote as text (Gym reads function_call items only): the whole run's answer counts
 * such zeros, `is:text_call` lists them, and the CSV the page downloads is `cli triage`'s.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cli, loadFiles, ROOT, waitReady } from "./helpers";

const SAMPLES = path.join(ROOT, "public/samples");

/** The noecho sample's first 6 rollouts, the first 3 answering with a call written as text. */
function runWithTextCalls(): string {
  const lines = readFileSync(path.join(SAMPLES, "workplace-noecho.jsonl"), "utf8").split("\n").slice(0, 6);
  const rewritten = lines.map((line, i) => {
    const row = JSON.parse(line);
    if (i >= 3) return line;
    row.response.output = [
      ...row.response.output.filter(
        (item: { type: string }) => item.type !== "function_call" && item.type !== "function_call_output",
      ),
      {
        type: "message",
        role: "assistant",
        content: [
          {
            type: "output_text",
            text: '<tool_call>\n{"name": "email_reply_email", "arguments": {"email_id": "1"}}\n</tool_call>',
          },
        ],
      },
    ];
    row.reward = 0;
    return JSON.stringify(row);
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), "text-calls-")), "text-calls.jsonl");
  writeFileSync(file, `${rewritten.join("\n")}\n`);
  return file;
}

test("the zeros that wrote their call as text are counted, and is:text_call lists them", async ({ page }) => {
  const file = runWithTextCalls();
  const inputs = path.join(SAMPLES, "workplace_materialized_inputs.jsonl");
  await page.goto("/");
  await loadFiles(page, [file, inputs]);
  await waitReady(page);
  // Gym recorded 0 on 5 of the 6: the 3 written as text, and 2 of the sample's own.
  await expect(page.getByTestId("triage-text-calls")).toContainText(
    "3 of the 5 zeros write their tool call as text and make no function_call",
  );
  await page.getByTestId("structured-filter").fill("is:text_call");
  await expect(page.getByTestId("shown-count")).toHaveAttribute("data-shown", "3");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-csv").click(),
  ]);
  const csv = readFileSync(await download.path(), "utf8");
  expect(csv).toBe(
    cli(["triage", file, "--inputs", inputs, "--format", "csv", "--filter", "is:text_call"]).stdout,
  );
  expect(csv.trim().split("\r\n")).toHaveLength(4);
});
