/**
 * `npm run fidelity`: the differential check of the workplace_assistant port against Gym's own verifier.
 *
 * 1. Builds the corpus (scripts/fidelity/corpus.ts, deterministic) and writes it as JSONL to a scratch dir.
 * 2. Runs Gym's verifier on it (scripts/fidelity/gym_runner.py) with FIDELITY_PYTHON (default
 *    /tmp/venv-fid/bin/python: a Python 3.11 venv with `pip install pandas==2.3.3 pydantic`), reading Gym's
 *    code from GYM_SRC (default /work/shared/reference/gym-src). With --expected-only it skips this and uses
 *    the committed expectations instead.
 * 3. Scores the corpus with this project's port and compares reward and skipped-call count per rollout.
 * 4. Writes fixtures/fidelity/expected.jsonl (Gym's results, which `npm test` holds the port to) and
 *    fixtures/fidelity/SUMMARY.md.
 * 5. The Python-level cases (scripts/fidelity/pylevel.ts: json.loads nesting and the integer limit, int() on
 *    every script's digits, str methods on every code point) run by CPython 3.13 (FIDELITY_PY313, Gym's pin)
 *    and 3.11 (FIDELITY_PY311), written to fixtures/fidelity/expected-py313.jsonl with 3.11's answer where it
 *    differs, and compared with the port.
 * --python-level-only runs step 5 alone (seconds instead of minutes) and keeps the rest of SUMMARY.md's inputs
 * from the committed expectations.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { FidelityClass } from "./corpus";
import {
  buildPyCases,
  caseLabel,
  type PyCase,
  type PyExpectedRow,
  portOutcome,
  pyCaseLines,
  pyCasesSha256,
  readPyExpected,
  SWEEP_BLOCK,
  writePyExpected,
} from "./pylevel";
import {
  type DateOutcome,
  DateOutcomeSchema,
  dateOutcome,
  dateTextsSha256,
  loadCorpus,
  readDatesExpected,
  readExpected,
  ScoreSchema,
  sameDateOutcome,
  sameScore,
  scoreLine,
  writeDatesExpected,
  writeExpected,
} from "./score";
import { allDateTexts } from "./values";

const ROOT = join(import.meta.dirname, "..", "..");
const SUMMARY_PATH = join(ROOT, "fixtures", "fidelity", "SUMMARY.md");

/** One line of gym_runner.py's output: Gym's score plus the errors it printed and what it raised. */
const GymScoreSchema = ScoreSchema.extend({ errors: z.array(z.string()), raised: z.string().nullable() });
type GymScore = z.infer<typeof GymScoreSchema>;

const HOME = process.env.HOME ?? "";
const PY313 = process.env.FIDELITY_PY313 ?? join(HOME, ".pyenv", "versions", "3.13.0", "bin", "python");
const PY311 = process.env.FIDELITY_PY311 ?? join(HOME, ".pyenv", "versions", "3.11.7", "bin", "python");

