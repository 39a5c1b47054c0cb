import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pairedInputsSample, SampleSchema } from "@/hooks/samples";
import {
  DEFAULT_COMPARE_STATE,
  folderPair,
  inspectorHref,
  NO_INPUTS,
  parseCompareState,
  parseToolList,
  repairFileOf,
  resolveInputs,
  serializeCompareState,
  verdictRank,
  whatIfFileOf,
} from "./state";

describe("compare URL state", () => {
  it("defaults to the HTTP vs Hermes-without-provenance pair and writes nothing for defaults", () => {
    const state = parseCompareState(new URLSearchParams(""));
    expect(state).toEqual(DEFAULT_COMPARE_STATE);
    expect(serializeCompareState(state).toString()).toBe("");
  });

  it("round-trips every field", () => {
    const params = new URLSearchParams(
      "tab=repair&a=x.jsonl&b=y.jsonl&ai=m.jsonl&bi=none&policy=legacy&verdict=identity-bug,same&sort=pair&pair=4&sample=s.jsonl&line=7&r=z.jsonl&harness=openclaw",
    );
    const state = parseCompareState(params);
    expect(state.tab).toBe("repair");
    expect(state.verdicts).toEqual(["identity-bug", "same"]);
    expect(state.pair).toBe(4);
    expect(state.harness).toBe("openclaw");
    expect(state.ai).toBe("m.jsonl");
    expect(state.bi).toBe(NO_INPUTS);
    expect(parseCompareState(serializeCompareState(state))).toEqual(state);
  });

  it("repairs the what-if's file until another is chosen, and keeps a chosen one", () => {
    const fromWhatIf = parseCompareState(
      new URLSearchParams("tab=repair&sample=workplace-harnesses.jsonl&line=21"),
    );
    expect(repairFileOf(fromWhatIf)).toBe("workplace-harnesses.jsonl");
    expect(serializeCompareState(fromWhatIf).get("r")).toBeNull();
    const chosen = { ...fromWhatIf, repairFile: "compare-mcp-hermes-noprov.jsonl" };
    expect(repairFileOf(chosen)).toBe("compare-mcp-hermes-noprov.jsonl");
    expect(serializeCompareState(chosen).get("r")).toBe("compare-mcp-hermes-noprov.jsonl");
    for (const state of [fromWhatIf, chosen])
      expect(parseCompareState(serializeCompareState(state))).toEqual(state);
  });

  it("without a file of their own, the what-if and the repair take the file opened as B", () => {
    const opened = { ...DEFAULT_COMPARE_STATE, b: "d-42" };
    expect(whatIfFileOf(opened)).toBe("d-42");
    expect(repairFileOf(opened)).toBe("d-42");
    expect(repairFileOf(DEFAULT_COMPARE_STATE)).toBe(DEFAULT_COMPARE_STATE.b);
  });

  it("ignores unknown values instead of failing", () => {
    const state = parseCompareState(
      new URLSearchParams("tab=nope&policy=x&verdict=bogus&sort=z&pair=-1&line=1e3&harness=vim"),
    );
    expect(state.tab).toBe("runs");
    expect(state.policy).toBe("contract");
    expect(state.verdicts).toEqual([]);
    expect(state.sort).toBe("verdict");
    expect(state.pair).toBeNull();
    expect(state.line).toBeNull();
    expect(state.harness).toBe(DEFAULT_COMPARE_STATE.harness);
  });

  it("ranks identity bugs before different actions before parity", () => {
    expect(verdictRank("same actions, different reward")).toBeLessThan(verdictRank("different actions"));
    expect(verdictRank("different actions")).toBeLessThan(verdictRank("same actions, same reward"));
  });

  it("parses tool lists", () => {
    expect(parseToolList(" a, b ,,a,c ")).toEqual(["a", "b", "c"]);
    expect(parseToolList("")).toEqual([]);
  });

  it("pairs a bundled rollouts sample with the bundled inputs its description names, unless chosen", () => {
    const samples = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, "../../public/samples/index.json"), "utf8"),
    );
    const parsed = z.array(SampleSchema).parse(samples);
    const inputs = parsed.filter((s) => s.kind === "inputs");
    expect(inputs.length).toBeGreaterThan(0);
    for (const sample of parsed.filter((s) => s.kind === "rollouts")) {
      const paired = pairedInputsSample(sample.file, parsed);
      const named = inputs.find(
        (i) => sample.description.includes(i.file) || i.description.includes(sample.file),
      );
      expect(paired).toBe(named?.file ?? null);
    }
    expect(pairedInputsSample("workplace-noecho.jsonl", parsed)).toBe("workplace_materialized_inputs.jsonl");
    expect(pairedInputsSample("compare-http.jsonl", parsed)).toBeNull();
    // An inputs file is not a rollouts sample: it pairs with nothing.
    expect(pairedInputsSample("workplace_materialized_inputs.jsonl", parsed)).toBeNull();
    expect(resolveInputs(null, "workplace-noecho.jsonl", parsed)).toBe("workplace_materialized_inputs.jsonl");
    expect(resolveInputs(NO_INPUTS, "workplace-noecho.jsonl", parsed)).toBeNull();
    expect(resolveInputs("mine.jsonl", "workplace-noecho.jsonl", parsed)).toBe("mine.jsonl");
  });
});

