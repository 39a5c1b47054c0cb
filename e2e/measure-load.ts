/**
 * Measures loading one large file in real Chromium against a running app (not a test: timings vary by machine).
 *
 *   npx tsx scripts/gen-big-rollouts.ts /tmp/big.jsonl --bytes 2e8
 *   npx next build && npx next start -p 3100 -H 127.0.0.1 &
 *   npx tsx e2e/measure-load.ts /tmp/big.jsonl [http://127.0.0.1:3100]
 *
 * Prints the time until the list is ready, the longest main-thread task after the file was handed over
 * (PerformanceObserver "longtask", which reports tasks over 50 ms) and every long task with its time.
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
    const tasks: { start: number; ms: number }[] = [];
    Reflect.set(window, "__longTasks", tasks);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        tasks.push({ start: Math.round(entry.startTime), ms: entry.duration });
    }).observe({ type: "longtask", buffered: false });
  });
  const started = Date.now();
  const t0 = await page.evaluate(() => Math.round(performance.now()));
  await page.getByTestId("file-input").setInputFiles(file);
  await page.locator("main[data-ready][data-ready='true']").waitFor({ timeout: 600_000 });
  const loaded = Date.now() - started;
  const tReady = await page.evaluate(() => Math.round(performance.now()));
  const rows = await page.getByTestId("rollout-count").textContent();
  // Open the next rollout and scroll the list, as a user would right after loading.
  const openStarted = Date.now();
  await page.keyboard.press("j");
  await page.locator("article[data-detail-line='2'][data-verified='true']").waitFor();
  const opened = Date.now() - openStarted;
  await page
    .getByTestId("rollout-scroller")
    .evaluate((element) => element.scrollTo(0, element.scrollHeight / 2));
  const tasks: { start: number; ms: number }[] = await page.evaluate(() =>
    Reflect.get(window, "__longTasks"),
  );
  // Tasks before the hand-over are the page's own start-up, not the load.
  const during = tasks.filter((task) => task.start >= t0);
  const longest = Math.max(0, ...during.map((task) => task.ms));
  console.log(
    JSON.stringify(
      {
        file,
        rollouts: rows,
        load_ms: loaded,
        open_next_ms: opened,
        long_tasks: during.length,
        longest_task_ms: longest,
        // Long tasks in ms since the file was handed over; those before ready_at ran while loading.
        ready_at: tReady - t0,
        tasks: tasks.map((task) => ({ at: task.start - t0, ms: task.ms })),
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
}
