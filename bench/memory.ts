/**
 * `npm run bench:memory [-- 1e8 1e9]`: shows that the CLIs stream. For each size it generates a synthetic
 * rollouts file (scripts/gen-big-rollouts.ts), runs `resolve` and `verify` on it in a child process and
 * reports the child's peak resident memory (VmHWM from /proc, Linux only) and wall time. Flat memory means
 * the peak barely moves between a 100 MB and a 1 GB file. Files are deleted afterwards.
 */
import { rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generate } from "../scripts/gen-big-rollouts";
import { measureCli } from "./child-peak";

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number);
  const targets = sizes.length > 0 ? sizes : [1e8, 1e9];
  console.log("file      rollouts  command  peak RSS   wall");
  for (const bytes of targets) {
    const file = path.join(tmpdir(), `rollout-inspector-memory-${process.pid}-${bytes}.jsonl`);
    try {
      const { lines } = await generate(file, bytes, 1);
      const mb = (statSync(file).size / 1e6).toFixed(0);
      for (const command of ["resolve", "verify"]) {
        const r = await measureCli([command, file, "--server", "workplace_assistant"]);
        if (r.code !== 0) throw new Error(`${command} exited with ${r.code}`);
        console.log(
          `${`${mb} MB`.padEnd(9)} ${String(lines).padStart(8)}  ${command.padEnd(7)}  ${r.peakMiB.toFixed(0).padStart(4)} MiB  ${r.seconds.toFixed(1)} s`,
        );
      }
    } finally {
      rmSync(file, { force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