describe("the inspector and the served folder from /compare", () => {
  const held = (id: string, patch: Partial<Parameters<typeof folderPair>[0][number]> = {}) => ({
    id,
    ref: `served:${id}`,
    kind: "rollouts" as const,
    problem: null,
    indexed: true,
    rows: 5,
    rewarded: 5,
    paired_inputs: null,
    paired_rows: 0,
    servers: ["workplace_assistant"],
    ...patch,
  });
  const state = (query: string) => parseCompareState(new URLSearchParams(query));

  it("goes back to the file the view is about when the inspector holds it, else to the inspector as it is", () => {
    const files = [held("d1"), held("d2"), held("i1", { kind: "inputs" })];
    expect(inspectorHref(state("a=d2&b=d1"), files)).toBe("/?file=served%3Ad2");
    expect(inspectorHref(state("a=served:d1&b=d2"), files)).toBe("/?file=served%3Ad1");
    // The what-if's rollout, at its line; the repaired file.
    expect(inspectorHref(state("tab=whatif&sample=d1&line=7"), files)).toBe("/?file=served%3Ad1&line=7");
    expect(inspectorHref(state("tab=repair&r=d2"), files)).toBe("/?file=served%3Ad2");
    // A bundled sample, an inputs file, a file the inspector does not hold.
    expect(inspectorHref(state(""), files)).toBe("/");
    expect(inspectorHref(state("a=i1"), files)).toBe("/");
    expect(inspectorHref(state("a=d9"), files)).toBe("/");
  });

  it("compares a served folder's first run with the run the inspector would offer, once every file is indexed", () => {
    const calendar = held("calendar", { servers: ["calendar"] });
    expect(folderPair([calendar, held("wa-http"), held("cal-mcp", { servers: ["calendar"] })])).toEqual({
      a: "served:calendar",
      b: "served:cal-mcp",
    });
    // The first run that has a comparable one: a folder of several environments, one run each but two.
    expect(
      folderPair([
        held("aviary", { servers: ["aviary"] }),
        calendar,
        held("cal-mcp", { servers: ["calendar"] }),
      ]),
    ).toEqual({
      a: "served:calendar",
      b: "served:cal-mcp",
    });
    // Runs nothing tells apart (no server verifies them, no rows paired) are not a pair: the folder's pair is.
    const unported = (id: string) => held(id, { servers: [] });
    expect(folderPair([unported("x0"), unported("y0"), held("wa-http"), held("wa-mcp")])).toEqual({
      a: "served:wa-http",
      b: "served:wa-mcp",
    });
    // No run with a comparable one: the first with itself (B is the one to change).
    expect(folderPair([calendar, held("wa-http")])).toEqual({ a: "served:calendar", b: "served:calendar" });
    expect(folderPair([calendar, held("wa-http", { indexed: false })])).toBe("pending");
    // Rows still being verified: how many each paired is not counted whole yet.
    expect(folderPair([calendar, held("wa-http", { rewarded: 2 })])).toBe("pending");
    // Two runs paired with rows of their own task files, no server verifying either: each is its own B.
    const own = (id: string) => held(id, { servers: [], paired_inputs: `i-${id}`, paired_rows: 5 });
    expect(folderPair([own("abstention"), own("arc_agi")])).toEqual({
      a: "served:abstention",
      b: "served:abstention",
    });
    // No run to compare: a file with a problem, task rows only.
    expect(folderPair([held("csv", { problem: "a CSV" }), held("i1", { kind: "inputs" })])).toBeNull();
  });
});
