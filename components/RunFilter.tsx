import { useDraft } from "@/hooks/use-draft";
import { HARNESS_IDS } from "@/hooks/view-state";
import type { HarnessInference } from "@/lib/harness";
import type { HarnessId } from "@/lib/harness/types";

interface Props {
  filter: string;
  onFilter(filter: string): void;
  /** Why the filter text could not be read. */
  error: string | null;
  /** Rows the filter keeps (null: no filter). */
  kept: number | null;
  fileName: string;
  onExport(format: "csv" | "jsonl"): void;
  /** Downloads the report to share (the filter and the marked rollouts). */
  onReport(): void;
  /** Rollouts marked for the report. */
  marked: number;
  exportError: string | null;
  inferred: HarnessInference | null;
  harness: HarnessId | null;
  onHarness(harness: HarnessId | null): void;
}

const EXAMPLES =
  "recorded:0  contract:0.5..1  field:agent_ref.name=hermes_agent  field:response.model~gpt  flag:alias_guess  cause:identity";

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The structured filter (lib/run syntax), the export of what it keeps, and the inferred harness offer. */
export function RunFilter(props: Props) {
  const [draft, setDraft] = useDraft(props.filter, props.onFilter);
  const cli = `npm run --silent cli -- triage ${shellQuote(props.fileName)} --format csv${
    props.filter.trim() === "" ? "" : ` --filter ${shellQuote(props.filter.trim())}`
  }`;
  const offer = props.inferred;
  return (
    <div className="run-filter">
      <div className="run-filter-row">
        <input
          type="text"
          className={`filter-input${props.error ? " filter-input-bad" : ""}`}
          placeholder="Filter: recorded:0  field:path=text  flag:alias_guess  cause:identity"
          aria-label="Structured filter"
          aria-invalid={props.error !== null}
          title={EXAMPLES}
          spellCheck={false}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          data-testid="structured-filter"
        />
        <button
          type="button"
          className="button-small"
          onClick={() => props.onExport("csv")}
          data-testid="export-csv"
        >
          CSV
        </button>
        <button
          type="button"
          className="button-small"
          onClick={() => props.onExport("jsonl")}
          data-testid="export-jsonl"
        >
          JSONL
        </button>
        <button
          type="button"
          className="button-small"
          onClick={props.onReport}
          data-testid="export-report"
          title="One self-contained HTML file to share: the breakdown, the metrics and the marked rollouts (none marked: the first 20 the filter keeps)"
        >
          Report{props.marked > 0 ? ` (${props.marked} marked)` : ""}
        </button>
      </div>
      {props.error && (
        <div className="filter-error" role="alert" data-testid="filter-error">
          {props.error}
        </div>
      )}
      {props.exportError && (
        <div className="filter-error" role="alert">
          {props.exportError}
        </div>
      )}
      <div className="run-filter-hint muted">
        Export{props.kept === null ? "s every rollout" : `s the ${props.kept} rollouts the filter keeps`}, as{" "}
        <code className="cli-line" data-testid="export-cli">
          {cli}
        </code>
      </div>
      <div className="run-filter-row run-settings">
        <label>
          harness (whole file){" "}
          <select
            aria-label="Harness"
            value={props.harness ?? ""}
            onChange={(event) => props.onHarness(HARNESS_IDS.find((id) => id === event.target.value) ?? null)}
          >
            <option value="">unknown</option>
            {HARNESS_IDS.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <span className="muted">alias diagnostics (flags) for every rollout</span>
      </div>
      {offer && offer.harnesses.length > 0 && !offer.harnesses.some((h) => h === props.harness) && (
        <div className="harness-offer" data-testid="harness-offer">
          <span>
            Harness <em>inferred</em> from the aliases ({offer.explained} of {offer.aliased} names):{" "}
          </span>
          {offer.harnesses.map((harness) => (
            <button
              type="button"
              key={harness}
              className="button-small"
              onClick={() => props.onHarness(harness)}
              data-harness={harness}
            >
              use {harness}
            </button>
          ))}
          <span className="muted"> — not applied until you choose it.</span>
        </div>
      )}
    </div>
  );
}
