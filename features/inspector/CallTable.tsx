"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef, useState } from "react";
import { type CallOutcome, FlagChip, NO_OUTCOME, OutcomeBadge, StatusBadge } from "@/components/badges";
import { Name } from "@/components/Name";
import {
  afterLayout,
  estimateWithin,
  measureAfterLayout,
  useReveal,
  useVisibleRange,
} from "@/components/virtual";
import type { CallView } from "@/hooks/types";

/** A call row's height before it is measured (a row without flags at 1280 px; others are measured). */
export const CALL_ROW_ESTIMATE = 135;
/** Rows rendered beyond the visible ones: a rollout of up to about a dozen calls is rendered whole. */
export const CALL_OVERSCAN = 8;
/** The call box's height until the browser has laid it out: its CSS max-height (globals.css `.calls`). */
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
    <dl className="identity-grid">
      <dt>provenance</dt>
      <dd className="mono">
        {call.provenance ? (
          <>
            <span className="prov-server">
              <Name value={call.provenance.server_name} />
            </span>
            <span className="prov-sep"> / </span>
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
        {call.verifier_name === call.emitted && <span className="muted same"> (emitted name)</span>}
      </dd>
      <dt title="what a Gym run before provenance showed its verifier">legacy saw</dt>
      <dd className={`mono verifier${differs ? " legacy-differs" : " muted"}`}>
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
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimateWithin(count, CALL_ROW_ESTIMATE),
    overscan: CALL_OVERSCAN,
    // No layout reads while the rows commit: sizes come from ResizeObservers (components/virtual.ts).
    ...afterLayout<HTMLDivElement>(CALLS_MAX_PX),
    measureElement: measureAfterLayout,
  });
  const rows = virtualizer.getVirtualItems();
  useVisibleRange(virtualizer, onRange);
  const shown = useRef<HTMLOListElement>(null);
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  useReveal(virtualizer, box, shown, selected);

  if (count === 0) return <p className="muted">This rollout makes no function calls.</p>;
  return (
    <div
      className="calls"
      ref={(element) => {
        scroller.current = element;
        setBox(element);
      }}
      data-calls={count}
    >
      <div className="calls-space" style={{ height: virtualizer.getTotalSize() }}>
        <ol
          ref={shown}
          className="calls-window"
          aria-label="Call identities"
          style={{ transform: `translateY(${rows[0]?.start ?? 0}px)` }}
        >
          {rows.map(({ index, key }) => {
            const view = callAt(index);
            if (!view) {
              return (
                <li
                  key={key}
                  className="call-row-pending muted"
                  data-pending
                  data-index={index}
                  ref={virtualizer.measureElement}
                >
                  call {index}…
                </li>
              );
            }
            const call = view.contract;
            const outcome = outcomeOf?.(call.index) ?? NO_OUTCOME;
            return (
              <li
                key={key}
                ref={virtualizer.measureElement}
                data-index={index}
                className={`call-row hl-${call.highlight}${selected === call.index ? " selected" : ""}`}
                data-call-id={call.call_id ?? ""}
                data-call-index={call.index}
                data-status={call.status}
                data-highlight={call.highlight}
                data-verifier-name={call.verifier_name}
                data-legacy-status={view.legacy?.status}
                data-outcome={outcome.badge?.kind}
                data-decisive={outcome.decisive ? "true" : undefined}
              >
                <button type="button" className="call-select" onClick={() => onSelect(call.index)}>
                  <span className="call-index mono">{call.index}</span>
                  <StatusBadge status={call.status} highlight={call.highlight} />
                  <span className="mono emitted" title="emitted name">
                    <Name value={call.emitted} />
                  </span>
                  <span className="mono muted call-id">
                    {call.call_id === null ? (
                      "no call_id"
                    ) : call.call_id === "" ? (
                      '""'
                    ) : (
                      <Name value={call.call_id} />
                    )}
                  </span>
                  <OutcomeBadge badge={outcome.badge} decisive={outcome.decisive} />
                </button>
                <IdentityGrid
                  call={call}
                  old={view.legacy}
                  differs={view.legacy !== null && view.legacy.verifier_name !== call.verifier_name}
                />
                <div className="why">{call.explanation}</div>
                {call.flags.map((flag) => (
                  <div className="why why-flag" key={flag.name} data-flag={flag.name}>
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
