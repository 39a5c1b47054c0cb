/**
 * Issue 23, item 1 in the browser: look-alike names (a Latin script g, a Latin alpha, spaces) are marked and
 * flagged in the call list and the server filter, and file names with invisible or bidi characters show
 * as different chips whose counts read the same.
 */
import { expect, test } from "@playwright/test";
import { line, rollout } from "../scripts/gen-hostile";
import { openLine, waitReady } from "./helpers";

async function upload(page: import("@playwright/test").Page, files: { name: string; text: string }[]) {
  await page
    .getByTestId("file-input")
    .setInputFiles(
      files.map(({ name, text }) => ({ name, mimeType: "application/x-ndjson", buffer: Buffer.from(text) })),
    );
  await waitReady(page);
}

test("a tool name with a Latin script g is marked and flagged confusable; the real name stays plain", async ({
  page,
}) => {
  const text = line(
    rollout([
      { name: "calendar_\u0261et_event_information_by_id", arguments: '{"event_id": "00000000"}' },
      { name: "calendar_get_event_information_by_id", arguments: '{"event_id": "00000000"}' },
    ]),
  );
  await page.goto("/");
  await upload(page, [{ name: "g.jsonl", text }]);
  await openLine(page, 1);
  const rows = page.locator("li[data-call-index]");
  await expect(rows.first().locator("[data-testid=name-escape]").first()).toHaveText("⟨U+0261⟩");
  await expect(rows.first().locator("[data-name-flag]").first()).toContainText("confusable");
  await expect(rows.first().locator("[data-lookalike]").first()).toHaveAttribute(
    "data-lookalike",
    "calendar_get_event_information_by_id",
  );
  await expect(rows.nth(1).locator(".name-marked")).toHaveCount(0);
});

test("the server filter tells apart a trailing space and a Latin alpha", async ({ page }) => {
  const servers = ["workplace_assistant", "workplace_assistant ", "workplace_\u0251ssistant"];
  const text = servers
    .map((server, i) => line(rollout([{ name: "email_reply_email" }], { environment_name: server }, i)))
    .join("");
  await page.goto("/");
  await upload(page, [{ name: "envs.jsonl", text }]);
  const labels = await page
    .getByRole("combobox", { name: "Server", exact: true })
    .locator("option")
    .allTextContents();
  expect(labels.slice(1).sort()).toEqual(
    [
      "workplace_assistant",
      "workplace_assistant⟨U+0020⟩ (odd spaces)",
      "workplace_⟨U+0251⟩ssistant (confusable)",
    ].sort(),
  );
});

test("file names with U+200B or U+202E are different chips, isolated, and the counts read left to right", async ({
  page,
}) => {
  const text = line(rollout([{ name: "email_reply_email" }]));
  await page.goto("/");
  await upload(page, [
    { name: "runs.jsonl", text },
    { name: "ru\u200bns.jsonl", text },
    { name: "runs\u202e.jsonl", text },
  ]);
  const chips = page.locator("button[data-dataset-id]");
  await expect(chips).toHaveCount(3);
  const names = await chips.locator("bdi.chip-name").allTextContents();
  expect(new Set(names).size).toBe(3);
  expect(names).toContain("ru⟨U+200B⟩ns.jsonlinvisible characters");
  expect(names.some((n) => n.includes("⟨U+202E⟩"))).toBe(true);
  // No raw override reaches the page's chip text, and the counts sit outside the isolated name.
  for (const chip of await chips.all()) {
    expect(await chip.textContent()).not.toMatch(/[\u200b\u202e]/);
    await expect(chip.getByTestId("chip-counts")).toHaveText(/^\s*1 rollout/);
  }
});
