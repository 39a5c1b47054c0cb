import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTriageRun } from "../../scripts/gen-triage-run";
import { csvHeader, rowsCsv, rowsJsonl } from "../export/csv";
import { readLine } from "../folder";
import { parseJsonLine } from "../jsonl";
import { asRollout } from "../schemas/test-helpers";
import { recordedFieldsByVerifier, summarizeRecordedFields } from "../triage";
import { indexInputs, verifyBothPolicies } from "../verify";
import {
  evaluateFilter,
  type FilterClause,
  formatFilter,
  lineHolds,
  matchesFilter,
  parseFilter,
  RUN_ROW_COLUMNS,
  type RunRow,
  readRolloutFields,
  recordedFieldsScope,
  recordedValueClauses,
  rolloutRow,
  rolloutRowOf,
  runRow,
  verifierClause,
  withTaskWide,
  zeroClause,
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

describe("the row model", () => {
  it("reads a rollout's own fields once, the task id and environment falling back to its input row's", () => {
    const rollout = asRollout({
      response: { output: [] },
      reward: 0.5,
      _ng_task_index: 3,
      _ng_rollout_index: 1,
      agent_ref: { name: "agent_a" },
    });
    expect(readRolloutFields(rollout, { id: 7, environment_name: "workplace_assistant" })).toEqual({
      task_index: 3,
      rollout_index: 1,
      task_id: "7",
      agent: "agent_a",
      environment: "workplace_assistant",
      recorded: 0.5,
      key: "3:1",
      task: "3",
    });
    // Gym's indices are integers: anything else is no index (as pairing reads them), in every view.
    const odd = readRolloutFields(
      asRollout({ response: { output: [] }, _ng_task_index: 1.5, id: "t", reward: "1" }),
    );
    expect([odd.task_index, odd.task_id, odd.recorded, odd.key]).toEqual([null, "t", null, null]);
  });

  it("decides the task a rollout counts toward once, as Gym groups: _ng_task_index, then the paired row's", () => {
    const examples = join(import.meta.dirname, "../../fixtures/gym-examples/resources_servers");
    const lines = (file: string) =>
      readFileSync(join(examples, file), "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line): unknown => JSON.parse(line));
    const folder = (name: string, rollouts = "data/example_rollouts.jsonl") => {
      const index = indexInputs(lines(`${name}/data/example.jsonl`), "data/example.jsonl");
      return lines(`${name}/${rollouts}`).map((value, at) => {
        // Read as every front end reads a line (aviary's transitions included).
        const read = readLine(value);
        if (!read.ok) throw new Error(read.message);
        const rollout = read.rollout;
        const pairing = index.pair(rollout);
        return runRow(at + 1, rollout, {
          pairing,
          ...(pairing.ref === null ? {} : { input: pairing.ref }),
        });
      });
    };
    // structeval: Gym's index is the task; its task_id (the name Gym gives a trajectory's task) is read too.
    expect(folder("structeval").map((r) => [r.task, r.task_id])).toEqual([
      ["1", "000200"],
      ["4", "001800"],
      ["2", "001000"],
      ["0", "000500"],
      ["3", "001700"],
    ]);
    // code_gen: no index and no name, paired by equal input with a row of example.jsonl: that row is the task.
    const codeGen = folder("code_gen");
    expect(codeGen.map((r) => [r.paired_by, r.task])).toEqual(
      codeGen.map(() => ["input", expect.stringMatching(/^data\/example\.jsonl line [1-5]$/)]),
    );
    expect(new Set(codeGen.map((r) => r.task)).size).toBe(5);
    // A line without an index counts toward its paired materialized row's.
    const noIndex = asRollout({ response: { output: [] }, responses_create_params: { input: "q" } });
    expect(
      readRolloutFields(noIndex, { _ng_task_index: 4, _ng_rollout_index: 0 }, "m.jsonl line 9").task,
    ).toBe("4");
    // Nothing to go by (aviary's lines pair with no row): no task, never a guessed one.
    expect(folder("aviary").map((r) => [r.paired_by, r.task])).toEqual(Array(5).fill(["none", null]));
  });

  it("the list's row is the run row's, for every rollout of the generated run", () => {
    for (const intent of run.intents) {
      const value = asRollout(values[intent.line - 1]);
      const row = runRow(intent.line, value);
      expect(rolloutRowOf(row)).toEqual(rolloutRow(intent.line, value, verifyBothPolicies(value)));
      expect(Object.keys(rolloutRowOf(row)).some((key) => key === "cause" || key === "model")).toBe(false);
    }
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

  it("parses the page's clauses (agent, server, is, text) and formats them back", () => {
    const text = 'agent:hermes_agent server:workplace_assistant is:changed is:unverified text:"customer id"';
    const clauses = parsed(text);
    expect(clauses).toEqual([
      { kind: "agent", value: "hermes_agent" },
      { kind: "server", value: "workplace_assistant" },
      { kind: "is", state: "changed" },
      { kind: "is", state: "unverified" },
      { kind: "text", value: "customer id" },
    ]);
    expect(formatFilter(clauses)).toBe(text);
    for (const bad of ["is:zero", "agent:", "text:", 'server:"x'])
      expect(parseFilter(bad).ok, bad).toBe(false);
  });

  it("round-trips any agent, server or text value through format and parse", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.constantFrom<"agent" | "server" | "text">("agent", "server", "text"),
        (value, kind) => {
          const clause: FilterClause = { kind, value };
          expect(parsed(formatFilter([clause]))).toEqual([clause]);
        },
      ),
    );
  });

  it("round-trips a verifier: clause, any value, and refuses a key it cannot name", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((key) => /^[^\s"=]+$/.test(key)),
        fc.string(),
        (key, value) => {
          const clause: FilterClause = { kind: "verifier", key, value };
          expect(parsed(formatFilter([clause]))).toEqual([clause]);
        },
      ),
    );
    expect(parsed('verifier:hit=false verifier:reason="a b"')).toEqual([
      { kind: "verifier", key: "hit", value: "false" },
      { kind: "verifier", key: "reason", value: "a b" },
    ]);
    for (const bad of ["verifier:", "verifier:=x", "verifier:hit"])
      expect(parseFilter(bad).ok, bad).toBe(false);
    expect(verifierClause("two words", "1")).toBeNull();
    // A string reads as it is, another value as its JSON; a string that reads as another value keeps its
    // quotes, so the boolean and the string are two clauses.
    expect(verifierClause("reason", '"none"')).toEqual({ kind: "verifier", key: "reason", value: "none" });
    expect(verifierClause("hit", "false")).toEqual({ kind: "verifier", key: "hit", value: "false" });
    expect(verifierClause("hit", '"false"')).toEqual({ kind: "verifier", key: "hit", value: '"false"' });
    expect(verifierClause("n", '"NaN"')).toEqual({ kind: "verifier", key: "n", value: '"NaN"' });
    const hit = (value: string) => ({ ...rows[0]!, recorded: 0, recorded_fields: [{ key: "hit", value }] });
    const clause = (json: string) => [verifierClause("hit", json)!];
    expect(matchesFilter(clause("false"), hit("false"))).toBe(true);
    expect(matchesFilter(clause("false"), hit('"false"'))).toBe(false);
    expect(matchesFilter(clause('"false"'), hit('"false"'))).toBe(true);
    expect(parsed(formatFilter(clause('"false"')))).toEqual(clause('"false"'));
    expect(verifierClause("info", '{"a":1}')).toEqual({ kind: "verifier", key: "info", value: '{"a":1}' });
  });

  it("the recorded fields' counts follow the filter, but for what choosing a value adds", () => {
    const clauses = parsed(
      "agent:a recorded:..0 contract:..0 cause:identity verifier:hit=false field:response.model~gpt",
    );
    expect(formatFilter(recordedFieldsScope(clauses))).toBe("agent:a contract:..0 field:response.model~gpt");
  });

  it("agent, server and is clauses select the rows the generator and the rewards say", () => {
    const agentLines = run.intents.filter((i) => i.agent === "http_agent").map((i) => i.line);
    expect(agentLines.length).toBeGreaterThan(0);
    expect(select("agent:http_agent")).toEqual(agentLines);
    const servers = new Set(rows.map((r) => r.server));
    for (const server of servers) {
      if (server === null) continue;
      expect(select(`server:${server}`)).toEqual(rows.filter((r) => r.server === server).map((r) => r.line));
    }
    // is:changed and is:unverified read the contract reward against the recorded one, as the tiles count.
    const changed = rows.filter(
      (r) => r.recorded !== null && r.contract !== null && r.recorded !== r.contract,
    );
    expect(changed.length).toBeGreaterThan(0);
    expect(select("is:changed")).toEqual(changed.map((r) => r.line));
    const noData = run.intents.filter((i) => i.cause === "missing_task_data").map((i) => i.line);
    for (const line of noData) expect(select("is:unverified")).toContain(line);
    expect(select("is:unverified")).toEqual(rows.filter((r) => r.contract === null).map((r) => r.line));
    // is:fixed_by_map: the zeros a provenance map rescues, the generator's Hermes rollouts without a map.
    const aliases = run.intents.filter((i) => i.scenario === "aliases_no_map").map((i) => i.line);
    expect(aliases.length).toBeGreaterThan(0);
    expect(select("is:fixed_by_map")).toEqual(aliases);
    expect(rows.filter((r) => aliases.includes(r.line)).map((r) => r.what_if_map)).toEqual(
      aliases.map(() => "hermes-legacy"),
    );
  });

  it("a text clause reads the raw line, folding ASCII case only", () => {
    const lines = run.text.trim().split("\n");
    const clauses = parsed("text:HTTP_AGENT");
    const kept = rows.filter((row) => matchesFilter(clauses, row, values[row.line - 1], lines[row.line - 1]));
    expect(kept.map((r) => r.line)).toEqual(
      rows.filter((r) => (lines[r.line - 1] ?? "").includes("http_agent")).map((r) => r.line),
    );
    expect(lineHolds("Straße", "STRASSE")).toBe(false);
    expect(lineHolds("Customer ID", "customer id")).toBe(true);
    // Without the line a text clause is not decided, so a fully known row never matches it by accident.
    expect(matchesFilter(clauses, rows[0]!, values[0])).toBe(false);
  });

  it("a clause that reads what is not known yet is undecided, never false", () => {
    const partial = { agent: "a", server: "s", recorded: 0 };
    expect(evaluateFilter(parsed("agent:a recorded:0"), partial)).toBe(true);
    expect(evaluateFilter(parsed("agent:b is:changed"), partial)).toBe(false);
    expect(evaluateFilter(parsed("agent:a is:changed"), partial)).toBeUndefined();
    expect(evaluateFilter(parsed("cause:identity"), partial)).toBeUndefined();
    expect(evaluateFilter(parsed("flag:ambiguous"), { ...partial, highlights: ["ambiguous"] })).toBe(true);
    expect(evaluateFilter(parsed("flag:alias_guess"), { ...partial, highlights: [] })).toBeUndefined();
    expect(evaluateFilter(parsed("text:x"), partial, { text: () => true })).toBe(true);
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
    const noData = run.intents.filter((i) => i.cause === "missing_task_data").map((i) => i.line);
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

  it("JSONL keeps every column, in order, then the recorded fields CSV has no cell for", () => {
    const [first] = rowsJsonl([row]).split("\n");
    expect(Object.keys(JSON.parse(first ?? "{}"))).toEqual([...RUN_ROW_COLUMNS, "recorded_fields"]);
  });
});

describe("a recorded field's value and its verifier: clause", () => {
  it("with several verifying servers, a value's clauses keep exactly its group's zeros", () => {
    const at = (line: number, server: string | null, recorded: number, fields: Record<string, string>) => ({
      ...rows[0]!,
      line,
      server,
      agent: "a",
      recorded,
      recorded_fields: Object.entries(fields).map(([key, value]) => ({ key, value })),
    });
    const mixed = [
      at(1, "foo_env", 0, { failure_reason: '"x"' }),
      at(2, "foo_env", 0, { failure_reason: '"x"' }),
      at(3, null, 0, { failure_reason: '"x"' }),
      at(4, null, 0, { failure_reason: '"x"' }),
      at(5, null, 1, { failure_reason: '"y"' }),
      // A group with nothing to show still makes the run one of several.
      at(6, "quiet", 0, { failure_reason: '"x"' }),
      at(7, "quiet", 1, { failure_reason: '"x"' }),
      at(8, null, 0, { hit: "false" }),
      at(9, null, 0, { hit: '"false"' }),
      at(10, null, 0, { hit: "false" }),
    ];
    const groups = recordedFieldsByVerifier(mixed);
    expect(groups.length).toBeGreaterThan(1);
    let checked = 0;
    for (const { group, summary } of groups)
      for (const field of summary.fields)
        for (const value of field.zeros) {
          const chosen = recordedValueClauses(field.key, value.value, group);
          expect(chosen).not.toBeNull();
          const clauses = [zeroClause("recorded"), chosen!.value, ...(chosen!.group ? [chosen!.group] : [])];
          expect(
            mixed.filter((row) => matchesFilter(clauses, row)).length,
            `${group} ${field.key}=${value.value}`,
          ).toBe(value.count);
          checked++;
        }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it("the clause keeps exactly the zeros the value is counted on, in every Gym example run", () => {
    const servers = join(__dirname, "../../fixtures/gym-examples/resources_servers");
    let checked = 0;
    for (const server of readdirSync(servers)) {
      const file = join(servers, server, "data/example_rollouts.jsonl");
      if (!existsSync(file)) continue;
      const runRows = readFileSync(file, "utf8")
        .split("\n")
        .flatMap((text, i) => {
          const parsed = parseJsonLine(text);
          const read = parsed.ok ? readLine(parsed.value) : null;
          return read?.ok ? [runRow(i + 1, read.rollout)] : [];
        });
      const summary = summarizeRecordedFields(runRows);
      for (const field of summary.fields)
        for (const value of field.zeros) {
          const clause = verifierClause(field.key, value.value);
          expect(clause, `${server} ${field.key}`).not.toBeNull();
          const kept = runRows.filter((row) => matchesFilter([zeroClause("recorded"), clause!], row));
          expect(kept.length, `${server} ${field.key}=${value.value}`).toBe(value.count);
          checked++;
        }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
