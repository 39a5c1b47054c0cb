/**
 * `npm run bench:hostile`: issue 10's two browser targets, in Debian's Chromium through the app's own
 * file inputs (a benchmark, not a timed test: figures vary by machine and load):
 *
 * - a 100k-call rollout opens in under 2 s with the page responsive, in three shapes (issues 10 and 23):
 *   scripts/gen-hostile.ts longRolloutLine (three tools, no provenance), and realisticLongRollout as a long
 *   real run looks (a call_id and provenance entry per call, Hermes aliases, 27 declared tools, a ground
 *   truth), plain and with distinct arguments and outputs and a reasoning item before every call. Each
 *   file holds a small rollout on line 1 (opened by default) and the long one on line 2. Measured from the
 *   click on line 2's row to the first call row and the first transcript item on screen, and to both
 *   verifications shown; then n and p (next/previous call) pressed one at a time, each from the keydown to
 *   the call selected in the call list and the transcript (goal: under 100 ms); the longest main-thread
 *   task (PerformanceObserver "longtask") from the click to the last press; the main thread's JS heap and
 *   the data worker's (V8 heap + ArrayBuffers, over the DevTools protocol); the DOM size. The call list is
 *   scrolled to its last call, that call is clicked, and the transcript must show it (scroll-to-call).
 *   Each is opened twice: once the file is settled (rewards and run view done), and once while the file
 *   still loads (the row clicked as soon as it appears, the worker busy with rewards and the run view).
 *   BENCH_SHAPES=plain,realistic,distinct,bad,compare picks shapes (and /compare), BENCH_SCENARIOS=settled,loading
 *   the openings.
 * - a file of many bad lines (a good rollout, then 8 MiB of lines that are not JSON): the longest main-thread
 *   task from the drop to the file settled, with its errors panel opened and "show more" clicked once.
 * - two 16k-call rollouts that differ throughout compare in under 5 s on /compare: from picking run B to
 *   the pair's verdict, then to the aligned steps on screen once the pair is opened.
 *
 * It needs a production build (`npx next build`) and starts `next start` on BENCH_PORT (default 3191)
 * unless BASE_URL names a running app. Writes bench/hostile-browser.json and bench/hostile-browser.md (all shapes'
 * results, whatever BENCH_SHAPES ran: set BENCH_OUT=NAME for bench/NAME.json and .md instead).
 * Heavy: run it alone (`flock /tmp/heavy.lock npm run bench:hostile`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { type CDPSession, chromium, type Page } from "@playwright/test";
import { z } from "zod";
import {
  junkLines,
  line,
  longRolloutLine,
  manyCalls,
  realisticLongRollout,
  rollout,
} from "../scripts/gen-hostile";
import { CHROMIUM, CHROMIUM_ARGS, ROOT, serveApp } from "./browser-app";
import { longTasks, TRACE_CATEGORIES } from "./trace-tasks";

const PORT = Number(process.env.BENCH_PORT ?? 3191);
const DIR = process.env.BENCH_DIR ?? path.join(tmpdir(), "rollout-inspector-hostile");
const TIMEOUT_MS = 300_000;
/** BENCH_TRACE=DIR: a Chromium trace of each open, its long main-thread tasks explained in DIR (bench/trace-tasks.ts). */
const TRACE_DIR = process.env.BENCH_TRACE;
/** BENCH_OUT=NAME writes bench/NAME.json and .md: a run of some shapes would otherwise replace every shape's results. */
const OUT = process.env.BENCH_OUT ?? "hostile-browser";

/** Issues 10 and 23's targets. */
export const GOALS = {
  open_100k_ms: 2_000,
  compare_16k_ms: 5_000,
  longest_task_ms: 50,
  next_previous_ms: 100,
} as const;
/** n presses, then p presses, measured one by one after the rollout opened. */
const NEXT_PRESSES = 10;
const PREVIOUS_PRESSES = 5;
const LONG_CALLS = 100_000;
const COMPARE_CALLS = 16_000;
/** A good rollout, then this many bytes of lines that are not JSON (issue 23's many-bad-lines file). */
const BAD_LINES_BYTES = 8 * 2 ** 20;

