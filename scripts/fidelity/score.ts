/**
 * Scores the fidelity corpus with this project's workplace_assistant verifier, through the same request
 * path as `verify` (a JSON line narrowed by the verifier). Shared by `npm run fidelity` and its unit test.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parseJsonLine } from "../../lib/jsonl";
import type { WorkplaceDetails } from "../../lib/verifiers/workplace_assistant";
import { workplaceAssistantVerifier } from "../../lib/verifiers/workplace_assistant";
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
