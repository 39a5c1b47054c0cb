/**
 * What ran in the page's long main-thread tasks, read from a Chromium trace (Playwright's
 * browser.startTracing with TRACE_CATEGORIES): every top-level task on the renderer's main thread of
 * `minMs` or more, with the trace events directly inside it (script, style, layout, GC, message handling)
 * and the JS functions the CPU profiler sampled most in it (self time). Used by `npm run bench:hostile`
 * with BENCH_TRACE=DIR to say where a long task comes from, not only that it happened.
 */
import { z } from "zod";
import type { SourceMaps } from "./cpuprofile";

export const TRACE_CATEGORIES = [
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "v8.execute",
  "blink.user_timing",
  "disabled-by-default-v8.cpu_profiler",
  "v8",
];

const Event = z.object({
  name: z.string(),
  ph: z.string(),
  pid: z.number(),
  tid: z.number(),
  ts: z.number().optional(),
  dur: z.number().optional(),
  id: z.union([z.string(), z.number()]).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
});
type Event = z.infer<typeof Event>;

/** The events of `events` no other of them encloses (a longer event spanning its whole time). */
function outermost(events: readonly Event[]): Event[] {
  const encloses = (o: Event, e: Event) =>
    o !== e &&
    (o.ts ?? 0) <= (e.ts ?? 0) &&
    (o.ts ?? 0) + (o.dur ?? 0) >= (e.ts ?? 0) + (e.dur ?? 0) &&
    (o.dur ?? 0) > (e.dur ?? 0);
  return events.filter((e) => !events.some((o) => encloses(o, e)));
}

const ThreadName = z.object({ name: z.string() });
const ProfileStart = z.object({ data: z.object({ startTime: z.number() }) });
const ProfileChunk = z.object({
  data: z.object({
    cpuProfile: z
      .object({
        nodes: z
          .array(
            z.object({
              id: z.number(),
              parent: z.number().optional(),
              callFrame: z.object({
                functionName: z.string(),
                url: z.string().optional(),
                lineNumber: z.number().optional(),
                columnNumber: z.number().optional(),
              }),
            }),
          )
          .optional(),
        samples: z.array(z.number()).optional(),
      })
      .optional(),
    timeDeltas: z.array(z.number()).optional(),
  }),
});

export interface LongTaskReport {
  readonly start_ms: number;
  readonly ms: number;
  /** Direct children of the task by name, in ms, largest first. */
  readonly inside: readonly { name: string; ms: number; detail?: string }[];
  /** Functions by sampled self time within the task, largest first (ms ≈ samples × interval). */
  readonly functions: readonly { fn: string; ms: number }[];
  /** Functions by sampled total (inclusive) time within the task, largest first. */
  readonly stacks: readonly { fn: string; ms: number }[];
}

function frameName(
  frame: {
    functionName: string;
    url?: string;
    lineNumber?: number;
    columnNumber?: number;
  },
  maps: SourceMaps | null,
) {
  // A build with source maps (SOURCE_MAPS=1) names the project's source line, not the chunk's column.
  if (maps !== null && frame.url)
    return maps.place({
      ...frame,
      url: frame.url,
      lineNumber: frame.lineNumber ?? 0,
      columnNumber: frame.columnNumber ?? 0,
    }).where;
  const file = frame.url ? frame.url.slice(frame.url.lastIndexOf("/") + 1) : "";
  return `${frame.functionName || "(anonymous)"}${file ? ` ${file}:${(frame.lineNumber ?? 0) + 1}:${(frame.columnNumber ?? 0) + 1}` : ""}`;
}

function detailOf(event: Event): string | undefined {
  const data = event.args?.data;
  if (data === null || typeof data !== "object") return undefined;
  const parts: string[] = [];
  for (const key of ["functionName", "url", "type", "scriptName"]) {
    const value: unknown = Reflect.get(data, key);
    if (typeof value === "string" && value !== "")
      parts.push(key === "url" ? value.slice(value.lastIndexOf("/") + 1) : value);
  }
  return parts.length > 0 ? parts.join(" ") : undefined;
}