/** The 100k-call rollouts opened, each on line 2 of its file (line 1 is a small rollout, open by default). */
const SHAPES = {
  plain: {
    file: "long-100k.jsonl",
    label: "100k calls, three tools, no provenance (issue 10)",
    line: () => longRolloutLine(LONG_CALLS, 1, "c"),
  },
  realistic: {
    file: "realistic-100k.jsonl",
    label:
      "realistic: a call_id and provenance entry per call, Hermes aliases, 27 declared tools, ground truth",
    line: () =>
      line(
        realisticLongRollout(LONG_CALLS, {
          harness: "hermes-legacy",
          distinctArguments: false,
          reasoning: false,
        }),
      ),
  },
  distinct: {
    file: "realistic-distinct-100k.jsonl",
    label: "realistic + distinct arguments and outputs + a reasoning item before every call",
    line: () =>
      line(
        realisticLongRollout(LONG_CALLS, {
          harness: "hermes-legacy",
          distinctArguments: true,
          reasoning: true,
        }),
      ),
  },
} as const;
type Shape = keyof typeof SHAPES;

function files() {
  mkdirSync(DIR, { recursive: true });
  const long = {} as Record<Shape, string>;
  for (const [shape, spec] of Object.entries(SHAPES) as [Shape, (typeof SHAPES)[Shape]][]) {
    const file = path.join(DIR, spec.file);
    if (!existsSync(file))
      writeFileSync(file, line(rollout([{ name: "email_reply_email" }], {}, 1)) + spec.line());
    long[shape] = file;
  }
  const bad = path.join(DIR, "bad-lines.jsonl");
  if (!existsSync(bad))
    writeFileSync(bad, line(rollout([{ name: "email_reply_email" }], {}, 1)) + junkLines(BAD_LINES_BYTES));
  const a = path.join(DIR, "compare-16k-a.jsonl");
  const b = path.join(DIR, "compare-16k-b.jsonl");
  if (!existsSync(a)) writeFileSync(a, line(rollout(manyCalls(COMPARE_CALLS, 1, "a"))));
  if (!existsSync(b)) writeFileSync(b, line(rollout(manyCalls(COMPARE_CALLS, 2, "b"))));
  return { long, bad, a, b };
}

const Attached = z.object({
  sessionId: z.string(),
  targetInfo: z.object({ title: z.string(), type: z.string() }),
});
const Reply = z.object({
  id: z.number(),
  result: z
    .object({ usedSize: z.number(), totalSize: z.number(), backingStorageSize: z.number() })
    .optional(),
});

/** The data worker's allocated V8 heap plus ArrayBuffer backing stores (Runtime.getHeapUsage in its target). */
async function workerHeap(page: Page): Promise<() => Promise<number | null>> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  let dataSession: string | null = null;
  const waiting = new Map<number, (bytes: number | null) => void>();
  let next = 1;
  cdp.on("Target.attachedToTarget", (event) => {
    const parsed = Attached.safeParse(event);
    if (parsed.success && parsed.data.targetInfo.title === "data") dataSession = parsed.data.sessionId;
  });
  cdp.on("Target.receivedMessageFromTarget", (event) => {
    const message = z.object({ message: z.string() }).safeParse(event);
    if (!message.success) return;
    const reply = Reply.safeParse(JSON.parse(message.data.message));
    if (reply.success && reply.data.result) {
      const { totalSize, backingStorageSize } = reply.data.result;
      waiting.get(reply.data.id)?.(totalSize + backingStorageSize);
    }
  });
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return async () => {
    const session = dataSession;
    if (session === null) return null;
    const id = next++;
    return new Promise<number | null>((resolve) => {
      waiting.set(id, resolve);
      void cdp
        .send("Target.sendMessageToTarget", {
          sessionId: session,
          message: JSON.stringify({ id, method: "Runtime.getHeapUsage" }),
        })
        .catch(() => resolve(null));
      setTimeout(() => resolve(null), 5_000);
    });
  };
}