function main(): void {
  const pythonLevelOnly = process.argv.includes("--python-level-only");
  const expectedOnly = pythonLevelOnly || process.argv.includes("--expected-only");
  const { corpus, lines, sha256: hash } = loadCorpus();
  const dir = mkdtempSync(join(tmpdir(), "fidelity-"));
  const corpusPath = join(dir, "corpus.jsonl");
  writeFileSync(corpusPath, `${lines.join("\n")}\n`);

  let gym: GymScore[];
  let pythonInfo = "committed expectations";
  if (expectedOnly) {
    const { header, scores } = readExpected();
    if (header.corpus_sha256 !== hash) {
      console.error(
        "fidelity: the committed expectations are for another corpus; run without --expected-only",
      );
      process.exit(2);
    }
    pythonInfo = header.scored_by ?? pythonInfo;
    gym = scores.map((score) => ({ ...score, errors: [], raised: null }));
  } else {
    const python = process.env.FIDELITY_PYTHON ?? "/tmp/venv-fid/bin/python";
    if (!existsSync(python)) {
      console.error(`fidelity: no Python at ${python} (set FIDELITY_PYTHON, or pass --expected-only)`);
      process.exit(2);
    }
    const outPath = join(dir, "gym.jsonl");
    const started = Date.now();
    const stderr = execFileSync(python, [join(import.meta.dirname, "gym_runner.py"), corpusPath, outPath], {
      encoding: "utf8",
      stdio: ["ignore", "ignore", "pipe"],
      maxBuffer: 1 << 26,
    });
    void stderr;
    pythonInfo = execFileSync(
      python,
      ["-c", "import sys, pandas; print(f'Python {sys.version.split()[0]}, pandas {pandas.__version__}')"],
      { encoding: "utf8" },
    ).trim();
    console.error(
      `fidelity: Gym scored ${lines.length} rollouts in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    gym = readFileSync(outPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => GymScoreSchema.parse(JSON.parse(l)));
    writeExpected(hash, pythonInfo, gym);
  }

  const dates = datesDifferential(expectedOnly, dir);
  const py = pythonLevel(process.argv.includes("--expected-only"), dir);
  const started = Date.now();
  const ours = lines.map(scoreLine);
  const ourMs = (Date.now() - started) / lines.length;
  const perClass = new Map<FidelityClass, { n: number; reward: number; skipped: number }>();
  const disagreements: string[] = [];
  corpus.forEach((entry, i) => {
    const c = perClass.get(entry.cls) ?? { n: 0, reward: 0, skipped: 0 };
    c.n++;
    const g = gym[i]!;
    const o = ours[i]!;
    if (g.reward === o.reward) c.reward++;
    if (g.skipped === o.skipped) c.skipped++;
    perClass.set(entry.cls, c);
    if (!sameScore(o, g)) {
      disagreements.push(
        `#${i} ${entry.cls}: Gym reward ${g.reward} skipped ${g.skipped}${g.raised ? ` raised ${g.raised}` : ""} | port reward ${o.reward} skipped ${o.skipped} | ${JSON.stringify(entry.request.response).slice(0, 400)} ${g.errors.length ? `| Gym errors: ${g.errors.join(" / ").slice(0, 300)}` : ""}`,
      );
    }
  });
  const agreeReward = [...perClass.values()].reduce((a, c) => a + c.reward, 0);
  const agreeBoth = lines.length - disagreements.length;
  const tools = new Set<string>();
  for (const entry of corpus) {
    const output = (entry.request.response as { output: { name: string }[] }).output;
    for (const item of output) tools.add(item.name);
  }
  const rows = [...perClass].map(([cls, c]) => `| ${cls} | ${c.n} | ${c.reward} | ${c.skipped} |`);
  const summary = `# Fidelity: the workplace_assistant port against Gym's own verifier

Generated by \`npm run fidelity\` (scripts/fidelity/run.ts). What produced each committed result:

| file | what | produced by |
|---|---|---|
| \`expected.jsonl\` | Gym's \`utils.is_correct\` on the corpus (pandas level) | ${pythonInfo} |
| \`dates-expected.jsonl\` | \`pd.Timestamp\` on the corpus's date texts | ${pythonInfo} |
| \`expected-py313.jsonl\` | json.loads, int() and str semantics (Python level) | ${py.scoredBy}; answers marked 3.11-only by ${py.comparedWith} |

The port follows Python 3.13, which Gym pins. The pandas-level corpus stays clear of what differs between 3.11 and
3.13 (characters assigned in Unicode 15, json nesting between 3.11's ~1,000 and 3.13's 9,998 levels); those
classes are checked at the Python level against 3.13 (below).

## Pandas level

The corpus (scripts/fidelity/corpus.ts, seed fixed,
sha256 \`${hash.slice(0, 16)}\`) holds ${lines.length} adversarial but plausible verify requests over ${tools.size} of the
27 tools. Each was scored by Gym's \`utils.is_correct\` (${pythonInfo}) and by this project's port; a rollout agrees
when both the reward and the number of calls Gym skipped (its "Error executing tool" lines) are equal.

**Agreement: ${agreeBoth} / ${lines.length} rollouts on reward and skipped calls; ${agreeReward} / ${lines.length} on reward.**

| class | rollouts | reward agrees | skipped calls agree |
|---|---|---|---|
${rows.join("\n")}

Port: ${ourMs.toFixed(3)} ms per rollout on this machine (including the corpus's deep-nesting and long-number lines).

**pd.Timestamp alone: ${dates.agree} / ${dates.total} date texts agree** (exception or NaT or Timestamp, tz-aware or not, and
the wall-clock date and time except where pandas reads the clock: "now", "today", a bare time of day), the same texts
the corpus puts into the tools (scripts/fidelity/values.ts).${
    dates.mismatches.length
      ? `\n\n${dates.mismatches
          .slice(0, 20)
          .map((m) => `- ${m}`)
          .join("\n")}`
      : ""
  }

Reproduce: \`npm run fidelity\` (needs FIDELITY_PYTHON, default /tmp/venv-fid/bin/python: a Python 3.11 venv with
\`pip install pandas==2.3.3 pydantic\`, and Gym's source at GYM_SRC, default /work/shared/reference/gym-src; for the
Python level FIDELITY_PY313 and FIDELITY_PY311, default pyenv's 3.13.0 and 3.11.7);
\`npm run fidelity -- --python-level-only\` runs the Python level alone (seconds);
\`npm run fidelity -- --expected-only\` re-scores the port against the committed results without Python.
\`npm test\` runs the same comparisons (scripts/fidelity/corpus.test.ts, scripts/fidelity/pylevel.test.ts). The
date texts pandas completes from the clock ("10:00 Feb" takes today's day) can differ from the committed result
on another day; the port uses Gym's fixed date.

${py.summary}

${
  disagreements.length === 0
    ? "No disagreement."
    : `## Disagreements\n\n${disagreements
        .slice(0, 50)
        .map((d) => `- ${d}`)
        .join("\n")}`
}
`;
  writeFileSync(SUMMARY_PATH, summary);
  console.log(summary.split("\n").slice(0, 20).join("\n"));
  if (disagreements.length > 0) {
    writeFileSync(join(dir, "disagreements.txt"), disagreements.join("\n"));
    console.error(
      `fidelity: ${disagreements.length} disagreements, listed in ${join(dir, "disagreements.txt")}`,
    );
    process.exitCode = 1;
  }
  if (py.mismatches.length > 0) {
    console.error(
      `fidelity: ${py.mismatches.length} Python-level disagreements:\n${py.mismatches.slice(0, 20).join("\n")}`,
    );
    process.exitCode = 1;
  }
}

