/**
 * Summaries of V8 CPU profiles (.cpuprofile: Chromium's DevTools Profiler, `node --cpu-prof`): self time
 * per function and per source file, with minified browser bundles mapped back to the project's sources
 * through their source maps (a build made with SOURCE_MAPS=1, next.config.mjs).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { SourceMapConsumer } from "source-map-js";
import { z } from "zod";

const CallFrame = z.object({
  functionName: z.string(),
  url: z.string(),
  lineNumber: z.number(),
  columnNumber: z.number(),
});

export const CpuProfile = z.object({
  nodes: z.array(
    z.object({ id: z.number(), callFrame: CallFrame, children: z.array(z.number()).optional() }),
  ),
  startTime: z.number(),
  endTime: z.number(),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});
export type CpuProfile = z.infer<typeof CpuProfile>;
type Frame = z.infer<typeof CallFrame>;

/** Where a frame's code is in the project's sources: "lib/jsonl/parse.ts:52" and that line's text. */
export interface Place {
  readonly file: string;
  readonly where: string;
}

/** Maps bundle positions to sources, with each bundle's map read once (from .next/ or beside the file). */
export class SourceMaps {
  private readonly consumers = new Map<string, SourceMapConsumer | null>();

  constructor(private readonly root: string) {}

  private consumer(url: string): SourceMapConsumer | null {
    if (this.consumers.has(url)) return this.consumers.get(url) ?? null;
    let consumer: SourceMapConsumer | null = null;
    const at = url.indexOf("/_next/");
    const file = at === -1 ? null : path.join(this.root, ".next", url.slice(at + "/_next/".length));
    if (file !== null && existsSync(file)) {
      // Turbopack names a chunk's map apart from the chunk: the comment at its end says which.
      const named = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(file, "utf8"))?.[1];
      const map = named === undefined ? `${file}.map` : path.join(path.dirname(file), named);
      if (existsSync(map)) consumer = new SourceMapConsumer(JSON.parse(readFileSync(map, "utf8")));
    }
    this.consumers.set(url, consumer);
    return consumer;
  }

  place(frame: Frame): Place {
    const consumer = frame.url === "" ? null : this.consumer(frame.url);
    if (consumer !== null) {
      const original = consumer.originalPositionFor({
        line: frame.lineNumber + 1,
        column: frame.columnNumber,
      });
      if (original.source !== null) {
        const file = projectPath(original.source);
        const name = original.name ?? frame.functionName;
        return { file, where: `${file}:${original.line} ${name || "(anonymous)"}` };
      }
    }
    const file = frame.url === "" ? `(${frame.functionName})` : projectPath(frame.url);
    const name = frame.functionName || "(anonymous)";
    // tsx's transpiled modules (node --cpu-prof) put every function on line 1: the name says enough.
    const line = frame.lineNumber > 0 ? `:${frame.lineNumber + 1}` : "";
    return { file, where: frame.url === "" ? name : `${file}${line} ${name}` };
  }
}

/** "lib/jsonl/parse.ts" from a bundler's source name or a file URL of the same file. */
function projectPath(source: string): string {
  const clean = source.replace(/\?.*$/, "");
  const project = clean.indexOf("[project]/");
  if (project !== -1) return clean.slice(project + "[project]/".length);
  const root = `file://${process.cwd()}/`;
  if (clean.startsWith(root)) return clean.slice(root.length);
  return clean.replace(/^.*\//, "");
}

export interface Summary {
  readonly total_ms: number;
  /** Time in no JavaScript: (idle) samples. */
  readonly idle_ms: number;
  readonly gc_ms: number;
  readonly functions: readonly { readonly where: string; readonly ms: number }[];
  /** Time with the function anywhere on the stack (its callees included), the most first. */
  readonly inclusive: readonly { readonly where: string; readonly ms: number }[];
  readonly files: readonly { readonly file: string; readonly ms: number }[];
}

/** Self time per function and per file, the most first. */
export function summarize(profile: CpuProfile, maps: SourceMaps | null, top = 40): Summary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfUs = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
    total += delta;
  });
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  let idle = 0;
  let gc = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id);
    if (!frame) continue;
    if (frame.url === "" && frame.functionName === "(idle)") idle += us;
    if (frame.url === "" && frame.functionName === "(garbage collector)") gc += us;
    const place = maps ? maps.place(frame) : { file: frame.url, where: `${frame.url} ${frame.functionName}` };
    functions.set(place.where, (functions.get(place.where) ?? 0) + us);
    files.set(place.file, (files.get(place.file) ?? 0) + us);
  }
  // Inclusive time: each sample counts once for every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (!frame || frame.url === "") continue;
      const where = maps ? maps.place(frame).where : `${frame.url} ${frame.functionName}`;
      if (seen.has(where)) continue;
      seen.add(where);
      inclusive.set(where, (inclusive.get(where) ?? 0) + us);
    }
  }
  const ms = (us: number) => Math.round(us / 100) / 10;
  const ranked = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    total_ms: ms(total),
    idle_ms: ms(idle),
    gc_ms: ms(gc),
    functions: ranked(functions).map(([where, us]) => ({ where, ms: ms(us) })),
    inclusive: ranked(inclusive).map(([where, us]) => ({ where, ms: ms(us) })),
    files: ranked(files).map(([file, us]) => ({ file, ms: ms(us) })),
  };
}