const mib = (bytes: number | null) => (bytes === null ? null : Math.round(bytes / 2 ** 20));

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Long tasks and the first time each selector is in the DOM, recorded in the page. */
async function observe(page: Page, selectors: Record<string, string>): Promise<void> {
  await page.evaluate((watched) => {
    const state = {
      tasks: [] as { start: number; ms: number }[],
      frames: [] as { start: number; ms: number; blocking: number; scripts: string[] }[],
      seen: {} as Record<string, number>,
      click: null as number | null,
    };
    Reflect.set(window, "__bench", state);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) state.tasks.push({ start: entry.startTime, ms: entry.duration });
    }).observe({ type: "longtask", buffered: false });
    // Long animation frames name the scripts that ran in them (the Long Tasks API's attribution is "self").
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const blocking = Reflect.get(entry, "blockingDuration");
        const scripts: unknown = Reflect.get(entry, "scripts");
        const named = (Array.isArray(scripts) ? scripts : []).map((script: object) => {
          const field = (key: string) => String(Reflect.get(script, key) ?? "");
          const url = field("sourceURL");
          return `${field("invoker")} → ${field("sourceFunctionName") || "?"} (${url.slice(url.lastIndexOf("/") + 1)}:${field("sourceCharPosition")}) ${Math.round(Number(Reflect.get(script, "duration")))} ms, forced layout ${Math.round(Number(Reflect.get(script, "forcedStyleAndLayoutDuration")))} ms`;
        });
        state.frames.push({
          start: entry.startTime,
          ms: entry.duration,
          blocking: typeof blocking === "number" ? blocking : 0,
          scripts: named,
        });
      }
    }).observe({ type: "long-animation-frame", buffered: false });
    document.addEventListener("click", () => (state.click ??= performance.now()), true);
    const check = () => {
      for (const [name, selector] of Object.entries(watched)) {
        if (state.seen[name] === undefined && document.querySelector(selector))
          state.seen[name] = performance.now();
      }
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
  }, selectors);
}

const BenchState = z.object({
  tasks: z.array(z.object({ start: z.number(), ms: z.number() })),
  frames: z.array(
    z.object({ start: z.number(), ms: z.number(), blocking: z.number(), scripts: z.array(z.string()) }),
  ),
  seen: z.record(z.string(), z.number()),
  click: z.number().nullable(),
});

async function state(page: Page) {
  return BenchState.parse(await page.evaluate(() => Reflect.get(window, "__bench")));
}

async function mainHeap(page: Page): Promise<number> {
  return page.evaluate(() => {
    const memory: unknown = Reflect.get(performance, "memory");
    const used = memory !== null && typeof memory === "object" ? Reflect.get(memory, "usedJSHeapSize") : 0;
    return typeof used === "number" ? used : 0;
  });
}

function longest(tasks: readonly { start: number; ms: number }[], from: number, to: number): number {
  return Math.round(Math.max(0, ...tasks.filter((t) => t.start >= from && t.start <= to).map((t) => t.ms)));
}

/**
 * One n or p press: from the keydown (seen by a capturing listener, before the page's own) to the newly
 * selected call shown selected in both the call list and the transcript.
 */
async function press(page: Page, key: "n" | "p", call: number): Promise<number> {
  await page.evaluate(() => {
    const state = Reflect.get(window, "__bench");
    window.addEventListener("keydown", () => Reflect.set(state, "key", performance.now()), {
      capture: true,
      once: true,
    });
  });
  await page.keyboard.press(key);
  const handle = await page.waitForFunction(
    (index) => {
      const inList = document.querySelector(`li[data-call-index='${index}'][aria-current=true]`);
      const inTranscript = document.querySelector(`#call-${index}[aria-current=true]`);
      return inList && inTranscript ? performance.now() : null;
    },
    call,
    { timeout: 30_000, polling: "raf" },
  );
  const shown = Number(await handle.jsonValue());
  const pressed = Number(await page.evaluate(() => Reflect.get(Reflect.get(window, "__bench"), "key")));
  return Math.round(shown - pressed);
}

const DETAIL = "article[data-detail-line='2']";

