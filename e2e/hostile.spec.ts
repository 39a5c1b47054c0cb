/** Issue 10 in the browser: damaged and multi-member gzip, spoofed names, ?sample= and /samples/ headers. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { hostileCorpus, line, longRolloutLine, rollout, SPOOFED_SERVERS } from "../scripts/gen-hostile";
import { GOLDEN_WA, openLine, readJsonlFile, waitReady } from "./helpers";

const corpus = hostileCorpus();

async function upload(page: import("@playwright/test").Page, name: string, bytes: Uint8Array) {
  await page
    .getByTestId("file-input")
    .setInputFiles({ name, mimeType: "application/gzip", buffer: Buffer.from(bytes) });
  await waitReady(page);
}

test("a multi-member gzip (cat a.gz b.gz) shows every rollout of every member", async ({ page }) => {
  const { gzipSync } = await import("node:zlib");
  const text = readFileSync(path.join(GOLDEN_WA, "wa_rollouts.jsonl"), "utf8");
  const lines = text.split("\n").filter((l) => l !== "");
  const half = Math.floor(lines.length / 2);
  const a = gzipSync(`${lines.slice(0, half).join("\n")}\n`);
  const b = gzipSync(`${lines.slice(half).join("\n")}\n`);
  await page.goto("/");
  await upload(page, "multi.jsonl.gz", Buffer.concat([a, b]));
  await expect(page.getByTestId("rollout-count")).toHaveText(
    String(readJsonlFile(path.join(GOLDEN_WA, "wa_rollouts.jsonl")).length),
  );
});

test("a truncated gzip shows every row before the damage and lists the damage", async ({ page }) => {
  const { gzipSync } = await import("node:zlib");
  const gz = gzipSync(readFileSync(path.join(GOLDEN_WA, "wa_rollouts.jsonl")));
  await page.goto("/");
  await upload(page, "cut.jsonl.gz", gz.subarray(0, Math.floor(gz.length * 0.6)));
  const rows = Number(await page.getByTestId("rollout-count").textContent());
  expect(rows).toBeGreaterThan(0);
  await expect(page.getByTestId("load-error")).toHaveCount(0);
  await expect(page.getByTestId("error-count")).toHaveText("1");
  await expect(page.locator(`[data-error-line='${rows + 1}']`)).toContainText(
    /damaged gzip data at byte \d+ \(member 1\): the file ends in the middle of a member/,
  );
});

test("look-alike server names are marked, flagged and told apart in the server filter", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles({
    name: "spoofed.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(corpus["spoofed-names.jsonl"]!),
  });
  await waitReady(page);
  await openLine(page, 1);
  const row = page.locator("li[data-call-index]").first();
  await expect(row.locator("[data-testid=name-escape]").first()).toHaveText("⟨U+200B⟩");
  await expect(row.locator("[data-name-flag]").first()).toContainText("invisible characters");
  await expect(row.locator("[data-testid=call-why]").first()).toContainText('"workplace⟨U+200B⟩_assistant"');
});

test("the server filter tells look-alike environment names apart", async ({ page }) => {
  const servers = ["workplace_assistant", ...Object.values(SPOOFED_SERVERS)];
  const file = servers.map((server, i) =>
    line(rollout([{ name: "email_reply_email" }], { environment_name: server }, i)),
  );
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles({
    name: "envs.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(file.join("")),
  });
  await waitReady(page);
  const labels = await page
    .getByRole("combobox", { name: "Server", exact: true })
    .locator("option")
    .allTextContents();
  expect(labels.slice(1).sort()).toEqual(
    [
      "workplace_assistant",
      "workplace⟨U+200B⟩_assistant (invisible characters)",
      "workplace_⟨U+202E⟩assistant (bidi controls)",
      "w⟨U+043E⟩rkplace_assistant (mixed scripts, confusable)",
    ].sort(),
  );
});

test("an empty file gets one message saying it is empty", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles({
    name: "empty.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.alloc(0),
  });
  await expect(page.getByTestId("file-problem")).toHaveText(/^empty\.jsonl: This file is empty/);
  await expect(page.getByTestId("file-problem")).toHaveCount(1);
  await expect(page.locator("[data-error-line]")).toHaveCount(0);
});

test("a file of one line cut short says so on its line, under the file's sentence", async ({ page }) => {
  const whole = readFileSync(path.join(GOLDEN_WA, "wa_noecho.jsonl"), "utf8").split("\n")[0] ?? "";
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles({
    name: "cut.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(whole.slice(0, Math.floor(whole.length / 2))),
  });
  await expect(page.getByTestId("file-problem")).toContainText("a line cut short");
  await expect(page.locator("[data-error-line='1']")).toContainText("the file's last line, cut short");
});

test("many bad lines: the list shows 200 and the worker sends the rest a page at a time", async ({
  page,
}) => {
  const good = line(rollout([{ name: "email_reply_email" }], { environment_name: "workplace_assistant" }, 0));
  const bad = Array.from({ length: 450 }, (_, i) => `not json ${i}\n`).join("");
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles({
    name: "bad.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(good + bad),
  });
  await waitReady(page);
  await expect(page.getByTestId("error-count")).toHaveText("450");
  await page.locator("[data-testid=line-errors] summary").click();
  await expect(page.locator("[data-error-line]")).toHaveCount(200);
  await page.getByTestId("more-line-errors").click();
  await expect(page.locator("[data-error-line]")).toHaveCount(400);
  await page.getByTestId("more-line-errors").click();
  await expect(page.locator("[data-error-line]")).toHaveCount(450);
  await expect(page.locator("[data-error-line='451']")).toContainText("invalid JSON");
  await expect(page.getByTestId("more-line-errors")).toHaveCount(0);
});

test("?sample= opens only bundled samples, never LICENSE", async ({ page }) => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(new URL(request.url()).pathname));
  await page.goto("/?sample=LICENSE");
  await expect(page.getByTestId("unknown-sample")).toContainText("LICENSE");
  await expect(page.getByTestId("rollout-count")).toHaveCount(0);
  expect(requested).not.toContain("/samples/LICENSE");
});

test("/samples/ responses carry a CSP and nosniff", async ({ request }) => {
  for (const file of ["index.json", "LICENSE", "workplace-harnesses.jsonl"]) {
    const response = await request.get(`/samples/${file}`);
    expect(response.status()).toBe(200);
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response.headers()["content-security-policy"]).toContain("default-src 'none'");
  }
});

test("a 20k-call rollout opens with only the rows on screen in the DOM; a clicked call and n/p reach the transcript", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const calls = 20_000;
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles({
    name: "long.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(longRolloutLine(calls, 1, "c")),
  });
  await waitReady(page);
  await openLine(page, 1);
  const detail = page.locator("article[data-detail-line='1']");
  await expect(detail.locator(".identity h3")).toContainText("(20,000)");
  await expect(detail.locator("li[data-call-index]").first()).toHaveAttribute("data-call-index", "0");
  await expect(detail.locator("[data-transcript-call]").first()).toBeVisible();
  // Virtualized: a few dozen rows at most, not 20,000 (nor the old batches of 200 and 60).
  expect(await detail.locator("li[data-call-index]").count()).toBeLessThan(40);
  expect(await detail.locator("[data-transcript-call]").count()).toBeLessThan(30);

  // Scrolled to its end once, the call list stays at its end as the last rows arrive and are measured (it
  // used to drift a few rows off it); clicking the last call brings its transcript card into view.
  const last = detail.locator(`li[data-call-index='${calls - 1}']`);
  const list = detail.locator("[data-calls]");
  // The last row whole in the list's box, at its bottom.
  const lastAtEnd = () =>
    list.evaluate((element, index) => {
      const row = element.querySelector(`li[data-call-index='${index}']`);
      if (!row) return false;
      const box = element.getBoundingClientRect();
      const rect = row.getBoundingClientRect();
      return rect.top >= box.top && Math.abs(rect.bottom - box.bottom) <= 2;
    }, calls - 1);
  await list.evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect.poll(lastAtEnd).toBe(true);
  // Once verified (the rows there may grow with their badges), still at the end.
  await expect(detail).toHaveAttribute("data-verified", "true", { timeout: 60_000 });
  expect(await lastAtEnd()).toBe(true);
  await last.locator("[data-testid=call-select]").click();
  await expect(page).toHaveURL(new RegExp(`call=${calls - 1}`));
  await expect(page.locator(`#call-${calls - 1}`)).toBeInViewport();
  await expect(last).toHaveAttribute("aria-current", "true");

  // p steps back one call: both lists follow.
  await page.keyboard.press("p");
  await expect(detail.locator("li[data-call-index][aria-current=true]")).toHaveAttribute(
    "data-call-index",
    String(calls - 2),
  );
  await expect(page.locator(`#call-${calls - 2}`)).toBeInViewport();
  await expect(page.locator(`#call-${calls - 2}`)).toHaveAttribute("aria-current", "true");
  expect(await detail.locator("li[data-call-index]").count()).toBeLessThan(40);
});
