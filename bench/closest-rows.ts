/**
 * `npm run bench:closest`: what naming the closest input row costs an unpaired line, against how many rows
 * it is compared with (lib/verify InputIndex, CLOSEST_ROWS_COMPARED). Each size builds an index of that many
 * distinct task inputs (all of them compared) and times `pair()` for lines that pair none, so each call runs
 * the whole closest-row search. Two input shapes: Gym's workplace_assistant task (a system and a user
 * message, ~400 bytes of input) and a long multi-turn input (24 items, ~48 KB). Prints a Markdown table;
 * results: bench/closest-rows.md.
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { CLOSEST_ROWS_COMPARED, InputIndex } from "../lib/verify";

const SIZES = [250, 500, 1000, 2000, 4000, 8000, 16000];
/** The long input's index grows ~150 KB of keys per row: past 4,000 rows its build alone takes minutes. */
const LONG_SIZES = [250, 500, 1000, 2000, 4000];
/** Each size is timed for at least this long (and at least MIN_LINES lines). */
const MIN_MS = 1500;
const MIN_LINES = 5;
const WORKPLACE = join(
  process.cwd(),
  "fixtures/gym-examples/resources_servers/workplace_assistant/data/example.jsonl",
);

type Shape = {
  readonly name: string;
  readonly sizes: readonly number[];
  readonly input: (variant: string) => unknown[];
};

function workplaceShape(): Shape {
  const row: unknown = JSON.parse(readFileSync(WORKPLACE, "utf8").split("\n")[0] ?? "{}");
  const params =
    typeof row === "object" && row !== null && "responses_create_params" in row
      ? row.responses_create_params
      : null;
  const input = typeof params === "object" && params !== null && "input" in params ? params.input : null;
  if (!Array.isArray(input) || input.length !== 2) throw new Error("workplace_assistant's first row changed");
  const [system, user] = input;
  const text = typeof user === "object" && user !== null && "content" in user ? String(user.content) : "";
  return {
    name: "workplace_assistant task (2 items)",
    sizes: SIZES,
    input: (v) => [system, { role: "user", content: `${text} ${v}` }],
  };
}

/** A long conversation: 23 turns of ~2 KB shared by every row, then the turn that differs. */
function longShape(): Shape {
  const turns = Array.from({ length: 23 }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: `Turn ${i}: ${"lorem ipsum dolor sit amet ".repeat(75)}`,
  }));
  return {
    name: "multi-turn input (24 items, ~48 KB)",
    sizes: LONG_SIZES,
    input: (v) => [...turns, { role: "user", content: `last ${v}` }],
  };
}

const task = (input: unknown[]) => ({ responses_create_params: { input } });

interface Result {
  readonly rows: number;
  /** Building the index of `rows` rows, every one compared (their items given ids). */
  readonly buildMs: number;
  readonly msPerLine: number;
}

function measure(shape: Shape, rows: number): Result {
  const tasks = Array.from({ length: rows }, (_, i) => task(shape.input(`row ${i}`)));
  const built = performance.now();
  const index = new InputIndex<number>(rows);
  tasks.forEach((row, i) => {
    index.add(row, i, { file: "inputs.jsonl", line: i + 1 });
  });
  const buildMs = performance.now() - built;
  let lines = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MIN_MS || lines < MIN_LINES) {
    const pairing = index.pair(task(shape.input(`unpaired ${lines}`)));
    if (pairing.paired_by !== "none" || !pairing.reason.includes("The closest is inputs.jsonl line"))
      throw new Error(`line ${lines} paired or named no closest row`);
    lines++;
    elapsed = performance.now() - start;
  }
  return { rows, buildMs, msPerLine: elapsed / lines };
}

function main(): void {
  const out: string[] = [
    `Closest-row search per unpaired line (lib/verify InputIndex.pair), ${cpus()[0]?.model ?? "cpu"}, load ${loadavg()[0]?.toFixed(1)}, node ${process.version}.`,
    `CLOSEST_ROWS_COMPARED = ${CLOSEST_ROWS_COMPARED}.`,
    "",
  ];
  for (const shape of [workplaceShape(), longShape()]) {
    out.push(
      `### ${shape.name}`,
      "",
      "| rows compared | index build, ms | ms per unpaired line | s per 10,000 unpaired lines |",
      "|---:|---:|---:|---:|",
    );
    for (const rows of shape.sizes) {
      const r = measure(shape, rows);
      out.push(
        `| ${rows.toLocaleString("en")} | ${r.buildMs.toFixed(0)} | ${r.msPerLine.toFixed(2)} | ${((r.msPerLine * 10000) / 1000).toFixed(1)} |`,
      );
      // Progress on stderr: the large sizes take a while.
      console.error(out[out.length - 1]);
    }
    out.push("");
  }
  console.log(out.join("\n"));
}

/** `--one SHAPE ROWS`: a single measurement (to profile one point). */
function one(shapeName: string, rows: number): void {
  const shape = shapeName === "long" ? longShape() : workplaceShape();
  const r = measure(shape, rows);
  console.log(
    `${shape.name}: ${rows} rows, build ${r.buildMs.toFixed(0)} ms, ${r.msPerLine.toFixed(2)} ms per unpaired line`,
  );
}

if (process.argv[2] === "--one") one(process.argv[3] ?? "workplace", Number(process.argv[4] ?? 2000));
else main();
