import { type LineCounts, zeroShareText } from "@/lib/run";
import {
  type RunTriage,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
  type ZeroCause,
} from "@/lib/triage";

interface Props {
  triage: RunTriage;
  /** The run's rollouts and unreadable lines: the headline says what its denominator holds. */
  counts: LineCounts;
  /** The cause the list is filtered to, if any. */
  active: ZeroCause | null;
  /** What the breakdown covers when a filter narrows it (null: the whole run). */
  scope: string | null;
  onCause(cause: ZeroCause | null): void;
}

/** Bar width of the stacked chart, in viewBox units (it scales to the panel). */
const BAR_WIDTH = 100;

function percent(n: number, total: number): string {
  return total === 0 ? "0.0%" : `${((100 * n) / total).toFixed(1)}%`;
}

/**
 * Why-zero triage of the whole run: one stacked bar (the share of each cause among the rollouts) and one
 * button per cause that filters the list to it. An SVG bar like the reward chart's: no chart library needed
 * for one row of rectangles.
 */
export function TriagePanel({ triage, counts, active, scope, onCause }: Props) {
  let x = 0;
  return (
    <section className="triage" aria-label="Why zero" data-testid="triage" data-zero={triage.zero}>
      <div className="triage-head">
        <h3>Why zero</h3>
        <span className="muted" data-testid="triage-headline">
          {zeroShareText(triage.zero, counts)}
        </span>
      </div>
      {scope !== null && (
        <div className="muted triage-scope" data-testid="triage-scope" data-rollouts={triage.total}>
          {scope}
        </div>
      )}
      <svg
        className="triage-bar"
        viewBox={`0 0 ${BAR_WIDTH} 4`}
        preserveAspectRatio="none"
        aria-hidden="true"
      >
        {ZERO_CAUSES.map((cause) => {
          const width = triage.total === 0 ? 0 : (BAR_WIDTH * triage.counts[cause]) / triage.total;
          const rect = (
            <rect key={cause} x={x} y={0} width={width} height={4} className={`cause-fill-${cause}`} />
          );
          x += width;
          return rect;
        })}
      </svg>
      <div className="triage-causes">
        {ZERO_CAUSES.map((cause) => (
          <button
            type="button"
            key={cause}
            className={`cause cause-${cause}${active === cause ? " cause-on" : ""}`}
            aria-pressed={active === cause}
            title={ZERO_CAUSE_HINTS[cause]}
            data-cause={cause}
            data-count={triage.counts[cause]}
            disabled={triage.counts[cause] === 0 && active !== cause}
            onClick={() => onCause(active === cause ? null : cause)}
          >
            <span className={`cause-swatch cause-fill-${cause}`} aria-hidden="true" />
            <span className="cause-label">{ZERO_CAUSE_LABELS[cause]}</span>
            <span className="cause-count">{triage.counts[cause]}</span>
            <span className="cause-share muted">{percent(triage.counts[cause], triage.total)}</span>
          </button>
        ))}
      </div>
    </section>
  );
}