/** Opens line 2 (the 100k-call rollout): `settled` waits for the whole file first, else clicks as soon as the row is there. */
async function openLong(base: string, shape: Shape, file: string, settled: boolean) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript("globalThis.__name = (target) => target");
    await page.goto(base);
    await page.getByTestId("file-input").first().waitFor({ state: "attached" });
    const heapOfWorker = await workerHeap(page);
    const heapBefore = await mainHeap(page);
    const workerBefore = await heapOfWorker();
    await page.getByTestId("file-input").first().setInputFiles(file);
    await page.locator("[data-line='2']").waitFor({ timeout: TIMEOUT_MS });
    if (settled) {
      await page.locator("main[data-ready][data-rewarded='true']").waitFor({ timeout: TIMEOUT_MS });
      // Line 1 is open by default; the run view recomputes for the last revision. Both done: a quiet worker.
      await page.locator("article[data-detail-line='1'][data-verified='true']").waitFor();
      await page.getByTestId("triage").waitFor();
      await page.waitForTimeout(3_000);
    }
    await observe(page, {
      call: `${DETAIL} li[data-call-index]`,
      item: `${DETAIL} [data-transcript-call]`,
      verified: `${DETAIL}[data-verified='true']`,
    });
    if (TRACE_DIR) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await page.locator("[data-line='2']").click();
    await page.locator(`${DETAIL}[data-verified='true']`).waitFor({ timeout: TIMEOUT_MS });
    await page.locator(`${DETAIL} [data-transcript-call]`).first().waitFor();
    await page.waitForTimeout(1_000);
    const opened = await state(page);
    if (TRACE_DIR)
      saveTrace(await browser.stopTracing(), `trace-${shape}-${settled ? "settled" : "loading"}.json`);
    const click = opened.click ?? 0;
    const visible = Math.max(opened.seen.call ?? Number.NaN, opened.seen.item ?? Number.NaN);
    const dom = await page.evaluate(() => ({
      nodes: document.getElementsByTagName("*").length,
      call_rows: document.querySelectorAll("li[data-call-index]").length,
      transcript_items: document.querySelectorAll("[data-testid=transcript-window] > [data-index]").length,
    }));
    const heapAfter = await mainHeap(page);
    const workerAfter = await heapOfWorker();
    // n/p: calls 0..NEXT_PRESSES-1 by n, then back by p, each measured alone.
    const moves: { key: "n" | "p"; ms: number }[] = [];
    for (let i = 0; i < NEXT_PRESSES; i++) moves.push({ key: "n", ms: await press(page, "n", i) });
    for (let i = 1; i <= PREVIOUS_PRESSES; i++)
      moves.push({ key: "p", ms: await press(page, "p", NEXT_PRESSES - 1 - i) });
    const moved = await state(page);
    // Scroll the call list to its end, click the last call: the transcript must show it.
    const scrollStarted = Date.now();
    const last = page.locator(`li[data-call-index='${LONG_CALLS - 1}']`);
    for (let i = 0; i < 20 && (await last.count()) === 0; i++) {
      await page.locator("[data-calls]").evaluate((element) => element.scrollTo(0, element.scrollHeight));
      await page.waitForTimeout(100);
    }
    await last.waitFor();
    const scrolledMs = Date.now() - scrollStarted;
    const revealStarted = Date.now();
    await last.locator("[data-testid=call-select]").click();
    const target = page.locator(`#call-${LONG_CALLS - 1}`);
    await target.waitFor();
    await page.waitForFunction(
      (id) => {
        const element = document.getElementById(id);
        const pane = element?.closest("[data-testid=detail-pane]");
        if (!element || !pane) return false;
        const box = element.getBoundingClientRect();
        const view = pane.getBoundingClientRect();
        return box.top >= view.top && box.top < view.bottom;
      },
      `call-${LONG_CALLS - 1}`,
      { timeout: 30_000 },
    );
    const revealMs = Date.now() - revealStarted;
    // p from the last call: the rows around it are another page of the worker's.
    for (let i = 1; i <= PREVIOUS_PRESSES; i++)
      moves.push({ key: "p", ms: await press(page, "p", LONG_CALLS - 1 - i) });
    const after = await state(page);
    const np = moves.map((m) => m.ms);
    return {
      shape,
      shape_label: SHAPES[shape].label,
      bytes: statSync(file).size,
      scenario: settled ? "after the file settled" : "while the file loads",
      calls: LONG_CALLS,
      open_ms: Math.round(visible - click),
      verified_ms: Math.round((opened.seen.verified ?? Number.NaN) - click),
      longest_task_ms: longest(opened.tasks, click, click + 1e9),
      long_tasks: opened.tasks.filter((t) => t.start >= click).length,
      long_frames: opened.frames
        .filter((f) => f.start >= click && f.blocking > 0)
        .map((f) => ({
          at_ms: Math.round(f.start - click),
          ms: Math.round(f.ms),
          blocking_ms: Math.round(f.blocking),
          scripts: f.scripts,
        })),
      next_previous_ms: { median: median(np), max: Math.max(...np), each: moves },
      longest_task_during_next_previous_ms: longest(moved.tasks, click + 1, Number.POSITIVE_INFINITY),
      dom,
      main_heap_mb: { before: mib(heapBefore), after_open: mib(heapAfter) },
      data_worker_mb: { before: mib(workerBefore), after_open: mib(workerAfter) },
      main_heap_after_all_mb: mib(await mainHeap(page)),
      data_worker_after_all_mb: mib(await heapOfWorker()),
      scroll_to_last_call_ms: scrolledMs,
      transcript_shows_clicked_call_ms: revealMs,
      longest_task_while_scrolling_ms: longest(after.tasks, click + 1, Number.POSITIVE_INFINITY),
    };
  } finally {
    await browser.close();
  }
}

