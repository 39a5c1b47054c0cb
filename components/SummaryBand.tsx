import type { FilterFlag, RolloutIndexEntry, StatusCounts } from "@/hooks/types";
import { RewardChart } from "./RewardChart";

interface Props {
  counts: StatusCounts;
  entries: readonly RolloutIndexEntry[];
  errorLines: number;
  active: readonly FilterFlag[];
  onToggle(flag: FilterFlag): void;
}

const TILES: readonly {
  flag: FilterFlag;
  label: string;
  key: keyof StatusCounts;
  tone: string;
  hint: string;
}[] = [
  {
    flag: "unverified",
    label: "unverified",
    key: "unverified",
    tone: "unverified",
    hint: "rollouts without a recomputed reward (contract): each row says why (no server, missing task data, Gym refuses, ...)",
  },
  {
    flag: "changed",
    label: "reward changed",
    key: "changed",
    tone: "changed",
    hint: "rollouts whose recomputed reward (contract) differs from the recorded one",
  },
  {
    flag: "zero",
    label: "recorded 0",
    key: "zero",
    tone: "neutral",
    hint: "rollouts recorded with reward 0",
  },
  {
    flag: "ambiguous",
    label: "ambiguous calls",
    key: "ambiguous",
    tone: "ambiguous",
    hint: "duplicate or missing call_ids, alias guesses and collisions",
  },
  {
    flag: "mismatched",
    label: "mismatched calls",
    key: "mismatched",
    tone: "mismatched",
    hint: "malformed entries, near-miss servers, unknown tools, disagreeing aliases",
  },
  {
    flag: "external",
    label: "external calls",
    key: "external",
    tone: "external",
    hint: "calls that provenance attributes to another server",
  },
];

export function SummaryBand({ counts, entries, errorLines, active, onToggle }: Props) {
  return (
    <section className="summary" aria-label="Summary">
      <div className="summary-totals">
        <div className="total">
          <span className="total-value" data-testid="rollout-count">
            {counts.rollouts}
          </span>
          <span className="total-label">rollouts</span>
        </div>
        <div className="total">
          <span className="total-value">{counts.calls}</span>
          <span className="total-label">tool calls</span>
        </div>
        {errorLines > 0 && (
          <div className="total total-error">
            <span className="total-value" data-testid="error-count">
              {errorLines}
            </span>
            <span className="total-label">bad lines</span>
          </div>
        )}
      </div>
      <div className="summary-tiles">
        {TILES.map((tile) => (
          <button
            type="button"
            key={tile.flag}
            className={`tile tile-${tile.tone}${active.includes(tile.flag) ? " tile-active" : ""}`}
            aria-pressed={active.includes(tile.flag)}
            title={tile.hint}
            data-summary={tile.flag}
            {...(tile.flag === "unverified" ? { "data-unverified-count": counts.unverified } : {})}
            onClick={() => onToggle(tile.flag)}
          >
            <span className="tile-value">{counts[tile.key]}</span>
            <span className="tile-label">{tile.label}</span>
          </button>
        ))}
      </div>
      <RewardChart entries={entries} />
    </section>
  );
}
