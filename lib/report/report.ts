/**
 * A report to share: one self-contained HTML file (no network, no script, a strict CSP) with a run's why-zero
 * breakdown, its metrics and the marked rollouts' calls and transcripts. A pure function from typed data to a
 * string, so `cli report` and the page's download give the same bytes for the same input; every text from
 * the data goes through `escapeHtml` (model text is never HTML), and nothing in it depends on the clock.
 */
import { FILE_ROLE_LABEL, type FileRole } from "../folder";
import type { Policy } from "../identity/types";
import { meanRewardsText, passAtKText, passScopeText, type RewardSource, type RunMetrics } from "../metrics";
import { displayName } from "../names";
import {
  breakdownScopeText,
  formatCount,
  type LineCounts,
  lineCountsText,
  parseFilter,
  type UnverifiedByPolicy,
  unverifiedText,
  zeroShareText,
} from "../run";
import {
  AGENT_CAUSES,
  addTriages,
  causeCount,
  fixedByMapText,
  moreFieldsText,
  namedGroups,
  type RecordedField,
  type RecordedFieldsGroup,
  type RecordedFieldsSummary,
  type RunTriage,
  recordedFieldsHeading,
  reproducedText,
  textCallsText,
  triageHeading,
  type VerifierGroup,
  valueCountsText,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
  type ZeroCause,
} from "../triage";

/** The page's policy: nothing loads, nothing runs; only the inline style sheet and style attributes apply. */
export const REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export interface ReportCall {
  readonly index: number;
  readonly emitted: string;
  /** `server / tool` of the call's provenance entry, or null without one. */
  readonly provenance: string | null;
  readonly verifier_name: string;
  readonly status: string;
  /** What the call did: the verifier's record of it (e.g. "error: ..."), else its output, else "no output". */
  readonly outcome: string;
}

export type ReportItem =
  | { readonly kind: "message"; readonly role: string; readonly text: string }
  | { readonly kind: "reasoning"; readonly text: string }
  | {
      readonly kind: "call";
      readonly name: string;
      readonly arguments: string;
      readonly output: string | null;
    }
  | { readonly kind: "output"; readonly output: string }
  | { readonly kind: "other"; readonly type: string; readonly json: string };

export interface ReportRollout {
  readonly line: number;
  /** The file it came from (relative to a folder), or null for a single file. */
  readonly file: string | null;
  readonly task: string | null;
  readonly agent: string | null;
  readonly server: string | null;
  readonly recorded: number | null;
  readonly contract: number | null;
  readonly legacy: number | null;
  readonly cause: ZeroCause | null;
  /** The cause's sentence (lib/triage): the why the app shows, e.g. what a provenance map would score. */
  readonly cause_sentence: string | null;
  /** What the line records beside its reward, for a cause read from the line (lib/triage recordedFieldsFor). */
  readonly recorded_fields: readonly RecordedField[];
  /** Why no reward was recomputed under the contract policy (lib/verify's reason), or null. */
  readonly unverified: string | null;
  /** The calls' flags and highlights under the contract policy (lib/run RunRow.flags). */
  readonly flags: readonly string[];
  /** Whose replay the calls' outcomes are (lib/triage evidencePolicy), as the app's badges. */
  readonly outcome_policy: Policy;
  readonly input: readonly { readonly role: string; readonly text: string }[];
  readonly calls: readonly ReportCall[];
  readonly transcript: readonly ReportItem[];
  /** Calls and transcript items left out past REPORT_MAX_ITEMS. */
  readonly omitted: { readonly calls: number; readonly items: number };
}