/** BENCH_TRACE: the long tasks of a trace in TRACE_DIR/name, the whole trace beside it (Chromium's performance panel). */
function saveTrace(raw: Buffer, name: string) {
  if (!TRACE_DIR) return;
  const trace: unknown = JSON.parse(raw.toString("utf8"));
  mkdirSync(TRACE_DIR, { recursive: true });
  writeFileSync(path.join(TRACE_DIR, `raw-${name}`), raw);
  writeFileSync(path.join(TRACE_DIR, name), JSON.stringify(longTasks(trace, GOALS.longest_task_ms), null, 2));
  console.error(`long tasks: ${path.join(TRACE_DIR, name)}`);
}

/**
 * A file of many bad lines (issue 23: one main-thread task of 1.4-1.7 s before the summary carried only the
 * first errors): from the drop to the file settled, its errors panel opened and "show more" clicked once.
 */
async function badLines(base: string, file: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript("globalThis.__name = (target) => target");
    await page.goto(base);
    await page.getByTestId("file-input").first().waitFor({ state: "attached" });
    await observe(page, { errors: "[data-testid=line-errors]" });
    if (TRACE_DIR) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const dropped = await page.evaluate(() => performance.now());
    await page.getByTestId("file-input").first().setInputFiles(file);
    await page.locator("main[data-ready='true'][data-rewarded='true']").waitFor({ timeout: TIMEOUT_MS });
    const settled = await page.evaluate(() => performance.now());
    const total = Number(await page.getByTestId("error-count").textContent());
    await page.locator("[data-testid=line-errors] summary").click();
    await page.locator("[data-error-line]").first().waitFor();
    const first = await page.locator("[data-error-line]").count();
    await page.getByTestId("more-line-errors").click();
    await page.waitForFunction(
      (shown) => document.querySelectorAll("[data-error-line]").length > shown,
      first,
      {
        timeout: TIMEOUT_MS,
      },
    );
    await page.waitForTimeout(1_000);
    if (TRACE_DIR) saveTrace(await browser.stopTracing(), "trace-bad.json");
    const shown = await page.locator("[data-error-line]").count();
    const bench = await state(page);
    return {
      bytes: statSync(file).size,
      bad_lines: total,
      settled_ms: Math.round(settled - dropped),
      shown_after_more: shown,
      longest_task_ms: longest(bench.tasks, dropped, Number.POSITIVE_INFINITY),
      long_tasks: bench.tasks.filter((t) => t.start >= dropped).length,
      long_frames: bench.frames
        .filter((f) => f.start >= dropped && f.blocking > 0)
        .map((f) => ({ at_ms: Math.round(f.start - dropped), ms: Math.round(f.ms), scripts: f.scripts })),
    };
  } finally {
    await browser.close();
  }
}