/** A Python-level class, for the summary table. */
function pyClass(c: PyCase): string {
  if (c.op === "sweep") return `str on every code point: ${c.fn}`;
  if (c.op === "json_nest") return `json.loads nesting (${c.shape})`;
  return c.op === "int" ? "int() of text" : "json.loads integer limit";
}

function runPyLevel(python: string, casesPath: string, outPath: string, rawPath?: string): string[] {
  execFileSync(
    python,
    [join(import.meta.dirname, "py_level.py"), casesPath, outPath, ...(rawPath ? [rawPath] : [])],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return readFileSync(outPath, "utf8")
    .trim()
    .split("\n")
    .map((l) => z.object({ r: z.string() }).parse(JSON.parse(l)).r);
}

function pythonVersion(python: string): string {
  return execFileSync(
    python,
    [
      "-c",
      "import sys, unicodedata as u; v = sys.version_info; print(f'Python {v.major}.{v.minor}.{v.micro} (unicodedata {u.unidata_version})')",
    ],
    { encoding: "utf8" },
  ).trim();
}

/** [start, end) runs of the code points where two per-code-point result lists differ. */
function differingRanges(start: number, a: readonly string[], b: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  a.forEach((x, i) => {
    if (x === b[i]) return;
    const cp = start + i;
    const last = out[out.length - 1];
    if (last && last[1] === cp) last[1] = cp + 1;
    else out.push([cp, cp + 1]);
  });
  return out;
}

/**
 * The Python-level cases by CPython 3.13 and 3.11 (unless expectedOnly: the committed results), and by the
 * port. Returns the SUMMARY section and the cases where the port differs from 3.13.
 */
function pythonLevel(
  expectedOnly: boolean,
  dir: string,
): { summary: string; mismatches: string[]; scoredBy: string; comparedWith: string } {
  const cases = buildPyCases();
  const lines = pyCaseLines(cases);
  const hash = pyCasesSha256(lines);
  let rows: PyExpectedRow[];
  let header: ReturnType<typeof readPyExpected>["header"];
  if (expectedOnly) {
    ({ header, rows } = readPyExpected());
    if (header.cases_sha256 !== hash) {
      console.error(
        "fidelity: the committed Python-level expectations are for other cases; run without --expected-only",
      );
      process.exit(2);
    }
  } else {
    for (const python of [PY313, PY311]) {
      if (!existsSync(python)) {
        console.error(
          `fidelity: no Python at ${python} (set FIDELITY_PY313 / FIDELITY_PY311, or pass --expected-only)`,
        );
        process.exit(2);
      }
    }
    const casesPath = join(dir, "py-cases.jsonl");
    writeFileSync(casesPath, `${lines.join("\n")}\n`);
    const r313 = runPyLevel(PY313, casesPath, join(dir, "py313.jsonl"));
    const r311 = runPyLevel(PY311, casesPath, join(dir, "py311.jsonl"));
    rows = cases.map((_, i) => (r313[i] === r311[i] ? { r: r313[i]! } : { r: r313[i]!, py311: r311[i]! }));
    // Where a sweep block differs, both interpreters again on those blocks, code point by code point.
    const differing = cases.filter((c, i) => c.op === "sweep" && rows[i]!.py311 !== undefined);
    const subsetPath = join(dir, "py-sweep-diff.jsonl");
    writeFileSync(subsetPath, `${pyCaseLines(differing).join("\n")}\n`);
    const RawSchema = z.record(z.string(), z.array(z.string()));
    const raw = (python: string, name: string) => {
      runPyLevel(python, subsetPath, join(dir, `${name}-subset.jsonl`), join(dir, `${name}-raw.json`));
      return RawSchema.parse(JSON.parse(readFileSync(join(dir, `${name}-raw.json`), "utf8")));
    };
    const raw313 = raw(PY313, "py313");
    const raw311 = raw(PY311, "py311");
    const codePoints: Record<string, [number, number][]> = {};
    for (const c of differing) {
      if (c.op !== "sweep") continue;
      const key = `${c.fn}/${c.block}`;
      const ranges = differingRanges(c.block * SWEEP_BLOCK, raw313[key] ?? [], raw311[key] ?? []);
      const merged = codePoints[c.fn] ?? [];
      for (const range of ranges) {
        const last = merged[merged.length - 1];
        if (last && last[1] === range[0]) last[1] = range[1];
        else merged.push(range);
      }
      codePoints[c.fn] = merged;
    }
    header = {
      cases_sha256: hash,
      cases: cases.length,
      scored_by: pythonVersion(PY313),
      compared_with: pythonVersion(PY311),
      py311_code_points: codePoints,
    };
    writePyExpected(header, rows);
  }

  const mismatches: string[] = [];
  const perClass = new Map<string, { n: number; agree: number; only311: number }>();
  cases.forEach((c, i) => {
    const row = rows[i]!;
    const ours = portOutcome(c);
    const k = pyClass(c);
    const entry = perClass.get(k) ?? { n: 0, agree: 0, only311: 0 };
    entry.n++;
    if (ours === row.r) entry.agree++;
    else mismatches.push(`${caseLabel(c)}: Python ${row.r.slice(0, 200)} | port ${ours.slice(0, 200)}`);
    if (row.py311 !== undefined) entry.only311++;
    perClass.set(k, entry);
  });
  const agree = cases.length - mismatches.length;
  const nestLimit = (shape: string) => {
    let last = 0;
    let last311 = 0;
    cases.forEach((c, i) => {
      if (c.op !== "json_nest" || c.shape !== shape) return;
      if (rows[i]!.r.startsWith("ok")) last = Math.max(last, c.depth);
      if ((rows[i]!.py311 ?? rows[i]!.r).startsWith("ok")) last311 = Math.max(last311, c.depth);
    });
    return `${shape} ${last.toLocaleString("en-US")} (3.11: ${last311.toLocaleString("en-US")})`;
  };
  const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  const cpRows = Object.entries(header.py311_code_points).map(([fn, ranges]) => {
    const n = ranges.reduce((a, [s, e]) => a + e - s, 0);
    const shown = ranges
      .slice(0, 6)
      .map(([s, e]) => (e - s === 1 ? hex(s) : `${hex(s)}..${hex(e - 1)}`))
      .join(", ");
    return `| ${fn} | ${n.toLocaleString("en-US")} | ${shown}${ranges.length > 6 ? `, … (${ranges.length} ranges)` : ""} |`;
  });
  const intOnly311 = cases
    .map((c, i) => [c, rows[i]!] as const)
    .filter(([c, row]) => c.op !== "sweep" && c.op !== "json_nest" && row.py311 !== undefined)
    .slice(0, 8)
    .map(
      ([c, row]) =>
        `- ${caseLabel(c)}: 3.13 \`${row.r.slice(0, 90)}\`; 3.11-only \`${row.py311!.slice(0, 90)}\``,
    );
  const summary = `## Python level: CPython ${header.scored_by.replace(/^Python /, "")}, Gym's pin

Without pandas (the package index has pandas and numpy wheels for Python 3.11 only, and no source distribution,
so pandas cannot be built for 3.13 here), the semantics that depend on the Python version are checked against
3.13 directly: ${cases.length.toLocaleString("en-US")} cases (scripts/fidelity/pylevel.ts, run by scripts/fidelity/py_level.py), committed in
\`fixtures/fidelity/expected-py313.jsonl\` as ${header.scored_by} gave them, with ${header.compared_with}'s answer
beside it where it differs ("3.11-only": the port does not follow it). \`npm test\` replays them
(scripts/fidelity/pylevel.test.ts). The port's Unicode tables (lib/verifiers/pyunicode.generated.ts) are generated
from the same interpreter's unicodedata by scripts/gen-python-unicode.py (regenerated with 3.13.0 for this check:
byte-identical), and the test requires their version to be the reference's.

**Agreement with 3.13: ${agree} / ${cases.length} cases.**

| class | cases | port agrees with 3.13 | 3.11 differs (3.11-only) |
|---|---|---|---|
${[...perClass].map(([k, e]) => `| ${k} | ${e.n} | ${e.agree} | ${e.only311} |`).join("\n")}

- \`json.loads\` nesting (every depth from 900 to 1,100 and from 9,900 to 10,010, every 100th between, and
  12,000 and 20,000; \`args\` is a call's arguments object around nested lists): the deepest that decodes is
  ${nestLimit("args")}, ${nestLimit("list")}, ${nestLimit("dict")}. 3.13 counts C recursion only, so Python
  frames of the caller do not lower it, but each C-level call boundary on the caller's stack costs 2 levels
  (measured: json.loads under 50 nested \`map()\` calls decodes 9,898); the port uses 9,998, the limit at the
  top of the stack. Gym's verifier parses \`arguments\` itself, so this is the limit for a call's arguments; the
  reader's limit for a whole JSONL line is the browser's (README, bench/nesting.md).
- The integer string-conversion limit (4,300 digits, the same in both) on \`json.loads\` and \`int()\`, with
  CPython's messages. Where 3.11 and 3.13 differ, it is the order of the checks: 3.13 reports an invalid
  literal before counting digits.
${intOnly311.join("\n")}
- Every code point (0..U+10FFFF, in blocks of ${SWEEP_BLOCK}): \`isdigit\`, \`isalpha\`, \`isspace\`,
  \`isprintable\`, \`isdecimal\`, \`int(c)\`, \`lower()\`, \`upper()\`, the final-sigma context of \`lower()\`
  (\`c + "Σ"\` and \`"A" + c + "Σ"\`), \`repr(c)\`, and \`re\`'s \`\\d\` and \`\\s\` (the port's regexes over
  Python text check digits and spaces with the same tables, not the JS engine's newer Unicode). Where 3.11
  (Unicode 14.0) answers otherwise, code point by code point:

| operation | code points where 3.11 differs | where |
|---|---|---|
${cpRows.join("\n")}

Not covered at this level: the regular expressions Gym passes user text to (\`str.contains(pattern)\` in the
search tools) run on the JS engine's regex syntax and Unicode; those calls only read, so a difference can
change whether such a call errors (its explanation and the skipped-call count) but not a reward.${
    mismatches.length
      ? `\n\n### Python-level disagreements\n\n${mismatches
          .slice(0, 30)
          .map((m) => `- ${m}`)
          .join("\n")}`
      : ""
  }`;
  return { summary, mismatches, scoredBy: header.scored_by, comparedWith: header.compared_with };
}

