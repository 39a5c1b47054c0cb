import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTriageRun } from "../../scripts/gen-triage-run";
import { csvHeader, rowsCsv, rowsJsonl } from "../export/csv";
import { asRollout } from "../schemas/test-helpers";
import {
  type FilterClause,
  formatFilter,
  matchesFilter,
  parseFilter,
  RUN_ROW_COLUMNS,
  type RunRow,
  runRow,
  withTaskWide,
} from "./index";

const run = buildTriageRun();
const values: unknown[] = run.text
  .trim()
  .split("\n")
  .map((t) => JSON.parse(t));
// Rows for the rollouts only: the line built without response.output is an unreadable line.
// The run's rows carry the run-level cause (task_wide) as every front end lists them.
const rows = withTaskWide(run.intents.map((i) => runRow(i.line, asRollout(values[i.line - 1]))));

function parsed(text: string): readonly FilterClause[] {
  const p = parseFilter(text);
  if (!p.ok) throw new Error(p.error);
  return p.clauses;
}

function select(text: string): number[] {
  const clauses = parsed(text);
  return rows.filter((row) => matchesFilter(clauses, row, values[row.line - 1])).map((r) => r.line);
}

describe("runRow on the generated run", () => {
  it("carries each line's cause, agent, model and tokens as the generator wrote them", () => {
    expect(rows.map((r) => [r.cause, r.agent, r.model, r.total_tokens])).toEqual(
      run.intents.map((i) => [i.cause, i.agent, i.model, i.input_tokens + i.output_tokens]),
    );
  });
});

describe("filters", () => {
  it("parses every clause kind and formats back to the same clauses", () => {
    const text =
      'recorded:0 contract:0.5.. legacy:..1 field:agent_ref.name=hermes_agent field:category~"a b" flag:alias_guess cause:identity';
    const clauses = parsed(text);
    expect(clauses).toEqual([
      { kind: "range", field: "recorded", min: 0, max: 0 },
      { kind: "range", field: "contract", min: 0.5, max: null },
      { kind: "range", field: "legacy", min: null, max: 1 },
      { kind: "field", path: "agent_ref.name", op: "eq", value: "hermes_agent" },
      { kind: "field", path: "category", op: "contains", value: "a b" },
      { kind: "flag", name: "alias_guess" },
      { kind: "cause", cause: "identity" },
    ]);
    expect(parsed(formatFilter(clauses))).toEqual(clauses);
    expect(parsed("")).toEqual([]);
  });

  it("round-trips any field value through format and parse", () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom<"eq" | "contains">("eq", "contains"), (value, op) => {
        const clause: FilterClause = { kind: "field", path: "a.b", op, value };
        expect(parsed(formatFilter([clause]))).toEqual([clause]);
      }),
    );
  });

  it("names what is wrong with a bad clause", () => {
    for (const bad of [
      "reward",
      "contract:x",
      "contract:",
      "cause:nope",
      "field:=x",
      "field:a b",
      'field:a="x',
      "size:3",
    ]) {
      const p = parseFilter(bad);
      expect(p.ok, bad).toBe(false);
      if (!p.ok) expect(p.error.length).toBeGreaterThan(10);
    }
  });

  it("selects the lines each clause describes, counted independently from the generator", () => {
    const lines = (pred: (i: (typeof run.intents)[number]) => boolean) =>
      run.intents.filter(pred).map((i) => i.line);
    expect(select("cause:no_tool_call")).toEqual(lines((i) => i.cause === "no_tool_call"));
    expect(select("recorded:1")).toEqual(lines((i) => i.recorded === 1));
    expect(select("field:agent_ref.name=hermes_agent")).toEqual(lines((i) => i.agent === "hermes_agent"));
    expect(select("field:response.model~MODEL-B")).toEqual(lines((i) => i.model === "model-b"));
    expect(select("field:_ng_task_index=3 recorded:0..0")).toEqual(
      lines((i) => i.task === 3 && i.recorded === 0),
    );
    expect(select("flag:alias_guess")).toEqual(lines((i) => i.scenario === "aliases_no_map"));
  });

  it("a range needs a reward: unverified rows never match one", () => {
    const noData = run.intents.filter((i) => i.cause === "no_task_data").map((i) => i.line);
    for (const line of select("contract:..")) expect(noData).not.toContain(line);
  });
});

describe("CSV and JSONL of rows", () => {
  const row: RunRow = {
    ...rows[0]!,
    cause_sentence: '=HYPERLINK("x") said, "hi"\nnext',
    agent: "+1",
    flags: ["a", "b"],
  };

  it("quotes per RFC 4180 and escapes cells a spreadsheet would run as formulas", () => {
    const csv = rowsCsv([row]);
    expect(csv.startsWith(csvHeader())).toBe(true);
    expect(csvHeader()).toBe(`${RUN_ROW_COLUMNS.join(",")}\r\n`);
    expect(csv).toContain(`"'=HYPERLINK(""x"") said, ""hi""\nnext"`);
    expect(csv).toContain(`,"'+1",`);
    expect(csv).toContain(",a b,");
    expect(csv.endsWith("\r\n")).toBe(true);
  });

  it("writes numbers as numbers and null as an empty cell", () => {
    const line = rowsCsv([{ ...rows[0]!, contract: 0.5, legacy: null, error: null }]).split("\r\n")[1] ?? "";
    const cells = line.split(",");
    expect(cells[RUN_ROW_COLUMNS.indexOf("contract")]).toBe("0.5");
    expect(cells[RUN_ROW_COLUMNS.indexOf("legacy")]).toBe("");
  });

  it("JSONL keeps every column, in order", () => {
    const [first] = rowsJsonl([row]).split("\n");
    expect(Object.keys(JSON.parse(first ?? "{}"))).toEqual([...RUN_ROW_COLUMNS]);
  });
});
