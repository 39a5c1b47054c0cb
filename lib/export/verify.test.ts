import { describe, expect, it } from "vitest";
import { z } from "zod";
import { golden, goldenInputs, readLines } from "../compare/test-helpers";
import { parseJsonLine } from "../jsonl";
import { indexInputs } from "../verify";
import { concatBytes } from "./edit";
import { splitSourceLines } from "./lines";
import { emptyVerifySummary, reportJsonl, VERIFY_KEY, verifyJsonl } from "./verify";

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { ignoreBOM: true });

async function collect<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
}

const VerifyRecord = z.object({
  [VERIFY_KEY]: z.looseObject({
    reward: z.number().nullable(),
    recorded_reward: z.number().nullable(),
    policy: z.string(),
    calls: z.array(z.looseObject({ status: z.string(), verifier_name: z.string() })),
  }),
  reward: z.unknown(),
});

function parsed(text: string): unknown {
  const r = parseJsonLine(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe("verify results export", () => {
  const rows = golden();
  const file = `${readLines("wa_rollouts.jsonl").join("\n")}\nnot json\n`;

  it.each(["contract", "legacy"] as const)(
    "adds the %s result to each line and keeps the rest",
    async (policy) => {
      const summary = emptyVerifySummary();
      const written = await collect(verifyJsonl(splitSourceLines(enc.encode(file)), { policy }, summary));
      const outLines = written.map((w) => dec.decode(w.bytes));
      expect(outLines.at(-1)).toBe("not json\n");
      expect(summary.bad).toHaveLength(1);
      rows.forEach((g, i) => {
        const line = outLines[i]!;
        // The original text up to its closing brace is a prefix: only the new key was appended.
        expect(line.startsWith(g.text.slice(0, -1))).toBe(true);
        const record = VerifyRecord.parse(parsed(line));
        expect(record[VERIFY_KEY].reward).toBe(g.expected[policy].reward);
        expect(record[VERIFY_KEY].policy).toBe(policy);
        expect(record.reward).toBe(g.rollout.reward);
      });
      const changed = rows.filter(
        (g) => g.expected[policy].reward !== null && g.expected[policy].reward !== g.rollout.reward,
      ).length;
      const unverified = rows.filter((g) => g.expected[policy].reward === null).length;
      expect(summary.tally).toMatchObject({
        rollouts: rows.length,
        changed,
        withoutReward: unverified,
        unreadable: 1,
      });
      // The golden rollouts include unverified ones: they are rollouts, never counted as recomputed.
      expect(unverified).toBeGreaterThan(0);
    },
  );

  it("with setReward replaces reward in place, formatted like the recorded token", async () => {
    const written = await collect(
      verifyJsonl(splitSourceLines(enc.encode(file)), { policy: "contract", setReward: true }),
    );
    rows.forEach((g, i) => {
      const line = dec.decode(written[i]!.bytes);
      // Unverified (Gym refuses the request): the recorded reward stays as it was.
      const expectedToken =
        g.expected.contract.reward === null
          ? JSON.stringify(g.rollout.reward).replace(/^(\d+)$/, "$1.0")
          : g.expected.contract.reward === 1
            ? "1.0"
            : "0.0";
      expect(line).toContain(`"reward": ${expectedToken}, "${VERIFY_KEY}": `);
      const record = VerifyRecord.parse(parsed(line));
      expect(record[VERIFY_KEY].recorded_reward).toBe(g.rollout.reward);
    });
  });

  it("pairs rollouts without task fields with materialized inputs, and names a missing row", async () => {
    const noecho = golden("noecho");
    const inputs = indexInputs(goldenInputs());
    const text = readLines("wa_noecho.jsonl").join("\n");
    const summary = emptyVerifySummary();
    const written = await collect(verifyJsonl(splitSourceLines(enc.encode(text)), { inputs }, summary));
    noecho.forEach((g, i) => {
      const record = VerifyRecord.parse(parsed(dec.decode(written[i]!.bytes)));
      expect(record[VERIFY_KEY].reward).toBe(g.expected.contract.reward);
    });
    const lonely = await collect(
      verifyJsonl(splitSourceLines(enc.encode(text)), { inputs: indexInputs([]) }),
    );
    const record = VerifyRecord.parse(parsed(dec.decode(lonely[0]!.bytes)));
    expect(record[VERIFY_KEY]).toMatchObject({
      reward: null,
      paired_by: "none",
      unverified: "missing_field",
    });
  });
});

describe("report export", () => {
  it("reports both policies per rollout and an error row for a bad line", async () => {
    const rows = golden();
    const file = `${readLines("wa_rollouts.jsonl").join("\n")}\n\n{broken\n`;
    const lines = (await collect(reportJsonl(splitSourceLines(enc.encode(file)), {}))).map((l) => parsed(l));
    expect(lines).toHaveLength(rows.length + 1);
    const Row = z.looseObject({
      line: z.number(),
      contract: z.looseObject({ reward: z.number().nullable() }),
      legacy: z.looseObject({ reward: z.number().nullable() }),
      policies_differ: z.boolean(),
      task_index: z.number(),
    });
    rows.forEach((g, i) => {
      const row = Row.parse(lines[i]);
      expect(row.line).toBe(g.line);
      expect(row.contract.reward).toBe(g.expected.contract.reward);
      expect(row.legacy.reward).toBe(g.expected.legacy.reward);
      expect(row.policies_differ).toBe(g.expected.contract.reward !== g.expected.legacy.reward);
      expect(row.task_index).toBe(g.rollout._ng_task_index);
    });
    expect(lines.at(-1)).toMatchObject({
      line: rows.length + 2,
      error: expect.stringMatching(/^invalid JSON/),
    });
  });

  it("keeps untouched bytes even around the edit", async () => {
    const raw = enc.encode(
      '{"x": 1e5, "environment_name": "nope", "response": {"output": []}, "reward": NaN}\r\n',
    );
    const [w] = await collect(verifyJsonl(splitSourceLines(raw), {}));
    const text = dec.decode(concatBytes([w!.bytes]));
    expect(
      text.startsWith('{"x": 1e5, "environment_name": "nope", "response": {"output": []}, "reward": NaN, '),
    ).toBe(true);
    expect(text.endsWith("}\r\n")).toBe(true);
    expect(text).toContain('"unverified": "no_verifier"');
    expect(text).toContain("no port of nope's verifier");
  });
});

describe("verify export of odd lines", () => {
  it("writes a JSON line that is not an object unchanged and says why", async () => {
    const summary = emptyVerifySummary();
    const [w] = await collect(verifyJsonl(splitSourceLines(enc.encode("[1, 2.0]\n")), {}, summary));
    expect(dec.decode(w!.bytes)).toBe("[1, 2.0]\n");
    expect(summary.errors).toEqual([
      { line: 1, error: expect.stringMatching(/^not a rollout/), kind: "not_a_rollout" },
    ]);
    expect(summary.tally).toMatchObject({ rollouts: 0, unreadable: 1 });
  });
});