/** pd.Timestamp on every date text of the corpus, by pandas and by the port. */
function datesDifferential(
  expectedOnly: boolean,
  dir: string,
): { total: number; agree: number; mismatches: string[] } {
  const texts = allDateTexts();
  let gym: DateOutcome[];
  if (expectedOnly) {
    const { header, outcomes } = readDatesExpected();
    if (header.texts_sha256 !== dateTextsSha256(texts)) {
      console.error(
        "fidelity: the committed date expectations are for other texts; run without --expected-only",
      );
      process.exit(2);
    }
    gym = outcomes;
  } else {
    const path = join(dir, "dates.jsonl");
    writeFileSync(path, `${texts.map((t) => JSON.stringify(t)).join("\n")}\n`);
    const python = process.env.FIDELITY_PYTHON ?? "/tmp/venv-fid/bin/python";
    gym = execFileSync(python, [join(import.meta.dirname, "dates_gym.py"), path], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    })
      .trim()
      .split("\n")
      .map((l) => DateOutcomeSchema.parse(JSON.parse(l)));
    writeDatesExpected(texts, gym);
  }
  const mismatches: string[] = [];
  texts.forEach((text, i) => {
    const ours = dateOutcome(text);
    if (!sameDateOutcome(text, ours, gym[i]!)) {
      mismatches.push(
        `${JSON.stringify(text)}: pandas ${JSON.stringify(gym[i])}, port ${JSON.stringify(ours)}`,
      );
    }
  });
  return { total: texts.length, agree: texts.length - mismatches.length, mismatches };
}

main();
