import Link from "next/link";
import { memo } from "react";
import { cx } from "@/components/cx";
import {
  count,
  formatClause,
  type LineCounts,
  percent,
  type Reward,
  recordedValueClauses,
  type UnverifiedByPolicy,
  unverifiedText,
  zeroShareText,
} from "@/lib/run";
import {
  AGENT_CAUSES,
  causeCount,
  fixedByMapText,
  moreFieldsText,
  namedGroups,
  passesText,
  type RecordedFieldsGroup,
  type RecordedFieldsSummary,
  type RunTriage,
  recordedFieldsHeading,
  reproducedText,
  textCallsText,
  type ValueCount,
  type VerifierGroup,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
  type ZeroCause,
} from "@/lib/triage";
import { RewardSwitch } from "./RewardSwitch";
import styles from "./TriagePanel.module.css";

/** What the filter holds of the recorded values chosen (features/inspector recordedChoice). */
export interface RecordedChoice {
  /** The filter's clauses, as written (lib/run formatClause). */
  readonly clauses: ReadonlySet<string>;
  /** Whether a `verifier:` clause is among them. */
  readonly chosen: boolean;
}

interface Props {
  /** The breakdown per reward: the recorded reward's zeros, or a policy's recomputation's. */
  triage: Readonly<Record<Reward, RunTriage>>;
  /** The run view's reward setting (lib/run reward.ts; the recorded reward unless switched). */
  reward: Reward;
  onReward(reward: Reward): void;
  /** The run's rollouts and unreadable lines: the headline says what its denominator holds. */
  counts: LineCounts;
  /** The rollouts the breakdown covers that the contract policy could not verify, by reason. */
  unverified: UnverifiedByPolicy;
  /** The cause the list is filtered to, if any. */
  active: ZeroCause | null;
  /** What the breakdown covers when a filter narrows it (null: the whole run). */
  scope: string | null;
  onCause(cause: ZeroCause | null): void;
  /**
   * What Gym's verifier wrote on the zeros not verified here, per verifier (shown with the recorded reward's
   * zeros).
   */
  recorded: readonly RecordedFieldsGroup[];
  /** What the filter holds of the values chosen below. */
  recordedChoice: RecordedChoice;
  /**
   * A recorded field's value chosen (its JSON text), with its verifier's group when the run has several: the
   * list keeps the zeros with it, or no longer.
   */
  onRecordedValue(key: string, value: string, group: VerifierGroup | undefined): void;
  /** The zeros a provenance map rescues (lib/triage fixed_by_map): whether the list keeps only them. */
  fixedByMapActive: boolean;
  onFixedByMap(on: boolean): void;
  /** /compare's repair of this file under the rescuing harness (null: no file to repair). */
  repairHref: (harness: string) => string | null;
}

/**
 * "Is it the MCP alias problem?": the zeros whose names are a harness's aliases and that score above 0 with
 * its provenance map for their calls (tool_failed in a run with no map, or identity), a button keeping them
 * in the list and the repair that derives the map (one harness: a link to it).
 */
function FixedByMap({
  triage,
  active,
  onToggle,
  repairHref,
}: {
  triage: RunTriage;
  active: boolean;
  onToggle(on: boolean): void;
  repairHref: (harness: string) => string | null;
}) {
  const text = fixedByMapText(triage);
  if (text === null) return active ? <ShowAll onToggle={onToggle} /> : null;
  const [harness, ...others] = triage.fixed_by_map.harnesses;
  const href = harness === undefined || others.length > 0 ? null : repairHref(harness);
  return (
    <div
      className={styles.fixedByMap}
      role="note"
      data-testid="triage-fixed-by-map"
      data-count={triage.fixed_by_map.lines.length}
    >
      <span>{text}</span>
      <button
        type="button"
        aria-pressed={active}
        onClick={() => onToggle(!active)}
        data-testid="fixed-by-map-filter"
      >
        {active
          ? "Show every rollout"
          : triage.fixed_by_map.lines.length === 1
            ? "Show it"
            : `Show these ${triage.fixed_by_map.lines.length}`}
      </button>
      {href !== null && (
        <Link href={href} data-testid="fixed-by-map-repair">
          Repair with {harness}'s aliases
        </Link>
      )}
    </div>
  );
}

/** The list keeps the rescued zeros but this view has none: the way back. */
function ShowAll({ onToggle }: { onToggle(on: boolean): void }) {
  return (
    <div className={styles.fixedByMap} data-testid="triage-fixed-by-map" data-count={0}>
      <span className="muted">No zero of this view scores above 0 with a provenance map.</span>
      <button type="button" aria-pressed onClick={() => onToggle(false)} data-testid="fixed-by-map-filter">
        Show every rollout
      </button>
    </div>
  );
}

/** Bar width of the stacked chart, in viewBox units (it scales to the panel). */
const BAR_WIDTH = 100;

