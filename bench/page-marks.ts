/**
 * The page-side marks the browser benches read (bench/browser.ts, bench/profile-rewards.ts): the drop (the file
 * input's change), the first rows, the complete index (`main[data-ready]`), every reward (`data-rewarded`) and
 * each main-thread task of 50 ms or more (Long Tasks API), all in the page's performance.now() time; and each
 * frame of 50 ms or more (Long Animation Frames API) split into what ran in it: its scripts (with their forced
 * style and layout), the render steps' callbacks (animation frames, observers), and style, layout and paint.
 * The tasks are what the goals count; the frames say what to cut.
 */
import type { Page } from "@playwright/test";
import { z } from "zod";

export const PageMarks = z.object({
  drop: z.number().nullable(),
  first_rows: z.number().nullable(),
  ready: z.number().nullable(),
  rewarded: z.number().nullable(),
  tasks: z.array(z.object({ start: z.number(), ms: z.number() })),
  frames: z.array(
    z.object({
      start: z.number(),
      ms: z.number(),
      /** From the frame's start to its render steps: tasks and microtasks. */
      work_ms: z.number(),
      /** The render steps before style: requestAnimationFrame callbacks, resize and intersection observers. */
      callbacks_ms: z.number(),
      /** Style, layout, paint and the commit to the compositor. */
      render_ms: z.number(),
      scripts: z.array(z.object({ what: z.string(), ms: z.number(), forced_layout_ms: z.number() })),
    }),
  ),
});
export type PageMarks = z.infer<typeof PageMarks>;

/** Starts recording the marks in `page` (before the drop). */
export async function watchPageMarks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const marks: PageMarks = {
      drop: null,
      first_rows: null,
      ready: null,
      rewarded: null,
      tasks: [],
      frames: [],
    };
    Reflect.set(window, "__marks", marks);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.tasks.push({ start: entry.startTime, ms: entry.duration });
    }).observe({ type: "longtask", buffered: false });
    const num = (value: unknown) => (typeof value === "number" ? value : 0);
    const text = (value: unknown) => (typeof value === "string" ? value : "");
    const round = (ms: number) => Math.round(ms * 10) / 10;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        // PerformanceLongAnimationFrameTiming is not in TypeScript's DOM types yet: read its fields by name.
        const field = (name: string) => Reflect.get(entry, name);
        const end = entry.startTime + entry.duration;
        const renderStart = num(field("renderStart")) || end;
        const styleStart = num(field("styleAndLayoutStart")) || renderStart;
        const scripts: unknown = field("scripts");
        marks.frames.push({
          start: round(entry.startTime),
          ms: round(entry.duration),
          work_ms: round(renderStart - entry.startTime),
          callbacks_ms: round(styleStart - renderStart),
          render_ms: round(end - styleStart),
          scripts: (Array.isArray(scripts) ? scripts : []).map((script: unknown) => ({
            what: `${text(Reflect.get(Object(script), "invoker"))} ${text(Reflect.get(Object(script), "sourceFunctionName"))}`.trim(),
            ms: round(num(Reflect.get(Object(script), "duration"))),
            forced_layout_ms: round(num(Reflect.get(Object(script), "forcedStyleAndLayoutDuration"))),
          })),
        });
      }
    }).observe({ type: "long-animation-frame", buffered: false });
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
