/**
 * Scores the fidelity corpus with this project's workplace_assistant verifier, through the same request
 * path as `verify` (a JSON line narrowed by the verifier). Shared by `npm run fidelity` and its unit test.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { parseJsonLine } from "../../lib/jsonl";
import type { WorkplaceDetails } from "../../lib/verifiers/workplace_assistant";
import { workplaceAssistantVerifier } from "../../lib/verifiers/workplace_assistant";
import { PyException } from "../../lib/verifiers/workplace_assistant/py";
import { pandasTimestamp } from "../../lib/verifiers/workplace_assistant/timestamp";
import { buildCorpus, type CorpusEntry } from "./corpus";

/** Gym's results on the corpus: a header line ({corpus_sha256, rollouts, scored_by}), then one Score per line. */
export const EXPECTED_PATH = join(import.meta.dirname, "..", "..", "fixtures", "fidelity", "expected.jsonl");

/** The corpus's identity: the expectations only hold for the exact lines Gym scored. */
export function corpusSha256(lines: readonly string[]): string {
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

export const ScoreSchema = z.object({
  /** null where Gym's verify raises instead of scoring. */
  reward: z.number().nullable(),
  /** Calls (predicted and ground truth) whose exception made Gym skip them ("Error executing tool"). */
  skipped: z.number(),
});
export type Score = z.infer<typeof ScoreSchema>;

/** A rollout agrees when the reward and the number of calls Gym skipped are both equal. */
export function sameScore(ours: Score, gym: Score): boolean {
  return ours.reward === gym.reward && ours.skipped === gym.skipped;
}

export function corpusLines(corpus: readonly CorpusEntry[]): string[] {
  return corpus.map((entry) => JSON.stringify(entry.request));
}

/** The corpus as Gym scored it: its entries, their JSON lines and the lines' sha256. */
export function loadCorpus(): { corpus: CorpusEntry[]; lines: string[]; sha256: string } {
  const corpus = buildCorpus();
  const lines = corpusLines(corpus);
  return { corpus, lines, sha256: corpusSha256(lines) };
}

const ExpectedHeaderSchema = z.object({
  corpus_sha256: z.string(),
  rollouts: z.number(),
  scored_by: z.string().optional(),
});

/** A committed expectations file: a JSON header line, then one JSON value per line. */
function readJsonLines<H, T>(
  path: string,
  header: z.ZodType<H>,
  row: z.ZodType<T>,
): { header: H; rows: T[] } {
  const [first = "{}", ...rest] = readFileSync(path, "utf8").trim().split("\n");
  return { header: header.parse(JSON.parse(first)), rows: rest.map((line) => row.parse(JSON.parse(line))) };
}

function writeJsonLines(path: string, header: unknown, rows: readonly unknown[]): void {
  writeFileSync(path, `${[header, ...rows].map((value) => JSON.stringify(value)).join("\n")}\n`);
}

/** Gym's committed results (EXPECTED_PATH): which corpus they are for, who scored it, one Score per line. */
export function readExpected(): { header: z.infer<typeof ExpectedHeaderSchema>; scores: Score[] } {
  const { header, rows } = readJsonLines(EXPECTED_PATH, ExpectedHeaderSchema, ScoreSchema);
  return { header, scores: rows };
}

export function writeExpected(corpusSha: string, scoredBy: string, scores: readonly Score[]): void {
  writeJsonLines(
    EXPECTED_PATH,
    { corpus_sha256: corpusSha, rollouts: scores.length, scored_by: scoredBy },
    scores.map((g) => ({ reward: g.reward, skipped: g.skipped })),
  );
}

export function scoreLine(line: string): Score {
  const parsed = parseJsonLine(line);
  if (!parsed.ok || !isRecord(parsed.value)) {
    throw new Error(`fidelity corpus line does not parse: ${parsed.ok ? "not an object" : parsed.error}`);
  }
  const out = workplaceAssistantVerifier.verify(parsed.value);
  const details = out.details as WorkplaceDetails | undefined;
  const skipped = details
    ? [...details.calls, ...details.groundTruthCalls].filter(
        (c) => c.outcome === "error" || c.outcome === "unknown_name",
      ).length
    : 0;
  return { reward: out.error === undefined ? out.reward : null, skipped };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What pd.Timestamp(text) gave: NaT, a Timestamp (aware or not, with its wall-clock fields), or an exception. */
export const DateOutcomeSchema = z.object({
  kind: z.string(),
  aware: z.boolean().optional(),
  /** [year, month, day, hour, minute, second] */
  wall: z.array(z.number()).optional(),
});
export type DateOutcome = z.infer<typeof DateOutcomeSchema>;

export const DATES_EXPECTED_PATH = join(
  import.meta.dirname,
  "..",
  "..",
  "fixtures",
  "fidelity",
  "dates-expected.jsonl",
);

/** The date texts' identity: the date expectations only hold for the exact texts pandas was run on. */
export function dateTextsSha256(texts: readonly string[]): string {
  return corpusSha256(texts.map((t) => JSON.stringify(t)));
}

const DatesHeaderSchema = z.object({ texts_sha256: z.string(), texts: z.number() });

/** pandas' committed outcomes (DATES_EXPECTED_PATH): which texts they are for, one DateOutcome per text. */
export function readDatesExpected(): { header: z.infer<typeof DatesHeaderSchema>; outcomes: DateOutcome[] } {
  const { header, rows } = readJsonLines(DATES_EXPECTED_PATH, DatesHeaderSchema, DateOutcomeSchema);
  return { header, outcomes: rows };
}

export function writeDatesExpected(texts: readonly string[], outcomes: readonly DateOutcome[]): void {
  writeJsonLines(
    DATES_EXPECTED_PATH,
    { texts_sha256: dateTextsSha256(texts), texts: texts.length },
    outcomes,
  );
}

/** Texts whose instant pandas takes from the clock (the port uses Gym's hard-coded time instead). */
export function clockDependent(text: string): boolean {
  return text === "now" || text === "today" || /^([01]?[0-9]|2[0-3]):([0-5][0-9])/.test(text);
}

export function dateOutcome(text: string): DateOutcome {
  try {
    const t = pandasTimestamp(text);
    if (t.nat) return { kind: "NaT" };
    // An aware Timestamp's wall date is its own day number; a naive one's wall time is its instant.
    const d = new Date(t.aware ? t.day * 86_400_000 : t.ms);
    const wall = [
      d.getUTCFullYear(),
      d.getUTCMonth() + 1,
      d.getUTCDate(),
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
    ];
    return { kind: "ok", aware: t.aware, wall: t.aware ? wall.slice(0, 3) : wall };
  } catch (error) {
    if (error instanceof PyException) return { kind: error.pyType };
    throw error;
  }
}

/** Whether the port's outcome is pandas'. Wall-clock fields count only where pandas does not read the clock. */
export function sameDateOutcome(text: string, ours: DateOutcome, gym: DateOutcome): boolean {
  if (ours.kind !== gym.kind) return false;
  if (ours.kind !== "ok") return true;
  if (ours.aware !== gym.aware) return false;
  if (clockDependent(text)) return true;
  const n = ours.aware ? 3 : 6;
  return (ours.wall ?? []).slice(0, n).every((v, i) => v === gym.wall?.[i]);
}