function CauseButton({
  cause,
  triage,
  active,
  onCause,
  compact = false,
}: {
  cause: ZeroCause;
  triage: RunTriage;
  active: ZeroCause | null;
  onCause(cause: ZeroCause | null): void;
  /** A cause no rollout has: its name only, in one line with the others. */
  compact?: boolean;
}) {
  // A cause no rollout has is named as text (its hint on hover), not a control that cannot be used.
  if (compact)
    return (
      <span
        className={styles.causeNone}
        title={ZERO_CAUSE_HINTS[cause]}
        data-cause={cause}
        data-count={causeCount(triage, cause)}
      >
        <span className={cx(styles.causeSwatch, styles[`fill_${cause}`])} aria-hidden="true" />
        {ZERO_CAUSE_LABELS[cause]}
      </span>
    );
  return (
    <button
      type="button"
      className={cx(styles.cause, active === cause && styles.causeOn)}
      aria-pressed={active === cause}
      title={ZERO_CAUSE_HINTS[cause]}
      data-cause={cause}
      data-count={causeCount(triage, cause)}
      disabled={causeCount(triage, cause) === 0 && active !== cause}
      onClick={() => onCause(active === cause ? null : cause)}
    >
      <span className={cx(styles.causeSwatch, styles[`fill_${cause}`])} aria-hidden="true" />
      <span className={styles.causeLabel}>{ZERO_CAUSE_LABELS[cause]}</span>
      <span className={styles.causeCount}>{causeCount(triage, cause)}</span>
      <span className={cx(styles.causeShare, "muted")}>
        {percent(causeCount(triage, cause), triage.total)}
      </span>
    </button>
  );
}

/** A field's values on the zeros, each one the list can be narrowed to a button. */
function ZeroValues({
  field,
  values,
  group,
  active,
  onValue,
}: {
  field: string;
  values: readonly ValueCount[];
  /** The group's server when the run has several (null: no server), else undefined. */
  group: VerifierGroup | undefined;
  /** The filter's clauses, as written (lib/run formatClause). */
  active: ReadonlySet<string>;
  onValue(key: string, value: string): void;
}) {
  return values.map((v) => {
    const chosen = recordedValueClauses(field, v.value, group);
    if (chosen === null)
      return (
        <span key={v.value} className={styles.recordedValue}>
          <code>{v.value}</code> ×{v.count}
        </span>
      );
    // Pressed when the filter holds what choosing it adds: the value, and its server's clause if any.
    const on =
      active.has(formatClause(chosen.value)) &&
      (chosen.group === null || active.has(formatClause(chosen.group)));
    return (
      <button
        key={v.value}
        type="button"
        className={cx(styles.recordedValue, styles.recordedButton, on && styles.causeOn)}
        aria-pressed={on}
        aria-label={`${field} ${v.value}: ${count(v.count, "zero", "zeros")}`}
        title={on ? "Show every rollout again" : `List the zeros whose ${field} is ${v.value}`}
        data-value={v.value}
        onClick={() => onValue(field, v.value)}
      >
        <code>{v.value}</code> <span className={styles.causeCount}>×{v.count}</span>
      </button>
    );
  });
}

/**
 * Where no port verifies the zeros, the run's account of them is what Gym's verifier wrote beside them: each
 * field's values on the zeros (buttons that narrow the list), then the same field above 0. Values are shown
 * as text, as written.
 */