async function compare16k(base: string, a: string, b: string) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript("globalThis.__name = (target) => target");
    await page.goto(`${base}/compare`);
    await page.getByTestId("compare-a-file").setInputFiles(a);
    await page.locator("[data-testid=compare-result][data-ready='true']").waitFor({ timeout: TIMEOUT_MS });
    await page.waitForTimeout(1_000);
    await observe(page, {});
    const started = await page.evaluate(() => performance.now());
    await page.getByTestId("compare-b-file").setInputFiles(b);
    const pair = page.locator("[data-testid=pair-table] tr[data-verdict]");
    // Compared when the one pair shows the same call count on both sides (A against the default B differs).
    await page.waitForFunction(
      (calls) => {
        const rows = document.querySelectorAll("[data-testid=pair-table] tr[data-verdict]");
        const cells = rows[0]?.querySelectorAll("td");
        return rows.length === 1 && cells?.[5]?.textContent === String(calls);
      },
      COMPARE_CALLS,
      { timeout: TIMEOUT_MS, polling: 50 },
    );
    const compared = await page.evaluate(() => performance.now());
    const verdict = await pair.getAttribute("data-verdict");
    await pair.click();
    const opened = page.locator("[data-testid=alignment] [data-step]").first();
    await opened.waitFor({ timeout: TIMEOUT_MS });
    const aligned = await page.evaluate(() => performance.now());
    const note = await page.getByTestId("alignment-note").textContent();
    const steps = Number(await page.locator("[data-steps]").getAttribute("data-steps"));
    const rendered = await page.locator("[data-testid=alignment] [data-step]").count();
    const bench = await state(page);
    return {
      calls_per_side: COMPARE_CALLS,
      compare_ms: Math.round(compared - started),
      alignment_shown_ms: Math.round(aligned - started),
      verdict,
      alignment_note: note,
      steps,
      steps_in_dom: rendered,
      longest_task_ms: longest(bench.tasks, started, Number.POSITIVE_INFINITY),
    };
  } finally {
    await browser.close();
  }
}

type Opened = Awaited<ReturnType<typeof openLong>>;
type Compared = Awaited<ReturnType<typeof compare16k>>;
type Bad = Awaited<ReturnType<typeof badLines>>;

/** What the open and n/p still spent after issue 23's list fixes, and what was cut (an A/B, not this run's). */
const WHAT_REMAINED =
  "What the open and n/p still spent (2026-12-02, BENCH_TRACE traces of the distinct shape and a line profile of the data worker's open in Node): the click's detail request is one task in the data worker of 1.8 s (settled, load 5) to 3.4 s (while loading, load 5.8; the pool was idle then: the rest of the machine, not the file's jobs, slowed it): JSON.parse of the 66 MiB line ~25%, the nesting scan before it ~7% (a line the index accepted is within the limit: reparseJsonLine skips it), garbage collection ~20%, readRollout ~9%, and openDetail ~30% (the legacy resolver counting 100k call_ids it never reads, the orphan check's set of every call_id, an array of 100k provenance identities read only for alias collisions, the transcript's output pairing in maps and sets of boxed indexes, a set of every call_id in the look-alike check); in Node openDetail went from 710 to ~450 ms. n/p waited for Next's router: a History API write reaches useSearchParams in a transition of the whole router; the view state now shows its own write in the keypress's render. A/B on one build each, the long shapes alone (`BENCH_SHAPES=realistic,distinct`), load average 3.7-4.1 before and 2.6-3.9 after: realistic settled open 1226 \u2192 944 ms, n/p max 103 \u2192 94 ms; realistic loading 1600 \u2192 1405 ms, n/p max 54 \u2192 73 ms, longest task 63 \u2192 0 ms; distinct settled 1433 \u2192 1274 ms, n/p max 97 \u2192 89 ms; distinct loading 2116 \u2192 1849 ms, n/p max 79 \u2192 80 ms, no long task either time. All four within the goals in the run after; the machine's load moves these figures by more than the change in some runs.";