/** A summary as Markdown: two tables, self time and its share of the profile. */
export function summaryMarkdown(title: string, summary: Summary, rows = 25): string {
  const share = (ms: number) => `${((ms * 100) / summary.total_ms).toFixed(1)}%`;
  const lines = [
    `### ${title}`,
    "",
    `${summary.total_ms} ms sampled: ${summary.idle_ms} ms idle (${share(summary.idle_ms)}), ${summary.gc_ms} ms garbage collection (${share(summary.gc_ms)}).`,
    "",
    "| self ms | share | function (source:line name) |",
    "|---:|---:|---|",
    ...summary.functions.slice(0, rows).map((f) => `| ${f.ms} | ${share(f.ms)} | \`${f.where}\` |`),
    "",
    "| total ms (callees included) | share | function |",
    "|---:|---:|---|",
    ...summary.inclusive.slice(0, rows).map((f) => `| ${f.ms} | ${share(f.ms)} | \`${f.where}\` |`),
    "",
    "| self ms | share | file |",
    "|---:|---:|---|",
    ...summary.files.slice(0, 15).map((f) => `| ${f.ms} | ${share(f.ms)} | \`${f.file}\` |`),
  ];
  return lines.join("\n");
}

/** A stretch of back-to-back samples in JavaScript or the renderer's own work (no idle sample between). */
export interface BusySpan {
  /** From the profile's start. */
  readonly at_ms: number;
  readonly ms: number;
  /** The project's functions (and the browser's named natives) on its stacks, by time, React's internals aside. */
  readonly top: readonly { readonly where: string; readonly ms: number }[];
}

/**
 * The main thread's busy stretches of `minMs` or more: where its long tasks are (a stretch can hold a few
 * tasks back to back). Each with the functions most on its stacks.
 */
export function busySpans(profile: CpuProfile, maps: SourceMaps | null, minMs = 50, top = 8): BusySpan[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const idle = (id: number) => byId.get(id)?.functionName === "(idle)";
  const where = (frame: Frame) =>
    frame.url === ""
      ? frame.functionName
      : maps
        ? maps.place(frame).where
        : `${frame.url} ${frame.functionName}`;
  let clock = profile.startTime;
  const times = profile.samples.map((_, i) => {
    clock += profile.timeDeltas[i] ?? 0;
    return clock;
  });
  const spans: BusySpan[] = [];
  for (let i = 0; i < profile.samples.length; ) {
    if (idle(profile.samples[i]!)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < profile.samples.length && !idle(profile.samples[j + 1]!)) j++;
    const ms = (times[j]! - times[i]!) / 1000;
    if (ms >= minMs) {
      const inclusive = new Map<string, number>();
      for (let k = i; k <= j; k++) {
        const seen = new Set<string>();
        for (let at: number | undefined = profile.samples[k]; at !== undefined; at = parent.get(at)) {
          const frame = byId.get(at);
          if (!frame) continue;
          const name = where(frame);
          if (seen.has(name) || name === "(root)" || /react-dom|scheduler\.production/.test(name)) continue;
          seen.add(name);
          inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[k] ?? 0) / 1000);
        }
      }
      spans.push({
        at_ms: Math.round((times[i]! - profile.startTime) / 1000),
        ms: Math.round(ms),
        top: [...inclusive]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([name, t]) => ({ where: name, ms: Math.round(t) })),
      });
    }
    i = j + 1;
  }
  return spans;
}

export function spansMarkdown(spans: readonly BusySpan[]): string {
  if (spans.length === 0) return "No busy stretch of 50 ms or more.";
  return spans
    .map(
      (span) =>
        `- ${span.ms} ms at ${span.at_ms} ms: ${span.top.map((t) => `\`${t.where}\` ${t.ms}`).join(", ")}`,
    )
    .join("\n");
}

/** `tsx bench/cpuprofile.ts FILE.cpuprofile [ROWS]`: a profile's summary (e.g. one of `node --cpu-prof`). */
if (process.argv[1]?.endsWith("cpuprofile.ts")) {
  const [file, rows] = process.argv.slice(2);
  if (!file) throw new Error("usage: tsx bench/cpuprofile.ts FILE.cpuprofile [ROWS]");
  const profile = CpuProfile.parse(JSON.parse(readFileSync(file, "utf8")));
  console.log(
    summaryMarkdown(
      path.basename(file),
      summarize(profile, new SourceMaps(process.cwd())),
      Number(rows ?? 25),
    ),
  );
}