function RecordedFields({
  summary,
  group,
  zeros,
  choice,
  onValue,
}: {
  summary: RecordedFieldsSummary;
  /** The group's server when the run has several (null: no server), else undefined (not named). */
  group: VerifierGroup | undefined;
  /** Zeros in the breakdown: the section opens when most of them are these. */
  zeros: number;
  choice: RecordedChoice;
  onValue(key: string, value: string): void;
}) {
  const heading = recordedFieldsHeading(summary, group);
  if (heading === null) return null;
  return (
    <details
      className={styles.recorded}
      // Opens when most zeros are these, once: afterwards the user's fold stays (React sets `open` only
      // when this value changes).
      open={2 * summary.zeros >= zeros}
      data-testid="triage-recorded"
      data-zeros={summary.zeros}
    >
      <summary className="muted">{heading}</summary>
      <dl className={styles.recordedList}>
        {summary.fields.map((field) => (
          <div key={field.key} className={styles.recordedField} data-field={field.key}>
            <dt>
              <code>{field.key}</code>
            </dt>
            <dd>
              <ZeroValues
                field={field.key}
                values={field.zeros}
                group={group}
                active={choice.clauses}
                onValue={onValue}
              />
              {passesText(field) !== null && (
                <span className={cx("muted", styles.recordedPasses)}>{passesText(field)}</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      {moreFieldsText(summary) !== null && <p className="muted">{moreFieldsText(summary)}.</p>}
      {choice.chosen && (
        <p className="muted" data-testid="triage-recorded-chosen">
          These counts are before the values chosen; the list keeps the zeros with every one of them.
        </p>
      )}
    </details>
  );
}

/**
 * Why-zero triage of the whole run: by default the run's own zeros (the recorded reward), or, switched, a
 * policy's recomputed zeros. One stacked bar (the share of each cause among the rollouts), one button per
 * cause that filters the list to it, drift counted apart, and which policy reproduces the recorded reward.
 * An SVG bar like the reward chart's: no chart library needed for one row of rectangles.
 */
export const TriagePanel = memo(function TriagePanel({
  triage: views,
  reward,
  onReward,
  counts,
  unverified,
  active,
  scope,
  onCause,
  recorded,
  recordedChoice,
  onRecordedValue,
  fixedByMapActive,
  onFixedByMap,
  repairHref,
}: Props) {
  const triage = views[reward];
  // A cause with rollouts, or the one the list is filtered to, gets a tile; the others are named in a line.
  const shown = AGENT_CAUSES.filter((cause) => causeCount(triage, cause) > 0 || active === cause);
  const none = AGENT_CAUSES.filter((cause) => !shown.includes(cause));
  const notVerified = unverifiedText(unverified, triage.total, reward);
  const textCalls = textCallsText(triage);
  // Drift with no rollout is named in a line too (its hint says what it is), not given a tile.
  const noDrift = triage.drifted.length === 0 && active !== "drift";
  let x = 0;
  return (
    <section
      className={styles.triage}
      aria-label="Why zero"
      data-testid="triage"
      data-zero={triage.zero}
      data-view={reward}
    >
      <div className={styles.triageHead}>
        <h3>Why zero</h3>
        <span className="muted" data-testid="triage-headline">
          {zeroShareText(triage.zero, counts, reward, triage.negative, triage.total - triage.scored)}
        </span>
        <RewardSwitch reward={reward} onReward={onReward} />
      </div>
      {notVerified !== null && (
        <div className="muted" data-testid="triage-unverified">
          {notVerified}
        </div>
      )}
      {scope !== null && (
        <div className="muted triage-scope" data-testid="triage-scope" data-rollouts={triage.total}>
          {scope}
        </div>
      )}
      <svg
        className={styles.triageBar}
        viewBox={`0 0 ${BAR_WIDTH} 4`}
        preserveAspectRatio="none"
        aria-hidden="true"
      >
        {ZERO_CAUSES.map((cause) => {
          const width = triage.total === 0 ? 0 : (BAR_WIDTH * causeCount(triage, cause)) / triage.total;
          const rect = (
            <rect key={cause} x={x} y={0} width={width} height={4} className={styles[`fill_${cause}`]} />
          );
          x += width;
          return rect;
        })}
        {/* The rollouts this view has no reward for: grey, never the green of rollouts above 0. */}
        <rect
          x={x}
          y={0}
          width={triage.total === 0 ? 0 : (BAR_WIDTH * (triage.total - triage.scored)) / triage.total}
          height={4}
          className={styles.fill_unscored}
          data-testid="triage-bar-unscored"
        />
      </svg>
      <div data-testid="triage-causes">
        {shown.length > 0 && (
          <div className={styles.triageCauses}>
            {shown.map((cause) => (
              <CauseButton key={cause} cause={cause} triage={triage} active={active} onCause={onCause} />
            ))}
          </div>
        )}
        {none.length > 0 && (
          // The causes no rollout has, folded into one line rather than a tile each: thirteen tiles, most of
          // them 0, pushed a folder's rollouts below the first screen (and they are not in the bar).
          <details className={styles.triageNoneFold} data-testid="triage-none">
            <summary className="muted">
              {count(none.length, "other cause", "other causes")}, with no rollout
            </summary>
            <div className={styles.triageNone}>
              {none.map((cause) => (
                <CauseButton
                  key={cause}
                  cause={cause}
                  triage={triage}
                  active={active}
                  onCause={onCause}
                  compact
                />
              ))}
            </div>
          </details>
        )}
      </div>
      <FixedByMap triage={triage} active={fixedByMapActive} onToggle={onFixedByMap} repairHref={repairHref} />
      {textCalls !== null && (
        <p
          className="muted"
          role="note"
          data-testid="triage-text-calls"
          data-count={triage.text_calls.length}
        >
          {textCalls} Filter: <code>is:text_call</code>.
        </p>
      )}
      {reward === "recorded" &&
        namedGroups(recorded).map(({ group, summary }) => (
          <RecordedFields
            key={group ?? ""}
            summary={summary}
            group={group}
            zeros={triage.zero}
            choice={recordedChoice}
            onValue={(key, value) => onRecordedValue(key, value, group)}
          />
        ))}
      <div
        className={cx(styles.triageApart, noDrift && styles.triageNone)}
        data-testid="triage-drift"
        data-count={triage.drifted.length}
      >
        <span className="muted">
          {noDrift
            ? "Counted apart, no rollout:"
            : "Counted apart: the recorded reward matches neither policy's recomputation"}
        </span>
        <CauseButton cause="drift" triage={triage} active={active} onCause={onCause} compact={noDrift} />
      </div>
      <p className={cx("muted", styles.triageFinding)} data-testid="triage-reproduced">
        {reproducedText(triage)}
      </p>
    </section>
  );
});
