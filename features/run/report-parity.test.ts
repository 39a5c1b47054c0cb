/**
 * A folder's report (issue #22): `cli report DIR` covers every rollouts file of the folder, each rollout
 * labelled with its file, marks as FILE:LINE; the page's Report button on any rollouts file of the opened
 * folder writes the same bytes.
 */
import { cpSync, mkdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "@/cli/commands/report";
import { run as triage } from "@/cli/commands/triage";
import { memoryIo } from "@/cli/io";
import { inProcessPool } from "@/worker/pool";
import { DataService } from "@/worker/service";
import { folderEntriesFromDisk } from "@/worker/test-helpers";
import { runHandlers } from "./handlers";

const EXAMPLES = path.resolve(__dirname, "../../fixtures/gym-examples/resources_servers");
const SERVERS = ["example_multi_step", "example_tool_call_multireward"];
const A = "example_multi_step/data/example_rollouts.jsonl";
const B = "example_tool_call_multireward/data/example_rollouts.jsonl";
const never = new AbortController().signal;
const context = { signal: never, progress: () => {}, transfer: () => {} };

let base: string;
let dir: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "report-folder-"));
  dir = path.join(base, "two-runs");
  for (const server of SERVERS)
    cpSync(path.join(EXAMPLES, server), path.join(dir, server), { recursive: true });
  // Beside the runs: a file no role fits and a hidden folder, which the report names.
  await writeFile(path.join(dir, "notes.txt"), "what we changed in this run\n");
  mkdirSync(path.join(dir, ".hydra"));
  await writeFile(path.join(dir, ".hydra/config.yaml"), "seed: 1\n");
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function cliReport(args: string[]): Promise<{ code: number; html: string | null; err: string }> {
  const out = path.join(base, `r-${Math.random().toString(36).slice(2)}.html`);
  const io = memoryIo();
  const code = await run([dir, ...args, "--out", out], io);
  const html = code === 0 ? await readFile(out, "utf8") : null;
  return { code, html, err: io.err() };
}

