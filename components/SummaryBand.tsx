import type { FilterFlag, RolloutIndexEntry, StatusCounts } from "@/hooks/types";
import { RewardChart } from "./RewardChart";

interface Props {
  counts: StatusCounts;
  entries: readonly RolloutIndexEntry[];
  errorLines: number;
  active: readonly FilterFlag[];
  onToggle(flag: FilterFlag): void;
}

type Counted = "unverified" | "changed" | "zero" | "ambiguous" | "mismatched" | "external";

function perRollout(key: Counted): key is "unverified" | "changed" | "zero" {
  return key === "unverified" || key === "changed" || key === "zero";
}

/** Every tile counts rollouts, the unit its filter selects; call counts are in the hint. */
function tileValue(counts: StatusCounts, key: Counted): number {
  return perRollout(key) ? counts[key] : counts.rollouts_with[key];
}

function tileHint(counts: StatusCounts, key: Counted, hint: string): string {
  return perRollout(key) ? hint : `${hint} (${counts[key]} calls in all)`;
}

const TILES: readonly {
  flag: FilterFlag;
  label: string;
  key: Counted;
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
    label: "ambiguous",
    key: "ambiguous",
    tone: "ambiguous",
    hint: "rollouts with an ambiguous call: duplicate or missing call_ids, alias guesses and collisions",
  },
  {
    flag: "mismatched",
    label: "mismatched",
    key: "mismatched",
    tone: "mismatched",
    hint: "rollouts with a mismatched call: malformed entries, near-miss servers, unknown tools, disagreeing aliases",
  },
  {
    flag: "external",
    label: "external",
    key: "external",
    tone: "external",
    hint: "rollouts with a call that provenance attributes to another server",
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
            <span className="total-label">unreadable {errorLines === 1 ? "line" : "lines"}</span>
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
            title={tileHint(counts, tile.key, tile.hint)}
            data-summary={tile.flag}
            {...(tile.flag === "unverified" ? { "data-unverified-count": counts.unverified } : {})}
            onClick={() => onToggle(tile.flag)}
          >
            <span className="tile-value">{tileValue(counts, tile.key)}</span>
            <span className="tile-label">
              {tile.label}
              {perRollout(tile.key) ? "" : " rollouts"}
            </span>
          </button>
        ))}
      </div>
      <RewardChart entries={entries} />
    </section>
  );
}