/** One rollouts file of the report: its counts, breakdown and metrics, and its rollouts shown in full. */
export interface ReportRun {
  /** The file, relative to the folder; null for the report of a single file. */
  readonly file: string | null;
  readonly counts: LineCounts;
  readonly triage: RunTriage;
  /** What Gym's verifier wrote on the zeros not verified here (shown with the recorded reward's zeros). */
  readonly recorded_fields: readonly RecordedFieldsGroup[];
  /** The rollouts the breakdown covers that were not verified here, by reason (lib/run unverifiedCounts). */
  readonly unverified: { readonly counts: UnverifiedByPolicy; readonly rollouts: number };
  readonly metrics: RunMetrics;
  /** In line order, each labelled with `file`. */
  readonly rollouts: readonly ReportRollout[];
  /** Its first REPORT_UNREADABLE_MAX unreadable lines, in line order, with what each is (as the page lists them). */
  readonly unreadable_lines: readonly UnreadableLine[];
  /** For a file without one rollout: what it is instead (empty, UTF-16, damaged), the page's banner. */
  readonly problem: string | null;
}

/** A line that is not a rollout: its number and what it is instead (lib/folder's words, the page's). */
export interface UnreadableLine {
  readonly line: number;
  readonly reason: string;
}

/** A file of a reported folder that is not a rollouts file, with what it was read as and why. */
export interface ReportFolderFile {
  readonly path: string;
  readonly role: Exclude<FileRole, "rollouts">;
  /** lib/folder's sentence: what in the file decided its role (the page's folder panel, the CLI's stderr). */
  readonly reason: string;
  /** The user chose the role (the page's role select, the CLI's --role). */
  readonly chosen: boolean;
}

export interface ReportData {
  /** What the report is of: the file or folder name. */
  readonly title: string;
  /** The filter the metrics and the marked rollouts were chosen with ("" for none). */
  readonly filter: string;
  /** One file's run, or every rollouts file of a folder in path order (each its own breakdown and metrics). */
  readonly runs: readonly ReportRun[];
  /**
   * One sentence on how the rollouts were chosen: "3 rollouts marked.", "The first 20 of the 31 rollouts
   * in the run that scored 0 or below in the recorded reward (mark rollouts to choose others)."
   */
  readonly chosen: string;
  /**
   * A folder's other files (configs, task rows, metrics, files not recognised), in path order, and its
   * hidden entries' sentence (lib/folder hiddenText): what the report leaves out is named. Empty and null
   * for a file's report.
   */
  readonly folder_files: readonly ReportFolderFile[];
  /**
   * A folder's answer over all its rows, unfiltered (the page's Whole folder, `cli triage DIR`): its means and
   * pass@k (tasks named by their file) and what Gym's verifiers wrote on the zeros not verified here. Null for
   * one file, or under a filter (a filter is a file's).
   */
  readonly folder_answer?: {
    readonly metrics: Omit<RunMetrics, "by_task">;
    readonly recorded_fields: readonly RecordedFieldsGroup[];
    /** Its rows not verified here, by reason (lib/run unverifiedCounts), and its breakdown (reproduced). */
    readonly unverified: UnverifiedByPolicy;
    readonly triage: RunTriage;
  } | null;
  readonly folder_hidden: string | null;
}

/** Unreadable lines named per file, with what each is; the count says how many more there are. */
export const REPORT_UNREADABLE_MAX = 50;

/** Calls and transcript items shown per rollout: a 100k-call rollout stays a file a browser opens. */
export const REPORT_MAX_ITEMS = 2000;
/** Characters of a call's outcome shown in the calls table (the whole output is in the transcript). */
export const REPORT_OUTCOME_CHARS = 200;

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text as HTML text or attribute value: every markup character escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A name shown truthfully (invisible, bidi and look-alike characters marked: lib/names), escaped. */
function name(text: string): string {
  return escapeHtml(displayName(text));
}

const REWARD_DECIMALS = 4;

function reward(value: number | null): string {
  if (value === null) return "—";
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toFixed(REWARD_DECIMALS)));
}

function share(n: number, total: number): number {
  return total === 0 ? 0 : (100 * n) / total;
}

function cell(text: string, className?: string): string {
  return className ? `<td class="${className}">${text}</td>` : `<td>${text}</td>`;
}