function verdict(ok: boolean): string {
  return ok ? "meets" : "misses";
}

function report(
  opened: readonly Opened[],
  bad: Bad | null,
  compared: Compared | null,
  machine: Record<string, unknown>,
): string {
  const lines = [
    "# Hostile input in the browser (`npm run bench:hostile`)",
    "",
    `${new Date().toISOString().slice(0, 10)}, ${machine.cpus} cores (${machine.cpu}), load average ${machine.load} at the start, ${CHROMIUM}. Figures vary run to run on this shared machine.`,
    "",
    `## A ${LONG_CALLS / 1000}k-call rollout opens (goals: call list + transcript on screen under ${GOALS.open_100k_ms / 1000} s, n/p under ${GOALS.next_previous_ms} ms, no main-thread task of ${GOALS.longest_task_ms} ms or more)`,
    "",
    "Opened: the click on its row → its first call row and transcript item on screen. Verified: → both policies' rewards shown (computed in the verify pool, apart). n/p: keydown → the next or previous call selected in the call list and the transcript (10 n and 5 p from the top, 5 p from the last call). Longest task: from the click to the end of the n/p presses. Heaps: the page's JS heap and the data worker's (V8 heap + ArrayBuffers) after opening and after the presses.",
    "",
    "| shape (file size) | opened | call list + transcript on screen | both verifications shown | n/p median / max | longest main-thread task (over 50 ms) | DOM elements (call rows / transcript items) | main-thread JS heap | data worker heap | scroll to the last call | transcript shows the clicked call |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const o of opened) {
    lines.push(
      `| ${o.shape_label} (${Math.round(o.bytes / 2 ** 20)} MiB) | ${o.scenario} | ${o.open_ms} ms | ${o.verified_ms} ms | ${o.next_previous_ms.median} / ${o.next_previous_ms.max} ms | ${o.longest_task_ms} ms (${o.long_tasks}) | ${o.dom.nodes} (${o.dom.call_rows} / ${o.dom.transcript_items}) | ${o.main_heap_mb.before} → ${o.main_heap_mb.after_open} → ${o.main_heap_after_all_mb} MiB | ${o.data_worker_mb.before} → ${o.data_worker_mb.after_open} → ${o.data_worker_after_all_mb} MiB | ${o.scroll_to_last_call_ms} ms | ${o.transcript_shows_clicked_call_ms} ms |`,
    );
  }
  lines.push("");
  for (const o of opened) {
    const goals = [
      `open under ${GOALS.open_100k_ms} ms: ${verdict(o.open_ms < GOALS.open_100k_ms)}`,
      `n/p under ${GOALS.next_previous_ms} ms: ${verdict(o.next_previous_ms.max < GOALS.next_previous_ms)}`,
      `no task of ${GOALS.longest_task_ms} ms or more: ${verdict(o.longest_task_ms < GOALS.longest_task_ms)}`,
    ];
    lines.push(`- ${o.shape}, ${o.scenario}: ${goals.join("; ")}.`);
  }
  lines.push(
    "",
    "What scaled with the realistic shape (issue 23: 25-36 s to open, tasks of 311-427 ms, ~2 GB): the workplace replay rescanned the emails table for every reply's new id (objectMax over the table a replay owns) and every lookup (firstRecord), so replies were quadratic; the detail resolved and explained all 100k calls under both policies and built every transcript item before showing one; both verifications ran before the calls were shown, on the same 2 cores as the open; and the page received 100k call records, 33k extra table rows and sentences listing 33k call numbers each (the 'aliases' part: every Hermes alias is an unknown name under policy legacy). Provenance entries and ground truth themselves cost a linear pass (one map reading per rollout).",
    "",
    "The last long tasks of the open (issue 23: two over 50 ms, the longest 86 ms, with distinct arguments while the file loads), found with BENCH_TRACE=DIR (a Chromium trace of each open, bench/trace-tasks.ts) and long-animation-frame script attribution: TanStack Virtual recomputing the start of every one of the transcript's 200,001 items (and the call list's 100k) after each measured row, each new scroll margin and each count change, 5-40 ms per pass, several per task, in ResizeObserver callbacks and React renders. The detail pane's lists now keep row offsets in a Fenwick tree (components/row-offsets.ts, useLongList): O(log n) per measured row or scroll. The verification's render when it arrives (why-zero sentences, tables, badges) is deferred and interruptible.",
  );
  lines.push("", WHAT_REMAINED);
  if (bad) {
    lines.push(
      "",
      `## A file of many bad lines (goal: no main-thread task of ${GOALS.longest_task_ms} ms or more)`,
      "",
      'One good rollout, then lines that are not JSON. From the drop to the file settled (rewards and run view done), its errors panel opened and "show more" clicked once.',
      "",
      '| file size | bad lines | drop → settled | errors shown after one "show more" | longest main-thread task (over 50 ms) |',
      "|---|---|---|---|---|",
      `| ${Math.round(bad.bytes / 2 ** 20)} MiB | ${bad.bad_lines} | ${bad.settled_ms} ms | ${bad.shown_after_more} | ${bad.longest_task_ms} ms (${bad.long_tasks}) |`,
      "",
      `Goal: ${verdict(bad.longest_task_ms < GOALS.longest_task_ms)}.`,
    );
  }
  if (compared === null) return `${lines.join("\n")}\n`;
  lines.push(
    "",
    `## Two ${COMPARE_CALLS / 1000}k-call rollouts compare on /compare (goal: under ${GOALS.compare_16k_ms / 1000} s)`,
    "",
    "| run B picked → verdict | → aligned steps on screen | verdict | steps (in the DOM) | longest main-thread task | note |",
    "|---|---|---|---|---|---|",
    `| ${compared.compare_ms} ms | ${compared.alignment_shown_ms} ms | ${compared.verdict} | ${compared.steps} (${compared.steps_in_dom}) | ${compared.longest_task_ms} ms | ${compared.alignment_note ?? ""} |`,
    "",
    `Goal: ${verdict(compared.alignment_shown_ms < GOALS.compare_16k_ms)}.`,
  );
  return `${lines.join("\n")}\n`;
}

