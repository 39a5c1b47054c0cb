/**
 * Measures loading one large file in real Chromium against a running app (not a test: timings vary by machine).
 *
 *   npx tsx scripts/gen-big-rollouts.ts /tmp/big.jsonl --bytes 2e8
 *   npx next build && npx next start -p 3100 -H 127.0.0.1 &
 *   npx tsx e2e/measure-load.ts /tmp/big.jsonl [http://127.0.0.1:3100]
 *
 * Prints the time until the list is ready, the longest main-thread task (PerformanceObserver "longtask",
 * which reports tasks over 50 ms) and how many long tasks there were while loading.
 */
import { chromium } from "@playwright/test";

const [file, base = "http://127.0.0.1:3100"] = process.argv.slice(2);
if (!file) {
  console.error("usage: npx tsx e2e/measure-load.ts FILE.jsonl [BASE_URL]");
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(base);
  await page.evaluate(() => {
    const tasks: number[] = [];
    Reflect.set(window, "__longTasks", tasks);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: false });
  });
  const started = Date.now();
  await page.getByTestId("file-input").setInputFiles(file);
  await page.locator("main.workspace[data-ready='true']").waitFor({ timeout: 600_000 });
  const loaded = Date.now() - started;
  const rows = await page.getByTestId("rollout-count").textContent();
  // Open the next rollout and scroll the list, as a user would right after loading.
  const openStarted = Date.now();
  await page.keyboard.press("j");
  await page.locator("article.detail[data-detail-line='2'][data-verified='true']").waitFor();
  const opened = Date.now() - openStarted;
  await page
    .getByTestId("rollout-scroller")
    .evaluate((element) => element.scrollTo(0, element.scrollHeight / 2));
  const tasks: number[] = await page.evaluate(() => Reflect.get(window, "__longTasks"));
  const longest = Math.max(0, ...tasks);
  console.log(
    JSON.stringify(
      {
        file,
        rollouts: rows,
        load_ms: loaded,
        open_first_ms: opened,
        long_tasks: tasks.length,
        longest_task_ms: longest,
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
}
