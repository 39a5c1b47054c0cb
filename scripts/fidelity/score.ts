/**
 * Scores the fidelity corpus with this project's workplace_assistant verifier, through the same request
 * path as `verify` (a JSON line narrowed by the verifier). Shared by `npm run fidelity` and its unit test.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parseJsonLine } from "../../lib/jsonl";
import type { WorkplaceDetails } from "../../lib/verifiers/workplace_assistant";
import { workplaceAssistantVerifier } from "../../lib/verifiers/workplace_assistant";
import { PyException } from "../../lib/verifiers/workplace_assistant/py";
import { pandasTimestamp } from "../../lib/verifiers/workplace_assistant/timestamp";
import type { CorpusEntry } from "./corpus";

/** Gym's results on the corpus: a header line ({corpus_sha256, rollouts, scored_by}), then one Score per line. */
export const EXPECTED_PATH = join(import.meta.dirname, "..", "..", "fixtures", "fidelity", "expected.jsonl");

/** The corpus's identity: the expectations only hold for the exact lines Gym scored. */
export function corpusSha256(lines: readonly string[]): string {
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

export interface Score {
  /** null where Gym's verify raises instead of scoring. */
  readonly reward: number | null;
  /** Calls (predicted and ground truth) whose exception made Gym skip them ("Error executing tool"). */
  readonly skipped: number;
}

export function corpusLines(corpus: readonly CorpusEntry[]): string[] {
  return corpus.map((entry) => JSON.stringify(entry.request));
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
export interface DateOutcome {
  readonly kind: string;
  readonly aware?: boolean;
  /** [year, month, day, hour, minute, second] */
  readonly wall?: readonly number[];
}

export const DATES_EXPECTED_PATH = join(
  import.meta.dirname,
  "..",
  "..",
  "fixtures",
  "fidelity",
  "dates-expected.jsonl",
);

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