describe("the report of a folder", () => {
  it("covers every rollouts file, each rollout labelled with its file; the same bytes each time", async () => {
    const first = await cliReport(["--mark", `${B}:1,${A}:2`]);
    expect(first.code).toBe(0);
    const html = first.html ?? "";
    expect(html.match(/data-testid="report-run"/g)).toHaveLength(2);
    expect(html).toContain(`data-testid="report-rollout" data-file="${A}" data-line="2"`);
    expect(html).toContain(`data-testid="report-rollout" data-file="${B}" data-line="1"`);
    expect(html.match(/data-testid="report-rollout"/g)).toHaveLength(2);
    expect(html).toContain("<title>Rollout report: two-runs</title>");
    // Marks in another order: the same bytes.
    expect((await cliReport(["--mark", `${A}:2,${B}:1`])).html).toBe(html);
  });

  it("leads with the whole folder's answer, the headline `cli triage DIR` prints", async () => {
    const { html } = await cliReport([]);
    const io = memoryIo();
    expect(await triage([dir], io)).toBe(0);
    const headline = io.out().split("\n")[0] ?? "";
    expect(headline).toMatch(/ of \d+ rollouts recorded 0/);
    expect(html).toContain(
      `<p data-testid="report-whole-folder"><strong>Whole folder:</strong> ${headline}</p>`,
    );
  });

  it("lists the whole folder's zeros per cause first, as `cli triage DIR` counts them", async () => {
    const mixed = path.join(base, "mixed");
    cpSync(path.join(EXAMPLES, "../environments/calendar"), path.join(mixed, "calendar"), {
      recursive: true,
    });
    // Three servers' runs: zeros of different causes, and one verifier whose fields Gym wrote on its zeros.
    for (const server of ["workplace_assistant", "swebench"])
      cpSync(path.join(EXAMPLES, server), path.join(mixed, server), { recursive: true });
    const out = path.join(base, "mixed.html");
    expect(await run([mixed, "--out", out], memoryIo())).toBe(0);
    const html = await readFile(out, "utf8");
    const io = memoryIo();
    expect(await triage([mixed], io)).toBe(0);
    // `cli triage DIR`'s cause lines: "  no_server   3   30.0%  Unverifiable (no verifying server)".
    const counted = io
      .out()
      .split("\n")
      .flatMap((line) => {
        const m = /^ {2}\w+\s+(\d+)\s+[\d.]+% {2}(.+)$/.exec(line);
        return m?.[1] !== undefined && m[2] !== undefined && Number(m[1]) > 0 ? [[m[2], m[1]]] : [];
      });
    expect(counted.length).toBeGreaterThan(1);
    const folderTable =
      /<table data-testid="report-whole-folder-causes">[\s\S]*?<\/table>/.exec(html)?.[0] ?? "";
    const listed = [
      ...folderTable.matchAll(/<strong>([^<]+)<\/strong>[\s\S]*?<td class="num">(\d+)<\/td>/g),
    ].map((m) => [m[1], m[2]]);
    expect(listed).toEqual(counted);
    // The folder's means and pass@k over all its rows, and what Gym's verifiers wrote, as `cli triage DIR`.
    const said = io.out().split("\n");
    const means = said.filter((line) => line.startsWith("mean reward:") || line.startsWith("pass@k"));
    expect(means).toHaveLength(2);
    expect(html).toContain(`<p data-testid="report-whole-folder-means">${means.join("; ")}</p>`);
    const wrote = said.filter((line) => line.includes("What Gym's verifier wrote"));
    expect(wrote.length).toBeGreaterThan(0);
    const folderPart = html.slice(0, html.indexOf('data-testid="report-files"'));
    for (const heading of wrote) expect(folderPart).toContain(heading.replaceAll("'", "&#39;"));
    // Its rows not verified here and what the recorded rewards reproduce, the CLI's second and nth lines.
    const notVerified = said.find((line) => / rollouts not verified under /.test(line));
    const reproduced = said.find((line) => line.startsWith("Recorded reward reproduced"));
    expect(folderPart).toContain(`<p data-testid="report-whole-folder-not-verified">${notVerified}</p>`);
    expect(folderPart).toContain(`<p data-testid="report-whole-folder-reproduced">${reproduced}</p>`);
    // Before any file's own section.
    expect(html.indexOf("report-whole-folder-causes")).toBeLessThan(html.indexOf('data-testid="report-run"'));
  });

  it("refuses a bare line when the folder holds several rollouts files, and a file that is not one of them", async () => {
    const bare = await cliReport(["--mark", "2"]);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain("holds 2 rollouts files");
    const other = await cliReport(["--mark", "nope.jsonl:2"]);
    expect(other.code).toBe(2);
    expect(other.err).toContain("nope.jsonl is not a rollouts file");
  });

  it("the page's Report button on either file of the opened folder writes the CLI's bytes", async () => {
    const service = new DataService(inProcessPool());
    const summary = await service.loadFolder("two-runs", folderEntriesFromDisk(dir), never, () => {});
    await service.settled();
    const id = (file: string) => summary.folder?.runs.find((r) => r.rollouts === file)?.dataset ?? "";
    const handlers = runHandlers(service);
    for (const [args, marked, filter] of [
      [
        ["--mark", `${A}:2,${B}:1`],
        [
          { dataset: id(A), line: 2 },
          { dataset: id(B), line: 1 },
        ],
        "",
      ],
      [["--filter", "recorded:1"], [], "recorded:1"],
      // A text clause reads each line's raw text: the CLI's report found no line before it did.
      [["--filter", "text:synonym"], [], "text:synonym"],
    ] as const) {
      const cli = await cliReport([...args]);
      if (filter === "text:synonym") expect(cli.err).toContain("report: 5 rollouts shown");
      for (const dataset of [id(A), id(B)]) {
        const page = await handlers.runReport({ dataset, filter, marked, reward: "recorded" }, context);
        if ("error" in page) throw new Error(page.error);
        expect(page.html).toBe(cli.html);
        // The folder's other files and its hidden entry are named, as the folder panel names them.
        const other = page.html.split('data-testid="report-other-files"')[1]?.split("</table>")[0] ?? "";
        expect(other).toContain("<td><code>notes.txt</code></td><td>not recognised</td>");
        expect(other).toContain(
          "<td><code>example_multi_step/configs/example_multi_step.yaml</code></td><td>Gym config</td>",
        );
        expect(other).toContain(
          "<td><code>example_multi_step/data/example.jsonl</code></td><td>task rows (inputs)</td>",
        );
        expect(page.html).toContain('data-testid="report-hidden">Left out as hidden: .hydra/.</p>');
      }
    }
  });
});

