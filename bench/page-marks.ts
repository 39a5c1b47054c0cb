/**
 * The page-side marks the browser benches read (bench/browser.ts, bench/profile-rewards.ts): the drop (the file
 * input's change), the first rows, the complete index (`main[data-ready]`), every reward (`data-rewarded`) and
 * each main-thread task of 50 ms or more (Long Tasks API), all in the page's performance.now() time.
 */
import type { Page } from "@playwright/test";
import { z } from "zod";

export const PageMarks = z.object({
  drop: z.number().nullable(),
  first_rows: z.number().nullable(),
  ready: z.number().nullable(),
  rewarded: z.number().nullable(),
  tasks: z.array(z.object({ start: z.number(), ms: z.number() })),
});
export type PageMarks = z.infer<typeof PageMarks>;

/** Starts recording the marks in `page` (before the drop). */
export async function watchPageMarks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const marks: PageMarks = { drop: null, first_rows: null, ready: null, rewarded: null, tasks: [] };
    Reflect.set(window, "__marks", marks);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.tasks.push({ start: entry.startTime, ms: entry.duration });
    }).observe({ type: "longtask", buffered: false });
    document.addEventListener(
      "change",
      (event) => {
        if (event.target instanceof HTMLElement && event.target.dataset.testid === "file-input") {
          marks.drop ??= performance.now();
        }
      },
      true,
    );
    const check = () => {
      const now = performance.now();
      if (marks.first_rows === null && document.querySelector("[data-testid=rollout-scroller] [data-line]"))
        marks.first_rows = now;
      if (marks.ready === null && document.querySelector("main[data-ready='true']")) marks.ready = now;
      if (marks.rewarded === null && document.querySelector("main[data-ready][data-rewarded='true']")) {
        marks.rewarded = now;
      }
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

/** The marks recorded so far, narrowed from the page's value. */
export async function readPageMarks(page: Page): Promise<PageMarks> {
  return PageMarks.parse(await page.evaluate(() => Reflect.get(window, "__marks")));
}
