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
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { FidelityClass } from "./corpus";
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

function main(): void {
  const expectedOnly = process.argv.includes("--expected-only");
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

Generated by \`npm run fidelity\` (scripts/fidelity/run.ts). The corpus (scripts/fidelity/corpus.ts, seed fixed,
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
\`pip install pandas==2.3.3 pydantic\`, and Gym's source at GYM_SRC, default /work/shared/reference/gym-src);
\`npm run fidelity -- --expected-only\` re-scores the port against the committed Gym results without Python.
\`npm test\` runs the same comparison (scripts/fidelity/corpus.test.ts).

## Behaviour that depends on the Python version

The port follows Python 3.13, which Gym pins; the check runs Python 3.11 (no pandas wheel for 3.13 here). The
corpus stays clear of the differences, which are:

- Unicode 14.0 (3.11) vs 15.1 (3.13): about 5,100 code points assigned since (U+0CF3, U+0ECE, U+2FFC..U+2FFF,
  U+31EF, Kawi U+11F00..U+11F59, Nag Mundari U+1E4D0..U+1E4F9, CJK extensions H and I, new emoji, ...) that
  3.11's \`repr()\` escapes and 3.13 prints; about 4,970 more \`isalpha()\` letters (dateutil's lexer); the Kawi
  (U+11F50..U+11F59) and Nag Mundari (U+1E4F0..U+1E4F9) digits that 3.13's \`int()\` and \`isdigit()\` accept.
  The \`lower()\`/\`upper()\` mappings and \`isspace()\` are the same in both (checked over every code point); the
  context of lower()'s final-sigma rule differs only on newly assigned characters (6 cased, 105 case-ignorable).
- \`json.loads\` nesting: 3.13 decodes 9,998 nested arrays/objects whatever the caller's depth and raises
  RecursionError at 9,999; 3.11 stops near 1,000 minus the caller's stack depth. The corpus nests at most 900
  or at least 9,999 levels.

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