describe("the report of a folder with unreadable lines and a damaged gzip", () => {
  it("lists each with what it is, the page's bytes equal to the CLI's", async () => {
    const folder = path.join(base, "damaged");
    cpSync(path.join(EXAMPLES, "example_multi_step"), folder, { recursive: true });
    const rollouts = (await readFile(path.join(folder, "data/example_rollouts.jsonl"), "utf8"))
      .trim()
      .split("\n");
    // A line that is not JSON, a placeholder Gym ships, a record without a response, between rollouts.
    await writeFile(
      path.join(folder, "data/example_rollouts.jsonl"),
      `${rollouts[0]}\n{"broken\n<one rollout, not shown>\n{"reward": 0}\n${rollouts.slice(1).join("\n")}\n`,
    );
    // Blank lines between them: they count for line numbers, the damage's included.
    const gz = gzipSync(Buffer.from(`${rollouts.join("\n\n")}\n`));
    // Cut near its end: lines before the damage (they compress together: halfway is inside the first line).
    await writeFile(path.join(folder, "data/more_rollouts.jsonl.gz"), gz.subarray(0, gz.length - 20));
    // Files without one rollout: the report says what each is instead, as the page's banner does.
    await writeFile(path.join(folder, "data/empty_rollouts.jsonl"), "");
    await writeFile(
      path.join(folder, "data/utf16_rollouts.jsonl"),
      Buffer.from(`\ufeff${rollouts[0]}\n`, "utf16le"),
    );
    const cut = gzipSync(Buffer.from(rollouts[0] ?? ""));
    await writeFile(path.join(folder, "data/cut_rollouts.jsonl.gz"), cut.subarray(0, cut.length - 20));
    const out = path.join(base, "damaged.html");
    const io = memoryIo();
    expect(await run([folder, "--out", out], io)).toBe(1);
    const html = await readFile(out, "utf8");
    const lists = html.match(/<details data-testid="report-unreadable">[\s\S]*?<\/details>/g) ?? [];
    expect(lists.length).toBeGreaterThanOrEqual(2);
    const problems = html.match(/data-testid="report-problem">[^<]*/g) ?? [];
    expect(problems.map((p) => p.replace(/^[^>]*>/, "").slice(0, 30)).sort()).toEqual([
      "This file is UTF-16 text, not ",
      "This file is empty: it holds n",
      "This gzip file is damaged befo",
    ]);
    expect(lists.join("")).toContain("damaged gzip data at byte");
    expect(lists.join("")).toContain("placeholder");
    const service = new DataService(inProcessPool());
    const summary = await service.loadFolder("damaged", folderEntriesFromDisk(folder), never, () => {});
    await service.settled();
    const dataset = summary.folder?.runs.find((r) => r.dataset !== null)?.dataset ?? "";
    const page = await runHandlers(service).runReport(
      { dataset, filter: "", marked: [], reward: "recorded" },
      context,
    );
    if ("error" in page) throw new Error(page.error);
    expect(page.html).toBe(html);
  });
});
