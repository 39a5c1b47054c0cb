/**
 * The fidelity corpus against the rewards Gym's own verifier gave it (fixtures/fidelity/expected.jsonl,
 * written by `npm run fidelity`): the port must agree on every rollout, on the reward and on how many calls
 * Gym skipped. Self-contained: the corpus is rebuilt from its seeded generator, no Python needed.
 */
import { describe, expect, it } from "vitest";
import {
  dateOutcome,
  dateTextsSha256,
  loadCorpus,
  readDatesExpected,
  readExpected,
  sameDateOutcome,
  sameScore,
  scoreLine,
} from "./score";
import { allDateTexts } from "./values";

const { header, scores: expected } = readExpected();
const { corpus, lines, sha256 } = loadCorpus();

describe("fidelity corpus", () => {
  it("is the corpus Gym scored (regenerate the expectations with `npm run fidelity` after changing it)", () => {
    expect(sha256).toBe(header.corpus_sha256);
    expect(expected).toHaveLength(lines.length);
    expect(lines.length).toBeGreaterThanOrEqual(5000);
  });

  it("covers every class of issue 11 and all 27 tools", () => {
    expect(new Set(corpus.map((e) => e.cls))).toEqual(
      new Set([
        "dates",
        "repr",
        "numbers",
        "dict_order",
        "int",
        "case",
        "nesting",
        "json",
        "types",
        "plain",
        "int_limit",
      ]),
    );
    const tools = new Set(lines.flatMap((l) => [...l.matchAll(/"name":"([a-z_]+)"/g)].map((m) => m[1])));
    expect(tools.size).toBe(27);
  });

  it("agrees with Gym on every rollout (reward and skipped calls)", () => {
    const disagreements: string[] = [];
    lines.forEach((line, i) => {
      const ours = scoreLine(line);
      const gym = expected[i]!;
      if (!sameScore(ours, gym)) {
        disagreements.push(
          `#${i} ${corpus[i]!.cls}: Gym ${JSON.stringify(gym)}, port ${JSON.stringify(ours)}`,
        );
      }
    });
    expect(disagreements).toEqual([]);
  });
});

describe("pd.Timestamp on the corpus's date texts", () => {
  const texts = allDateTexts();
  const dates = readDatesExpected();

  it("are the texts pandas was run on", () => {
    expect(dates.header.texts_sha256).toBe(dateTextsSha256(texts));
    expect(dates.outcomes).toHaveLength(texts.length);
  });

  it("gives what pandas 2.3.3 gave: exception, NaT or Timestamp, tz-awareness and wall-clock fields", () => {
    const mismatches = texts.flatMap((text, i) => {
      const gym = dates.outcomes[i]!;
      const ours = dateOutcome(text);
      return sameDateOutcome(text, ours, gym)
        ? []
        : [`${JSON.stringify(text)}: ${JSON.stringify({ gym, ours })}`];
    });
    expect(mismatches).toEqual([]);
  });
});
