/**
 * `npx tsx bench/profile-rewards.ts [--file F | --size 1e8] [--throttle N] [--until ready] [--dir D] [--out PREFIX]`:
 * CPU profiles of one drop, from the drop to every reward (`--until ready`: to the complete index): the page's main thread, the data worker and each
 * pool worker (the DevTools Profiler in each, over the page's CDP session), summarised by function (self time)
 * with the bundles mapped back to the sources. Writes the raw profiles into D (default
 * $TMPDIR/rollout-inspector-profile) and the summary to OUT.md / OUT.json (default bench/profile-rewards-run;
 * the analysis in bench/profile-rewards.md reads them).
 *
 * It needs a production build with browser source maps (`SOURCE_MAPS=1 npx next build`, next.config.mjs);
 * without them the functions are the bundle's minified names. Heavy: `flock /tmp/heavy.lock npx tsx ...`.
 * `--throttle 2` slows the page's main thread 2x (CDP Emulation.setCPUThrottlingRate).
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { z } from "zod";
import { ensureFile } from "./big-files";
import { CHROMIUM, CHROMIUM_ARGS, ROOT, serveApp } from "./browser-app";
import { Attached, workerChannel } from "./cdp-workers";
import {
  busySpans,
  CpuProfile,
  SourceMaps,
  type Summary,
  spansMarkdown,
  summarize,
  summaryMarkdown,
} from "./cpuprofile";
import { readPageMarks, watchPageMarks } from "./page-marks";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const PORT = Number(process.env.BENCH_PORT ?? 3191);
const FILE = arg("--file") ?? ensureFile(Number(arg("--size") ?? 1e8));
const THROTTLE = Number(arg("--throttle") ?? 1);
const DIR = arg("--dir") ?? path.join(tmpdir(), "rollout-inspector-profile");
const OUT = arg("--out") ?? "bench/profile-rewards-run";
/** `--until ready`: the profiles end at the complete index (the index pass alone), not at every reward. */
const UNTIL = arg("--until") === "ready" ? "ready" : "rewarded";
/** Sampling interval: 200 µs keeps short functions visible without swamping the workers. */
const SAMPLE_US = 200;

async function main(): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const { base, stop } = await serveApp(PORT);
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const browser = await chromium.connect(server.wsEndpoint());
  const loadBefore = loadavg()[0] ?? 0;
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript("globalThis.__name = (target) => target");
    const cdp = await page.context().newCDPSession(page);
    // Workers, by title (data, pool-0, ...).
    const workers = new Map<string, string>();
    const toWorker = workerChannel(cdp);
    cdp.on("Target.attachedToTarget", (event) => {
      const parsed = Attached.safeParse(event);
      if (parsed.success && parsed.data.targetInfo.type === "worker")
        workers.set(parsed.data.targetInfo.title, parsed.data.sessionId);
    });
    await cdp.send("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    });
    await page.goto(base);
    await page.getByTestId("file-input").first().waitFor({ state: "attached" });
    for (let i = 0; i < 100 && !workers.has("data"); i++) await page.waitForTimeout(100);
    await page.waitForTimeout(1_000);
    if (THROTTLE > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: THROTTLE });
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: SAMPLE_US });
    await cdp.send("Profiler.start");
    for (const sessionId of workers.values()) {
      await toWorker(sessionId, "Profiler.enable");
      await toWorker(sessionId, "Profiler.setSamplingInterval", { interval: SAMPLE_US });
      await toWorker(sessionId, "Profiler.start");
    }
    await watchPageMarks(page);
    await page.getByTestId("file-input").first().setInputFiles(FILE);
    await page
      .locator(UNTIL === "ready" ? "main[data-ready='true']" : "main[data-ready][data-rewarded='true']")
      .waitFor({ timeout: 30 * 60_000 });
    const marks = await readPageMarks(page);
    const drop = marks.drop ?? 0;
    const profiles = new Map<string, CpuProfile>();
    const main = z.object({ profile: CpuProfile }).parse(await cdp.send("Profiler.stop"));
    profiles.set("main", main.profile);
    for (const [title, sessionId] of workers) {
      const stopped = z.object({ profile: CpuProfile }).safeParse(await toWorker(sessionId, "Profiler.stop"));
      if (stopped.success) profiles.set(title, stopped.data.profile);
    }
    const maps = new SourceMaps(ROOT);
    const summaries: Record<string, Summary> = {};
    for (const [title, profile] of profiles) {
      writeFileSync(path.join(DIR, `${title}.cpuprofile`), JSON.stringify(profile));
      summaries[title] = summarize(profile, maps);
    }
    const since = (at: number | null) => (at === null ? null : Math.round(at - drop));
    const run = {
      date: new Date().toISOString(),
      file: path.basename(FILE),
      bytes: statSync(FILE).size,
      throttle: THROTTLE,
      cpus: cpus().length,
      load_before: loadBefore,
      load_after: loadavg()[0] ?? 0,
      ready_ms: since(marks.ready),
      rewarded_ms: UNTIL === "ready" ? null : since(marks.rewarded),
      long_tasks: marks.tasks
        .filter((task) => task.start >= drop)
        .map((task) => ({ at_ms: since(task.start), ms: Math.round(task.ms) })),
      summaries,
      main_busy_spans: busySpans(main.profile, maps),
    };
    writeFileSync(path.resolve(ROOT, `${OUT}.json`), `${JSON.stringify(run, null, 2)}\n`);
    const md = [
      `# CPU profile of one drop (\`bench/profile-rewards.ts\`)`,
      "",
      `${run.date.slice(0, 16)}Z, ${run.file} (${run.bytes} bytes), ${run.cpus} cores, main thread throttled ${THROTTLE}x, load ${loadBefore.toFixed(1)} before / ${run.load_after.toFixed(1)} after. Complete index at ${run.ready_ms} ms${run.rewarded_ms === null ? " (the profiles end there)" : `, every reward at ${run.rewarded_ms} ms`} from the drop. Main-thread tasks ≥ 50 ms: ${run.long_tasks.map((t) => `${t.ms} ms at ${t.at_ms}`).join(", ") || "none"}.`,
      "",
      "### The main thread's busy stretches of 50 ms or more (profile time; the drop is a second or so in)",
      "",
      spansMarkdown(run.main_busy_spans),
      ...[...profiles.keys()].map((title) => summaryMarkdown(title, summaries[title]!)),
    ].join("\n\n");
    writeFileSync(path.resolve(ROOT, `${OUT}.md`), `${md}\n`);
    console.log(md);
  } finally {
    await browser.close();
    await server.close();
    stop();
  }
}

await main();
