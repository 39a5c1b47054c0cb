/**
 * The fidelity corpus against the rewards Gym's own verifier gave it (fixtures/fidelity/expected.jsonl,
 * written by `npm run fidelity`): the port must agree on every rollout, on the reward and on how many calls
 * Gym skipped. Self-contained: the corpus is rebuilt from its seeded generator, no Python needed.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildCorpus } from "./corpus";
import { corpusLines, corpusSha256, EXPECTED_PATH, type Score, scoreLine } from "./score";

const [headerLine = "{}", ...expectedLines] = readFileSync(EXPECTED_PATH, "utf8").trim().split("\n");
const header = JSON.parse(headerLine) as { corpus_sha256: string; rollouts: number };
const expected = expectedLines.map((l) => JSON.parse(l) as Score);
const corpus = buildCorpus();
const lines = corpusLines(corpus);

describe("fidelity corpus", () => {
  it("is the corpus Gym scored (regenerate the expectations with `npm run fidelity` after changing it)", () => {
    expect(corpusSha256(lines)).toBe(header.corpus_sha256);
    expect(expected).toHaveLength(lines.length);
    expect(lines.length).toBeGreaterThanOrEqual(5000);
  });

  it("covers every class of issue 11 and all 27 tools", () => {
    expect(new Set(corpus.map((e) => e.cls))).toEqual(
      new Set(["dates", "repr", "numbers", "dict_order", "int", "case", "nesting", "json", "types", "plain"]),
    );
    const tools = new Set(lines.flatMap((l) => [...l.matchAll(/"name":"([a-z_]+)"/g)].map((m) => m[1])));
    expect(tools.size).toBe(27);
  });

  it("agrees with Gym on every rollout (reward and skipped calls)", () => {
    const disagreements: string[] = [];
    lines.forEach((line, i) => {
      const ours = scoreLine(line);
      const gym = expected[i]!;
      if (ours.reward !== gym.reward || ours.skipped !== gym.skipped) {
        disagreements.push(
          `#${i} ${corpus[i]!.cls}: Gym ${JSON.stringify(gym)}, port ${JSON.stringify(ours)}`,
        );
      }
    });
    expect(disagreements).toEqual([]);
  });
});
