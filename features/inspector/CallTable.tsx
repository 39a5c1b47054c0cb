"use client";
import { useRef, useState } from "react";
import { type CallOutcome, FlagChip, NO_OUTCOME, OutcomeBadge, StatusBadge } from "@/components/badges";
import { cx } from "@/components/cx";
import { Name } from "@/components/Name";
import { estimateWithin, useLongList, useReveal, useVisibleRange } from "@/components/virtual";
import longList from "@/components/virtual.module.css";
import type { CallView } from "@/hooks/types";
import styles from "./CallTable.module.css";

/** A call row's height before it is measured (a row without flags at 1280 px; others are measured). */
export const CALL_ROW_ESTIMATE = 135;
/** Rows rendered beyond the visible ones: a rollout of up to about a dozen calls is rendered whole. */
export const CALL_OVERSCAN = 8;
/** The call box's height until the browser has laid it out: its CSS max-height (CallTable.module.css `.calls`). */
const CALLS_MAX_PX = 720;

interface Props {
  /** How many calls the rollout has. */
  count: number;
  /** The call at an index with its resolution under both policies, or undefined while it is on its way. */
  callAt(index: number): CallView | undefined;
  /** Calls [start, end) are on screen. */
  onRange(start: number, end: number): void;
  selected: number | null;
  onSelect(index: number): void;
  /** Each call's outcome in the verifier's replay, by call index. */
  outcomeOf?(index: number): CallOutcome;
}

function IdentityGrid({
  call,
  old,
  differs,
}: {
  call: CallView["contract"];
  old: CallView["legacy"];
  differs: boolean;
}) {
  return (
    <dl className={styles.identityGrid}>
      <dt>provenance</dt>
      <dd className="mono">
        {call.provenance ? (
          <>
            <span className={styles.provServer}>
              <Name value={call.provenance.server_name} />
            </span>
            <span className={styles.provSep}> / </span>
            <span className="prov-tool">
              <Name value={call.provenance.tool_name} />
            </span>
          </>
        ) : (
          <span className="muted">none</span>
        )}
      </dd>
      <dt>verifier sees</dt>
      <dd className="mono verifier">
        <Name value={call.verifier_name} />
        {call.verifier_name === call.emitted && (
          <span className={cx("muted", styles.same)}> (emitted name)</span>
        )}
      </dd>
      <dt title="what a Gym run before provenance showed its verifier">legacy saw</dt>
      <dd className={cx("mono verifier", differs ? styles.legacyDiffers : "muted")}>
        {differs && old ? <Name value={old.verifier_name} /> : "the same"}
        {old && old.status !== call.status && <span className="muted"> ({old.status})</span>}
      </dd>
    </dl>
  );
}

/**
 * Every call's identity: what the harness emitted, what provenance says, and what the verifier sees under
 * each policy. One compact block per call, so long aliases stay on one line instead of wrapping per letter.
 * Virtualized in its own scroll box: only the calls on screen are in the DOM, whatever the rollout's size.
 */
export function CallTable({ count, callAt, onRange, selected, onSelect, outcomeOf }: Props) {
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  // No layout reads while the rows commit: sizes come from ResizeObservers (components/virtual.ts).
  const list = useLongList({
    count,
    estimate: estimateWithin(count, CALL_ROW_ESTIMATE),
    overscan: CALL_OVERSCAN,
    scroller: box,
    initialHeight: CALLS_MAX_PX,
  });
  const { rows } = list;
  useVisibleRange(rows, onRange);
  const shown = useRef<HTMLOListElement>(null);
  useReveal(list, box, shown, selected);

  if (count === 0) return <p className="muted">This rollout makes no function calls.</p>;
  return (
    <div className={styles.calls} ref={setBox} data-calls={count}>
      <div className={longList.space} style={{ height: list.total }}>
        <ol
          ref={shown}
          className={styles.callsWindow}
          aria-label="Call identities"
          style={{ transform: `translateY(${rows[0]?.start ?? 0}px)` }}
        >
          {rows.map(({ index }) => {
            const view = callAt(index);
            if (!view) {
              return (
                <li
                  key={index}
                  className={cx(styles.callRowPending, "muted")}
                  data-pending
                  data-index={index}
                  ref={list.measure}
                >
                  call {index}…
                </li>
              );
            }
            const call = view.contract;
            const outcome = outcomeOf?.(call.index) ?? NO_OUTCOME;
            return (
              <li
                key={index}
                ref={list.measure}
                data-index={index}
                className={cx(
                  styles.callRow,
                  styles[`hl_${call.highlight}`],
                  selected === call.index && styles.selected,
                )}
                aria-current={selected === call.index}
                data-call-id={call.call_id ?? ""}
                data-call-index={call.index}
                data-status={call.status}
                data-highlight={call.highlight}
                data-verifier-name={call.verifier_name}
                data-legacy-status={view.legacy?.status}
                data-outcome={outcome.badge?.kind}
                data-decisive={outcome.decisive ? "true" : undefined}
              >
                <button
                  type="button"
                  className={styles.callSelect}
                  data-testid="call-select"
                  onClick={() => onSelect(call.index)}
                >
                  <span className={cx(styles.callIndex, "mono")}>{call.index}</span>
                  <StatusBadge status={call.status} highlight={call.highlight} />
                  <span className={cx("mono", styles.emitted)} title="emitted name">
                    <Name value={call.emitted} />
                  </span>
                  <span className={cx("mono", "muted", styles.callId)}>
                    {call.call_id === null ? (
                      "no call_id"
                    ) : call.call_id === "" ? (
                      '""'
                    ) : (
                      <Name value={call.call_id} />
                    )}
                  </span>
                  <OutcomeBadge {...outcome} />
                </button>
                <IdentityGrid
                  call={call}
                  old={view.legacy}
                  differs={view.legacy !== null && view.legacy.verifier_name !== call.verifier_name}
                />
                <div className={styles.why} data-testid="call-why">
                  {call.explanation}
                </div>
                {call.flags.map((flag) => (
                  <div className={cx(styles.why, styles.whyFlag)} key={flag.name} data-flag={flag.name}>
                    <FlagChip name={flag.name} highlight={flag.highlight} /> {flag.message}
                  </div>
                ))}
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}
