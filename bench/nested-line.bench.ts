/**
 * `npx tsx bench/nested-line.bench.ts [MB]`: what one hostile line of nested arrays costs the CLI. The file
 * holds a good rollout, one line of MB megabytes of "[" then "]" (default 50) and another good rollout;
 * `resolve` runs on it in a child process (bench/child-peak.ts) and the table gives its wall time and peak
 * resident memory, after checking that the line is refused for its nesting and both rollouts resolve.
 * Results: bench/nested-line.md.
 */
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MAX_NESTING_DEPTH } from "../lib/jsonl";
import { measureCli } from "./child-peak";

const DEFAULT_MB = 50;
const GOOD = JSON.stringify({
  responses_create_params: { input: [] },
  response: { output: [{ type: "function_call", name: "email_send_email", call_id: "c0", arguments: "{}" }] },
  reward: 1,
});

async function main(): Promise<void> {
  const mb = Number(process.argv[2] ?? DEFAULT_MB);
  const half = Math.floor((mb * 1e6) / 2);
  const file = path.join(tmpdir(), `rollout-inspector-nested-${process.pid}.jsonl`);
  try {
    writeFileSync(file, `${GOOD}\n${"[".repeat(half)}${"]".repeat(half)}\n${GOOD}\n`);
    const run = await measureCli(["resolve", file, "--server", "workplace_assistant"]);
    const records = run.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line): unknown => JSON.parse(line));
    const refused = JSON.stringify(records[1] ?? null);
    if (
      run.code !== 0 ||
      records.length !== 3 ||
      !refused.includes(`nesting deeper than ${MAX_NESTING_DEPTH}`)
    )
      throw new Error(`unexpected result (exit ${run.code}): ${run.stdout.slice(0, 500)}`);
    console.log("line of nested arrays  command  peak RSS   wall");
    console.log(
      `${`${mb} MB`.padEnd(21)}  resolve  ${run.peakMiB.toFixed(0).padStart(4)} MiB  ${run.seconds.toFixed(2)} s`,
    );
  } finally {
    rmSync(file, { force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
