import { describe, expect, it } from "vitest";
import { runMetrics } from "../metrics";
import { recordedFieldsHeading, summarizeRecordedFields, summarizeTriage } from "../triage";
import {
  escapeHtml,
  REPORT_CSP,
  type ReportData,
  type ReportRollout,
  type ReportRun,
  renderReport,
} from "./report";

/** Every tag of the document (text from the data is escaped, so it holds no "<"). */
function tags(html: string): string[] {
  return html.match(/<[^>]*>/g) ?? [];
}

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`;

function data(): ReportData {
  return {
    title: `run ${HOSTILE}`,
    filter: `field:agent_ref.name="${HOSTILE}"`,
    chosen: "1 rollout marked.",
    runs: [run(null, [rollout(7, null)])],
    folder_files: [],
    folder_hidden: null,
  };
}

function run(file: string | null, rollouts: ReportRollout[]): ReportRun {
  return {
    file,
    counts: { rollouts: 2, unreadable: 1 },
    triage: summarizeTriage([], "recorded"),
    recorded_fields: [],
    unverified: { counts: { contract: {}, legacy: {} }, rollouts: 2 },
    metrics: runMetrics([]),
    rollouts,
    // Its one unreadable line, in words from the file (model text can be anywhere in a line).
    unreadable_lines: [{ line: 4, reason: `invalid JSON near ${HOSTILE}` }],
    problem: null,
  };
}

function rollout(line: number, file: string | null): ReportRollout {
  return {
    line,
    file,
    task: "3",
    agent: HOSTILE,
    server: "workplace_assistant",
    recorded: 0,
    contract: 1,
    legacy: 0,
    cause: null,
    cause_sentence: null,
    recorded_fields: [],
    unverified: null,
    flags: [],
    outcome_policy: "contract",
    input: [{ role: "user", text: HOSTILE }],
    calls: [
      {
        index: 0,
        emitted: `mcp_${HOSTILE}`,
        provenance: "workplace_assistant / email_send",
        verifier_name: "email_send",
        status: "provenance",
        outcome: `output: ${HOSTILE}`,
      },
    ],
    transcript: [
      { kind: "message", role: "assistant", text: `**bold** ${HOSTILE}` },
      { kind: "call", name: "email_send", arguments: `{"to":"${HOSTILE}"}`, output: HOSTILE },
    ],
    omitted: { calls: 0, items: 0 },
  };
}

describe("renderReport", () => {
  it("escapes every text from the data: no markup of the file's survives", () => {
    const html = renderReport(data());
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    // Markup is only the report's own: no tag carries an event handler.
    expect(tags(html).filter((tag) => /\son[a-z]+=/i.test(tag))).toEqual([]);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&quot;&#39;&amp;");
  });

  it("declares a CSP that loads nothing and runs nothing, and references nothing outside the file", () => {
    const html = renderReport(data());
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(REPORT_CSP).toMatch(/^default-src 'none';/);
    expect(REPORT_CSP).not.toContain("script-src");
    expect(tags(html).filter((tag) => /\s(src|href|action|srcset|xlink:href)=/i.test(tag))).toEqual([]);
    expect(html).not.toMatch(/url\(/i);
  });

  it("is deterministic: the same data gives the same bytes", () => {
    expect(renderReport(data())).toBe(renderReport(data()));
  });

  it("shows the marked rollout's calls with their identity and outcome", () => {
    const html = renderReport(data());
    expect(html).toContain('data-testid="report-rollout" data-line="7"');
    expect(html).toContain("workplace_assistant / email_send");
    expect(html).toContain("<code>email_send</code>");
  });

  it("gives a zero's sentence, the flags, the reason it was not verified and whose replay the outcomes are, as text", () => {
    const zero = {
      ...rollout(7, null),
      cause: "tool_failed" as const,
      cause_sentence: `1 call named no tool of workplace_assistant, so Gym skipped it: ${HOSTILE}`,
      flags: ["alias_guess", "ambiguous"],
      outcome_policy: "legacy" as const,
      unverified: `no verifier: ${HOSTILE}`,
    };
    const html = renderReport({ ...data(), runs: [run(null, [zero])] });
    const section = html.split('data-line="7"')[1] ?? "";
    expect(section).not.toContain("the line records");
    // What the line records beside its reward, as text.
    const fields = [
      { key: "exception_type", value: `"${HOSTILE}"` },
      { key: "turn_count", value: "0" },
    ];
    const recorded = renderReport({ ...data(), runs: [run(null, [{ ...zero, recorded_fields: fields }])] });
    expect(recorded.split('data-line="7"')[1]).toContain(
      "<dt>the line records</dt><dd><code>exception_type</code> &quot;&lt;script&gt;",
    );
    expect(section).toContain(
      "<dd>Call rejected or no such tool: 1 call named no tool of workplace_assistant, so Gym skipped it: &lt;script&gt;",
    );
    expect(section).toContain("<dt>flags</dt><dd><code>alias_guess</code> <code>ambiguous</code></dd>");
    expect(section).toContain("<dt>not verified (contract)</dt><dd>no verifier: &lt;script&gt;");
    expect(section).toContain("<th>outcome (legacy replay)</th>");
    // Neither policy verified it: no replay ran, the outcomes are the recorded outputs.
    const unscored = { ...zero, line: 9, contract: null, legacy: null, outcome_policy: "contract" as const };
    const other = renderReport({ ...data(), runs: [run(null, [unscored])] });
    expect(other.split('data-line="9"')[1]).toContain("<th>outcome (as recorded)</th>");
  });

  it("names a zero's cause 'why zero' and a negative reward's 'why below zero'", () => {
    const zero = { ...rollout(7, null), cause: "wrong_end_state" as const };
    const negative = { ...zero, line: 8, recorded: -1, contract: -1, legacy: -1 };
    const html = renderReport({ ...data(), runs: [run(null, [zero, negative])] });
    const facts = (line: number) =>
      html.split(`data-line="${line}"`)[1]?.match(/<dt>(why[^<]*)<\/dt>/)?.[1] ?? "no fact";
    expect(facts(7)).toBe("why zero");
    expect(facts(8)).toBe("why below zero");
  });

  it("heads pass@k with the reward it was read in, and shows tokens as a table, not JSON", () => {
    const row = { agent: "a", task: "1", server: "s", model: null, usage: null };
    const rows = [
      { ...row, line: 1, recorded: 1, contract: 0, legacy: 1 },
      { ...row, line: 2, recorded: 0, contract: 0, legacy: 0 },
    ];
    const withMetrics = (metrics: ReportRun["metrics"]) =>
      renderReport({ ...data(), runs: [{ ...run(null, []), metrics }] });
    // A column of numbers is right-aligned, its head too.
    expect(withMetrics(runMetrics(rows, { reward: "contract" }))).toContain(
      '<th class="num">pass@k (contract)</th>',
    );
    const recorded = withMetrics(runMetrics(rows, { reward: "recorded" }));
    expect(recorded).toContain('<th class="num">pass@k (recorded)</th>');
    expect(recorded).toContain("No rollout reports its token usage (response.usage).");
    expect(recorded).not.toContain('"input_tokens"');
    const usage = {
      input_tokens: 1200,
      output_tokens: 300,
      total_tokens: 1500,
      cached_tokens: 0,
      reasoning_tokens: 0,
    };
    const used = withMetrics(runMetrics([{ ...row, line: 1, recorded: 1, contract: 0, legacy: 1, usage }]));
    expect(used).toContain('<td class="num">1,200</td><td class="num">300</td><td class="num">1,500</td>');
  });

  it("a folder's report: one section per rollouts file, each rollout labelled with its file", () => {
    const html = renderReport({
      ...data(),
      runs: [run("a/rollouts.jsonl", [rollout(2, "a/rollouts.jsonl")]), run(`b/${HOSTILE}.jsonl`, [])],
    });
    expect(html).toContain('data-testid="report-files"');
    expect(html.match(/data-testid="report-run"/g)).toHaveLength(2);
    expect(html.match(/data-testid="report-breakdown"/g)).toHaveLength(2);
    expect(html).toContain('<section data-testid="report-run" data-file="a/rollouts.jsonl">');
    expect(html).toContain('data-testid="report-rollout" data-file="a/rollouts.jsonl" data-line="2"');
    expect(html).toContain("<h3>a/rollouts.jsonl line 2</h3>");
    // Both files' lines counted in the header.
    expect(html).toContain("4 rollouts");
    expect(html).not.toContain("<script");
    expect(html).toContain("No other file in the folder.");
  });

  it("a folder's report names its other files, what each was read as and why, and its hidden entries, as text", () => {
    const html = renderReport({
      ...data(),
      runs: [run("a/rollouts.jsonl", []), run("b/rollouts.jsonl", [])],
      folder_files: [
        { path: "a/configs/a.yaml", role: "config", reason: "A Gym config: 1 agent.", chosen: false },
        { path: `notes ${HOSTILE}.txt`, role: "ignore", reason: `Not JSONL ${HOSTILE}`, chosen: false },
        { path: "b/data/example.jsonl", role: "inputs", reason: "Task rows.", chosen: true },
      ],
      folder_hidden: `left out as hidden: .hydra/, ${HOSTILE}`,
    });
    const other = html.split('data-testid="report-other-files"')[1]?.split("</table>")[0] ?? "";
    expect(other).toContain(
      "<td><code>a/configs/a.yaml</code></td><td>Gym config</td><td>A Gym config: 1 agent.</td>",
    );
    expect(other).toContain("<td>not recognised</td><td>Not JSONL &lt;script&gt;");
    expect(other).toContain("<td>task rows (inputs) (chosen)</td>");
    expect(html).toContain(
      '<p class="muted" data-testid="report-hidden">Left out as hidden: .hydra/, &lt;script&gt;',
    );
    expect(html).not.toContain("<script");
    expect(tags(html).filter((tag) => /\son[a-z]+=/i.test(tag))).toEqual([]);
  });

  it("counts the breakdown's own rollouts, as the page does under a filter, and says when nothing had a reward", () => {
    // 10 rollouts in the run, a filter keeps 2, neither recomputed under contract.
    const kept = [1, 2].map((line) => ({
      line,
      recorded: 0,
      contract: null,
      legacy: null,
      cause: null,
      what_if_map: null,
      text_call: false,
    }));
    const filtered: ReportRun = {
      ...run(null, []),
      counts: { rollouts: 10, unreadable: 0 },
      triage: summarizeTriage(kept, "contract"),
    };
    const html = renderReport({ ...data(), runs: [filtered] });
    expect(html).toContain("0 of 2 rollouts recompute to 0 under contract (0.0%; 2 not recomputed)");
    expect(html).toContain("<p>No rollout recomputes to 0 among those with a reward.</p>");
  });

  it("lists what Gym's verifier recorded on the zeros not verified here, its values as text", () => {
    const field = (value: string) => ({ recorded: 0, recorded_fields: [{ key: "verdict", value }] });
    const recorded = summarizeRecordedFields([
      field('"<img src=x onerror=alert(1)>"'),
      field('"<img src=x onerror=alert(1)>"'),
      { recorded: 1, recorded_fields: [{ key: "verdict", value: '"correct"' }] },
    ]);
    const withFields: ReportRun = { ...run(null, []), recorded_fields: [{ group: null, summary: recorded }] };
    const html = renderReport({ ...data(), runs: [withFields] });
    expect(html).toContain(escapeHtml(recordedFieldsHeading(recorded) ?? "missing"));
    expect(html).toContain("<td><code>verdict</code></td>");
    expect(html).toContain(`<td>${escapeHtml('"<img src=x onerror=alert(1)>" ×2')}</td>`);
    expect(html).not.toContain("<img");
    // The contract's zeros are not these: no such table in that view.
    const contract = renderReport({
      ...data(),
      runs: [{ ...withFields, triage: summarizeTriage([], "contract") }],
    });
    expect(contract).not.toContain("report-recorded");
  });

  it("under a filter, says what the breakdown covers and which clauses it leaves out, as the page does", () => {
    const html = renderReport({ ...data(), filter: "recorded:..0 is:fixed_by_map" });
    expect(html).toContain(
      '<p class="muted" data-testid="report-breakdown-scope">Breakdown of 0 of 2 rollouts (filter: recorded:..0 is:fixed_by_map); its is:fixed_by_map clause is left out here, so every count stays whole</p>',
    );
    expect(renderReport({ ...data(), filter: "" })).not.toContain("report-breakdown-scope");
  });

  it("lists each unreadable line with what it is, folded, and says how many more there are", () => {
    const html = renderReport(data());
    const section = /<details data-testid="report-unreadable">([\s\S]*?)<\/details>/.exec(html)?.[1] ?? "";
    expect(section).toContain("<summary>1 unreadable line: what each is</summary>");
    expect(section).toContain(`<td class="num">4</td><td>invalid JSON near &lt;script&gt;`);
    const many: ReportData = {
      ...data(),
      runs: [{ ...run(null, []), counts: { rollouts: 2, unreadable: 70 } }],
    };
    expect(renderReport(many)).toContain("and 69 more (the first 1 are listed)");
  });

  it("escapeHtml leaves plain text alone", () => {
    expect(escapeHtml("a b")).toBe("a b");
  });
});
