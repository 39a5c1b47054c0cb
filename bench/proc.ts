/** What the benchmarks read from Linux /proc: processes under a root, and a thread's or process's CPU time. */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
export const CLOCK_TICKS = 100;

/** user + system CPU ms of a thread or a process (its /proc stat file: fields 14 and 15). */
export function statCpuMs(statPath: string): number {
  const stat = readFileSync(statPath, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** `root` and every process under it. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone since the listing
    }
  }
  const out: number[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}