function table(head: readonly string[], rows: readonly string[][], testid?: string): string {
  // A column of numbers is right-aligned, its head too (the first row's cells say which columns are).
  const numeric = (i: number) => rows[0]?.[i]?.startsWith('<td class="num"') === true;
  const th = head.map((h, i) => (numeric(i) ? `<th class="num">${h}</th>` : `<th>${h}</th>`)).join("");
  const body = rows.map((r) => `<tr>${r.join("")}</tr>`).join("\n");
  return `<table${testid ? ` data-testid="${testid}"` : ""}><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** A heading at `level` (a folder's runs sit one level deeper, under their file's heading). */
function heading(level: number, text: string): string {
  return `<h${level}>${text}</h${level}>`;
}

/** Under a filter, what the breakdown covers and which clauses it leaves out, as the page's panel says it. */
function scope(run: ReportRun, filter: string): string {
  const parsed = parseFilter(filter);
  if (!parsed.ok || parsed.clauses.length === 0) return "";
  const text = breakdownScopeText(filter, parsed.clauses, run.triage.total, run.counts.rollouts);
  return `<p class="muted" data-testid="report-breakdown-scope">${escapeHtml(text)}</p>\n`;
}

/**
 * The breakdown's causes over `total` rollouts as a table, as the page's panels list them: each cause with
 * zeros, then drift, counted apart over the whole run; nothing when no cause has a rollout.
 */
function causeTable(triage: Pick<RunTriage, "counts" | "drifted">, total: number, testid: string): string {
  const causes = [...AGENT_CAUSES, "drift" as const];
  const rows = causes
    .filter((cause) => causeCount(triage, cause) > 0)
    .map((cause) => {
      const n = causeCount(triage, cause);
      const pct = share(n, total);
      return [
        cell(
          `<strong>${escapeHtml(ZERO_CAUSE_LABELS[cause])}${cause === "drift" ? " (counted apart, over the whole run)" : ""}</strong><br><span class="muted">${escapeHtml(ZERO_CAUSE_HINTS[cause])}</span>`,
        ),
        cell(String(n), "num"),
        cell(`${pct.toFixed(1)}%`, "num"),
        cell(`<span class="bar" style="width:${pct.toFixed(1)}%"></span>`, "barcell"),
      ];
    });
  return rows.length === 0 ? "" : table(["cause", "rollouts", "share", ""], rows, testid);
}

function breakdown(run: ReportRun, level: number, filter: string): string {
  const { triage } = run;
  // The breakdown's own rollouts (a filter narrows it), as the page's panel and `cli triage` count them.
  const counts = { rollouts: triage.total, unreadable: run.counts.unreadable };
  return `<section data-testid="report-breakdown">${heading(level, "Why zero")}
${run.problem === null ? "" : `<p class="error" data-testid="report-problem">${escapeHtml(run.problem)}</p>\n`}${scope(run, filter)}<p data-testid="report-zero">${escapeHtml(zeroShareText(triage.zero, counts, triage.view, triage.negative, triage.total - triage.scored))}</p>
${notVerified(run)}${triage.zero === 0 ? `<p>No rollout ${triage.view === "recorded" ? "recorded" : "recomputes to"} 0${triage.scored < triage.total ? " among those with a reward" : ""}.</p>` : ""}${causeTable(triage, counts.rollouts, "report-causes")}
${breakdownNotes(triage)}${triage.view === "recorded" ? recordedFieldsTables(run.recorded_fields) : ""}<p data-testid="report-reproduced">${escapeHtml(reproducedText(triage))}</p>
${unreadableLines(run)}</section>`;
}

/** Each unreadable line with what it is (a damaged gzip's damage among them), folded: a share reads why too. */
function unreadableLines(run: ReportRun): string {
  const total = run.counts.unreadable;
  if (total === 0 || run.unreadable_lines.length === 0) return "";
  const shown = run.unreadable_lines;
  const more = total - shown.length;
  const rows = shown.map((u) => [cell(String(u.line), "num"), cell(escapeHtml(u.reason))]);
  return `<details data-testid="report-unreadable"><summary>${total} unreadable ${total === 1 ? "line" : "lines"}: what each is</summary>
${table(["line", "what it is"], rows)}${more > 0 ? `\n<p class="muted">and ${more} more (the first ${shown.length} are listed)</p>` : ""}
</details>
`;
}

/** One sentence as a paragraph, or nothing without one. */
function note(testid: string, text: string | null): string {
  return text === null ? "" : `<p data-testid="${testid}">${escapeHtml(text)}</p>\n`;
}

/**
 * The zeros a provenance map rescues (lib/triage fixedByMapText) and those that wrote their call as text
 * (textCallsText), as the page says them under the breakdown.
 */
function breakdownNotes(triage: RunTriage): string {
  return `${note("report-fixed-by-map", fixedByMapText(triage))}${note("report-text-calls", textCallsText(triage))}`;
}

/** Where no port verifies the zeros: what Gym's verifier wrote on them, per verifier, as the page lists it. */
function recordedFieldsTables(groups: readonly RecordedFieldsGroup[]): string {
  return namedGroups(groups)
    .map(({ group, file, summary }) => recordedFieldsTable(summary, group, file))
    .join("");
}

function recordedFieldsTable(
  summary: RecordedFieldsSummary,
  group: VerifierGroup | undefined,
  file?: string,
): string {
  const title = recordedFieldsHeading(summary, group, file);
  if (title === null) return "";
  const rows = summary.fields.map((field) => [
    cell(`<code>${escapeHtml(field.key)}</code>`),
    cell(escapeHtml(valueCountsText(field.zeros))),
    cell(escapeHtml(valueCountsText(field.passes, field.passesOther))),
  ]);
  const moreText = moreFieldsText(summary);
  const more = moreText === null ? "" : `<p class="muted">${escapeHtml(moreText)}.</p>`;
  return `<p data-testid="report-recorded-heading">${escapeHtml(title)}</p>
${table(["field", "on the zeros", "above 0"], rows, "report-recorded")}${more}
`;
}

const SOURCES: readonly RewardSource[] = ["recorded", "contract", "legacy"];

/** The run's token usage as the model reported it (response.usage), or that none of its rollouts did. */
function tokens(usage: RunMetrics["usage"]): string {
  if (usage.rollouts === 0) return "<p>No rollout reports its token usage (response.usage).</p>";
  return table(
    ["rollouts reporting usage", "input", "output", "total", "cached", "reasoning", "mean total per rollout"],
    [
      [
        cell(formatCount(usage.rollouts), "num"),
        cell(formatCount(usage.input_tokens), "num"),
        cell(formatCount(usage.output_tokens), "num"),
        cell(formatCount(usage.total_tokens), "num"),
        cell(formatCount(usage.cached_tokens), "num"),
        cell(formatCount(usage.reasoning_tokens), "num"),
        cell(
          usage.mean_total_tokens === null ? "—" : formatCount(Math.round(usage.mean_total_tokens)),
          "num",
        ),
      ],
    ],
  );
}

function metrics(run: ReportRun, filter: string, level: number): string {
  const m = run.metrics;
  const means = table(
    ["", ...SOURCES],
    [[cell("mean reward"), ...SOURCES.map((s) => cell(reward(m.mean[s]), "num"))]],
  );
  const passK = table(
    // The reward pass@k was read in (the run's choice, the inspector's), not always contract.
    ["k", `pass@k (${m.reward})`, "tasks", "left out (fewer than k)"],
    m.pass_at_k.map((p) => [
      cell(String(p.k), "num"),
      cell(reward(p.value), "num"),
      cell(String(p.tasks), "num"),
      cell(String(p.skipped), "num"),
    ]),
  );
  const groups = (title: string, stats: RunMetrics["by_agent"]) =>
    stats.length === 0
      ? ""
      : `${heading(level + 1, `By ${title}`)}${table(
          [title, "rollouts", ...SOURCES.map((s) => `mean ${s}`), "recorded = recomputed", "differ"],
          stats.map((g) => [
            cell(g.key === null ? '<span class="muted">none</span>' : name(g.key)),
            cell(String(g.n), "num"),
            ...SOURCES.map((s) => cell(reward(g.mean[s]), "num")),
            cell(String(g.recorded_vs_recomputed.equal), "num"),
            cell(String(g.recorded_vs_recomputed.differ), "num"),
          ]),
        )}`;
  const change = m.policy_change;
  const usage = m.usage;
  return `<section data-testid="report-metrics">${heading(level, "Metrics")}
<p>${escapeHtml(`${formatCount(m.rollouts)} rollouts${filter === "" ? "" : " kept by the filter"}`)}</p>
${means}
${heading(level + 1, "pass@k")}${passK}
<p class="muted" data-testid="report-pass-scope">${escapeHtml(`pass@k counts tasks; ${passScopeText(m)}.`)}</p>
${heading(level + 1, "Contract vs legacy")}
<p>${change.gained.length} gained under contract, ${change.lost.length} lost, ${change.same} the same, ${change.incomparable} not comparable; mean change ${reward(change.mean_delta)}.</p>
${groups("agent", m.by_agent)}${groups("server", m.by_server)}
${heading(level + 1, "Tokens")}${tokens(usage)}
</section>`;
}

/** Every run's counts added up (the header's line). */
function totalCounts(runs: readonly ReportRun[]): LineCounts {
  return runs.reduce(
    (sum, run) => ({
      rollouts: sum.rollouts + run.counts.rollouts,
      unreadable: sum.unreadable + run.counts.unreadable,
    }),
    { rollouts: 0, unreadable: 0 },
  );
}

/** A sentence on the rollouts not verified under the reward's policy, with their reasons, or nothing. */
function notVerified(run: ReportRun): string {
  const text = unverifiedText(run.unverified.counts, run.unverified.rollouts, run.triage.view);
  return text === null ? "" : `<p data-testid="report-unverified">${escapeHtml(text)}.</p>\n`;
}

/**
 * The runs: a single file's breakdown and metrics as the report's own sections; a folder's, one section per
 * rollouts file under its path, after a table of the files.
 */
function runs(data: ReportData): string {
  const [only] = data.runs;
  if (data.runs.length === 1 && only !== undefined && only.file === null)
    return `${breakdown(only, 2, data.filter)}\n${metrics(only, data.filter, 2)}`;
  const files = table(
    ["rollouts file", "rollouts", "unreadable lines", "zeros"],
    data.runs.map((run) => [
      cell(`<code>${name(run.file ?? "")}</code>`),
      cell(String(run.counts.rollouts), "num"),
      cell(String(run.counts.unreadable), "num"),
      cell(String(run.triage.zero), "num"),
    ]),
    "report-files",
  );
  const each = data.runs.map(
    (run) =>
      `<section data-testid="report-run" data-file="${escapeHtml(run.file ?? "")}"><h2><code>${name(run.file ?? "")}</code></h2>
${breakdown(run, 3, data.filter)}
${metrics(run, data.filter, 3)}
</section>`,
  );
  return `<section data-testid="report-folder"><h2>Rollouts files</h2>
${wholeFolder(data.runs, data.folder_answer ?? null)}${files}
${otherFiles(data)}</section>
${each.join("\n")}`;
}

/** The folder's files that are not rollouts, and its hidden entries: the folder as the page lists it. */
function otherFiles(data: ReportData): string {
  const rows = data.folder_files.map((file) => [
    cell(`<code>${name(file.path)}</code>`),
    cell(escapeHtml(`${FILE_ROLE_LABEL[file.role]}${file.chosen ? " (chosen)" : ""}`)),
    cell(escapeHtml(file.reason)),
  ]);
  const listed =
    rows.length === 0
      ? `<p class="muted">No other file in the folder.</p>\n`
      : `<h3>Other files in the folder</h3>\n${table(["file", "read as", "why"], rows, "report-other-files")}\n`;
  const hidden =
    data.folder_hidden === null
      ? ""
      : `<p class="muted" data-testid="report-hidden">${escapeHtml(`${data.folder_hidden.charAt(0).toUpperCase()}${data.folder_hidden.slice(1)}.`)}</p>\n`;
  return `${listed}${hidden}`;
}

/**
 * A folder's answer over every file, first, as the page's "Whole folder" and `cli triage DIR` lead with it:
 * the zeros' share, per cause, and the ones a provenance map rescues, added up from each file's breakdown
 * (each file's counts are its own rows', so the sums are the folder's); unfiltered, what Gym's verifiers wrote
 * on the zeros and the means and pass@k over all the folder's rows (`answer`).
 */
function wholeFolder(
  all: readonly ReportRun[],
  answer: NonNullable<ReportData["folder_answer"]> | null,
): string {
  const folder = addTriages(all.map((run) => run.triage));
  const headline = zeroShareText(
    folder.zero,
    { rollouts: folder.total, unreadable: totalCounts(all).unreadable },
    all[0]?.triage.view ?? "recorded",
    folder.negative,
    folder.total - folder.scored,
  );
  const causes = causeTable(folder, folder.total, "report-whole-folder-causes");
  const recorded =
    answer === null || all[0]?.triage.view !== "recorded" ? "" : recordedFieldsTables(answer.recorded_fields);
  const notVerified =
    answer === null ? null : unverifiedText(answer.unverified, answer.triage.total, answer.triage.view);
  const reproduced = answer === null ? null : reproducedText(answer.triage);
  const means = answer === null ? null : `${meanRewardsText(answer.metrics)}; ${passAtKText(answer.metrics)}`;
  return `<p data-testid="report-whole-folder"><strong>Whole folder:</strong> ${escapeHtml(headline)}</p>
${note("report-whole-folder-not-verified", notVerified)}${causes === "" ? "" : `${causes}\n`}${note("report-whole-folder-fixed", fixedByMapText(folder))}${note("report-whole-folder-text-calls", textCallsText(folder))}${recorded}${note("report-whole-folder-reproduced", reproduced)}${note("report-whole-folder-means", means)}`;
}

function rolloutSection(r: ReportRollout): string {
  const title = `${r.file === null ? "" : `${r.file} `}line ${r.line}`;
  const facts = [
    ["task", r.task === null ? "—" : name(r.task)],
    ["agent", r.agent === null ? "—" : name(r.agent)],
    ["verifying server", r.server === null ? "—" : name(r.server)],
    ["recorded", reward(r.recorded)],
    ["contract", reward(r.contract)],
    ["legacy", reward(r.legacy)],
    r.cause === null
      ? ["why zero", "—"]
      : [
          triageHeading(r).toLowerCase(),
          `${escapeHtml(ZERO_CAUSE_LABELS[r.cause])}${r.cause_sentence === null ? "" : `: ${escapeHtml(r.cause_sentence)}`}`,
        ],
    ...(r.recorded_fields.length === 0
      ? []
      : [
          [
            "the line records",
            r.recorded_fields
              .map((f) => `<code>${escapeHtml(f.key)}</code> ${escapeHtml(f.value)}`)
              .join(" · "),
          ],
        ]),
    ...(r.unverified === null ? [] : [["not verified (contract)", escapeHtml(r.unverified)]]),
    ...(r.flags.length === 0
      ? []
      : [["flags", r.flags.map((f) => `<code>${escapeHtml(f)}</code>`).join(" ")]]),
  ]
    .map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`)
    .join("");
  const calls =
    r.calls.length === 0
      ? "<p>No tool call.</p>"
      : table(
          [
            "#",
            "emitted name",
            "provenance",
            "verifier name",
            "status",
            // No replay ran for a rollout neither policy verified: its outcomes are the recorded outputs.
            r[r.outcome_policy] === null ? "outcome (as recorded)" : `outcome (${r.outcome_policy} replay)`,
          ],
          r.calls.map((c) => [
            cell(String(c.index), "num"),
            cell(`<code>${name(c.emitted)}</code>`),
            cell(
              c.provenance === null
                ? '<span class="muted">none</span>'
                : `<code>${name(c.provenance)}</code>`,
            ),
            cell(`<code>${name(c.verifier_name)}</code>`),
            cell(escapeHtml(c.status)),
            cell(escapeHtml(c.outcome)),
          ]),
          "report-calls",
        );
  const input = r.input
    .map(
      (m) =>
        `<div class="msg"><div class="role">${escapeHtml(m.role)} (prompt)</div><pre>${escapeHtml(m.text)}</pre></div>`,
    )
    .join("\n");
  const items = r.transcript.map((item) => {
    switch (item.kind) {
      case "message":
        return `<div class="msg"><div class="role">${escapeHtml(item.role)}</div><pre>${escapeHtml(item.text)}</pre></div>`;
      case "reasoning":
        return `<div class="msg reasoning"><div class="role">reasoning</div><pre>${escapeHtml(item.text)}</pre></div>`;
      case "call":
        return `<div class="msg call"><div class="role">call <code>${name(item.name)}</code></div><pre>${escapeHtml(item.arguments)}</pre>${
          item.output === null ? "" : `<div class="role">output</div><pre>${escapeHtml(item.output)}</pre>`
        }</div>`;
      case "output":
        return `<div class="msg"><div class="role">unpaired output</div><pre>${escapeHtml(item.output)}</pre></div>`;
      case "other":
        return `<div class="msg"><div class="role">${escapeHtml(item.type)}</div><pre>${escapeHtml(item.json)}</pre></div>`;
    }
    return "";
  });
  const omitted =
    r.omitted.calls + r.omitted.items === 0
      ? ""
      : `<p class="muted">${r.omitted.calls} more calls and ${r.omitted.items} more transcript items are not in this report (at most ${REPORT_MAX_ITEMS} of each).</p>`;
  const file = r.file === null ? "" : ` data-file="${escapeHtml(r.file)}"`;
  return `<article data-testid="report-rollout"${file} data-line="${r.line}"><h3>${escapeHtml(title)}</h3>
<dl>${facts}</dl>
<h4>Calls</h4>
${calls}
<details open><summary>Transcript</summary>
${input}
${items.join("\n")}
</details>
${omitted}</article>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1c1f24;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d7dbe0}h3{font-size:15px;margin:18px 0 6px}h4{margin:12px 0 4px}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border-bottom:1px solid #e4e7eb;padding:4px 8px;text-align:left;vertical-align:top}
td:not(.num){overflow-wrap:anywhere}th.num,td.num{text-align:right;font-variant-numeric:tabular-nums}td.barcell{width:30%}.bar{display:block;height:10px;background:#c2410c;border-radius:2px}
.muted{color:#667085}code{font:12px ui-monospace,monospace;overflow-wrap:anywhere}pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:2px 0 8px;font:12px/1.4 ui-monospace,monospace;background:#f6f7f9;padding:6px 8px;border-radius:4px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}dt{color:#667085}dd{margin:0;min-width:0;overflow-wrap:anywhere}
.msg{margin:6px 0}.role{font-size:12px;color:#667085}article{border:1px solid #d7dbe0;border-radius:6px;padding:4px 14px 10px;margin:14px 0}
@media (prefers-color-scheme:dark){body{background:#15171a;color:#e6e8eb}pre{background:#1f2227}th,td{border-color:#2c3036}h2,article{border-color:#2c3036}}`;

/** The report as one HTML document. */
export function renderReport(data: ReportData): string {
  const filter =
    data.filter === "" ? "none" : `<code data-testid="report-filter">${escapeHtml(data.filter)}</code>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rollout report: ${escapeHtml(data.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>Rollout report</h1>
<p><strong>${escapeHtml(data.title)}</strong> · ${escapeHtml(lineCountsText(totalCounts(data.runs)))} · filter: ${filter}</p>
<p class="muted">Made by Rollout Inspector, which recomputes rewards with its ports of Gym's verifiers, where it has one, under the contract policy (follow provenance) and the legacy one: each run says how many rollouts it could not verify.</p>
</header>
${runs(data)}
<section data-testid="report-rollouts"><h2>Rollouts in full</h2>
<p>${escapeHtml(data.chosen)}</p>
${data.runs.flatMap((run) => run.rollouts.map(rolloutSection)).join("\n")}
</section>
</body>
</html>
`;
}