async function main() {
  const { long, bad, a, b } = files();
  const { base, stop } = await serveApp(PORT);
  try {
    const machine = {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? "unknown",
      load: loadavg()[0]?.toFixed(1),
      chromium: CHROMIUM,
    };
    const opened: Opened[] = [];
    const only = process.env.BENCH_SHAPES?.split(",");
    const scenarios = process.env.BENCH_SCENARIOS?.split(",");
    for (const shape of Object.keys(SHAPES) as Shape[]) {
      if (only && !only.includes(shape)) continue;
      for (const settled of [true, false]) {
        if (scenarios && !scenarios.includes(settled ? "settled" : "loading")) continue;
        console.error(`opening ${shape} ${settled ? "after the file settled" : "while the file loads"}…`);
        const result = await openLong(base, shape, long[shape], settled);
        console.error(JSON.stringify(result));
        opened.push(result);
      }
    }
    let bads: Bad | null = null;
    if (!only || only.includes("bad")) {
      console.error("opening a file of many bad lines…");
      bads = await badLines(base, bad);
      console.error(JSON.stringify(bads));
    }
    // BENCH_SHAPES without "compare" (BENCH_SHAPES=bad: the many-bad-lines case alone) skips /compare.
    let compared: Compared | null = null;
    if (!only || only.includes("compare")) {
      console.error("comparing two 16k-call rollouts…");
      compared = await compare16k(base, a, b);
      console.error(JSON.stringify(compared));
    }
    const results = {
      date: new Date().toISOString(),
      machine,
      goals: GOALS,
      open: opened,
      bad_lines: bads,
      compared,
    };
    const json = path.join(ROOT, `bench/${OUT}.json`);
    writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
    // As the repository's formatter has it, so `npm run lint` passes on the committed results.
    spawnSync(path.join(ROOT, "node_modules/.bin/biome"), ["format", "--write", json], { stdio: "ignore" });
    const text = report(opened, bads, compared, machine);
    writeFileSync(path.join(ROOT, `bench/${OUT}.md`), text);
    console.log(text);
  } finally {
    stop();
  }
}

await main();