/** Long tasks on the renderer main thread(s) of a trace, from `fromUs` (trace clock, µs) on. */
export function longTasks(
  trace: unknown,
  minMs: number,
  fromUs = 0,
  maps: SourceMaps | null = null,
): LongTaskReport[] {
  const raw: unknown = Array.isArray(trace) ? trace : Reflect.get(Object(trace), "traceEvents");
  const events: Event[] = [];
  for (const item of Array.isArray(raw) ? raw : []) {
    const parsed = Event.safeParse(item);
    if (parsed.success) events.push(parsed.data);
  }
  const mains = new Set<string>();
  for (const e of events) {
    if (
      e.ph === "M" &&
      e.name === "thread_name" &&
      ThreadName.safeParse(e.args).data?.name === "CrRendererMain"
    )
      mains.add(`${e.pid}:${e.tid}`);
  }
  const onMain = events.filter((e) => mains.has(`${e.pid}:${e.tid}`));
  // Samples of the CPU profiles started on a main thread: [time µs, stack of node names].
  const samples: { ts: number; key: string; stack: string[] }[] = [];
  const profiles = new Map<
    string,
    { pid: number; tid: number; time: number; nodes: Map<number, { name: string; parent?: number }> }
  >();
  for (const e of events) {
    const key = `${e.pid}:${String(e.id)}`;
    if (e.name === "Profile") {
      const start = ProfileStart.safeParse(e.args);
      if (start.success)
        profiles.set(key, { pid: e.pid, tid: e.tid, time: start.data.data.startTime, nodes: new Map() });
    } else if (e.name === "ProfileChunk") {
      const profile = profiles.get(key);
      const chunk = ProfileChunk.safeParse(e.args);
      if (!profile || !chunk.success) continue;
      for (const node of chunk.data.data.cpuProfile?.nodes ?? [])
        profile.nodes.set(node.id, { name: frameName(node.callFrame, maps), parent: node.parent });
      const ids = chunk.data.data.cpuProfile?.samples ?? [];
      const deltas = chunk.data.data.timeDeltas ?? [];
      ids.forEach((id, i) => {
        profile.time += deltas[i] ?? 0;
        const stack: string[] = [];
        for (let n: number | undefined = id; n !== undefined; n = profile.nodes.get(n)?.parent) {
          const node = profile.nodes.get(n);
          if (!node) break;
          stack.push(node.name);
        }
        samples.push({ ts: profile.time, key: `${profile.pid}:${profile.tid}`, stack });
      });
    }
  }
  samples.sort((a, b) => a.ts - b.ts);
  const tasks = onMain.filter(
    (e) =>
      e.ph === "X" &&
      (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") &&
      (e.dur ?? 0) >= minMs * 1000 &&
      (e.ts ?? 0) >= fromUs,
  );
  // Nested RunTask events: keep the outermost.
  const outer = outermost(tasks);
  return outer.map((task) => {
    const start = task.ts ?? 0;
    const end = start + (task.dur ?? 0);
    const key = `${task.pid}:${task.tid}`;
    const within = onMain.filter(
      (e) =>
        e !== task &&
        // The scheduler's wrappers (a RunTask inside the RunTask) say nothing: what they run does.
        e.name !== "RunTask" &&
        e.name !== "ThreadControllerImpl::RunTask" &&
        e.pid === task.pid &&
        e.tid === task.tid &&
        e.ph === "X" &&
        (e.ts ?? 0) >= start &&
        (e.ts ?? 0) < end,
    );
    // Direct children: not inside another event of `within`.
    const direct = outermost(within);
    const inside = direct
      .map((e) => ({ name: e.name, ms: Math.round((e.dur ?? 0) / 100) / 10, detail: detailOf(e) }))
      .filter((e) => e.ms >= 1)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 12);
    const mine = samples.filter((s) => s.key === key && s.ts >= start && s.ts < end);
    const interval = mine.length > 1 ? ((mine.at(-1)?.ts ?? 0) - (mine[0]?.ts ?? 0)) / (mine.length - 1) : 0;
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    for (const s of mine) {
      const top = s.stack[0] ?? "(none)";
      self.set(top, (self.get(top) ?? 0) + 1);
      for (const name of new Set(s.stack)) total.set(name, (total.get(name) ?? 0) + 1);
    }
    const ranked = (counts: Map<string, number>) =>
      [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([fn, n]) => ({ fn, ms: Math.round((n * interval) / 100) / 10 }));
    return {
      start_ms: Math.round(start / 1000),
      ms: Math.round((task.dur ?? 0) / 1000),
      inside,
      functions: ranked(self),
      stacks: ranked(total),
    };
  });
}
