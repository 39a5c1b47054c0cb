"use client";
import { memo, type RefObject, useLayoutEffect, useRef, useState } from "react";
import { type CallOutcome, NO_OUTCOME, OutcomeBadge, replayName, StatusBadge } from "@/components/badges";
import { CodeBlock } from "@/components/CodeBlock";
import { cx } from "@/components/cx";
import { Markdown } from "@/components/Markdown";
import { Name } from "@/components/Name";
import { estimateWithin, scrollParent, useLongList, useReveal, useVisibleRange } from "@/components/virtual";
import longList from "@/components/virtual.module.css";
import type { InputMessage, TranscriptItem } from "@/hooks/types";
import { formatCount } from "@/lib/run";
import callStyles from "./CallTable.module.css";
import styles from "./Transcript.module.css";

/** Longer message texts are folded behind a "show all" button. */
export const FOLD_TEXT_CHARS = 1_500;

function FoldedText({ text, markdown = false }: { text: string; markdown?: boolean }) {
  const [open, setOpen] = useState(false);
  const body = (shown: string) => (markdown ? <Markdown text={shown} /> : shown);
  if (text.length <= FOLD_TEXT_CHARS)
    return (
      <div className={styles.msgText} data-testid="msg-text">
        {body(text)}
      </div>
    );
  return (
    <div className={styles.msgText} data-testid="msg-text">
      {open ? body(text) : body(`${text.slice(0, FOLD_TEXT_CHARS)}…`)}
      <button type="button" className="link-button" onClick={() => setOpen(!open)}>
        {open ? "show less" : `show all ${formatCount(text.length)} characters`}
      </button>
    </div>
  );
}

/** A transcript item's height before it is measured (a call with short arguments and output). */
export const ITEM_ESTIMATE = 160;
/** Items rendered beyond the visible ones. */
export const ITEM_OVERSCAN = 4;
/** The detail pane's height until the browser has laid it out (a tall window's). */
const INITIAL_PANE_PX = 900;
/** Space between items, in px: the window's CSS gap (Transcript.module.css), which the item offsets count. */
const ITEM_GAP = 8;

interface Props {
  input: readonly InputMessage[];
  /** How many output items the rollout has. */
  count: number;
  /** The item at a position, or undefined while it is on its way. */
  itemAt(index: number): TranscriptItem | undefined;
  /** Items [start, end) are on screen. */
  onRange(start: number, end: number): void;
  /** The selected call, and its position in the transcript (scrolled to when it changes). */
  selected: number | null;
  selectedItem: number | null;
  onSelect(index: number): void;
  /** Each call's outcome in the verifier's replay, by call index. */
  outcomeOf?(callIndex: number): CallOutcome;
}

/**
 * Where the list starts inside its scroll parent (the detail pane), kept current as what is above it
 * (header, verification, call list) changes size. Read in ResizeObserver callbacks only, after the browser's
 * own layout: reading it while the detail commits forced a style and layout pass of the whole new pane.
 */
function useScrollMargin(list: RefObject<HTMLElement | null>) {
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const element = list.current;
    if (element === null) return;
    let parent: HTMLElement | null = null;
    const observer = new ResizeObserver(() => {
      if (parent === null) {
        parent = scrollParent(element);
        setScroller(parent);
        if (parent === null) return;
        observer.unobserve(element);
        for (let at = element.parentElement; at !== null && at !== parent; at = at.parentElement) {
          observer.observe(at);
        }
      }
      const top = element.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop;
      setMargin((previous) => (Math.abs(previous - top) < 1 ? previous : top));
    });
    // The first report comes after the first layout; the parents are observed from then on.
    observer.observe(element);
    return () => observer.disconnect();
  }, [list]);
  return { scroller, margin };
}

/**
 * One item's content. Memoized: n/p re-render the transcript for the new selection, and an item's code
 * blocks (arguments, output) are its costliest part; the item itself does not change with the selection.
 */
const Item = memo(function Item({
  item,
  onSelect,
  outcome,
}: {
  item: TranscriptItem;
  onSelect(index: number): void;
  outcome: CallOutcome;
}) {
  switch (item.kind) {
    case "message":
      return (
        <>
          <div className={styles.itemHead}>{item.role}</div>
          <FoldedText text={item.text} markdown={item.role === "assistant"} />
        </>
      );
    case "reasoning":
      return (
        <>
          <div className={styles.itemHead}>reasoning</div>
          <FoldedText text={item.text || "(no summary)"} />
        </>
      );
    case "call": {
      const call = item.contract;
      return (
        <>
          <button
            type="button"
            className={cx(styles.itemHead, styles.callHead)}
            onClick={() => onSelect(item.call_index)}
          >
            <span className={cx("mono", styles.callName)}>
              <Name value={item.name} />
            </span>
            {call && call.verifier_name !== item.name && (
              <span className="mono muted">
                {" → "}
                <Name value={call.verifier_name} />
              </span>
            )}
            {call && <StatusBadge status={call.status} highlight={call.highlight} />}
            <span className={cx("mono", "muted", styles.callId)}>
              {item.call_id === null ? "no call_id" : <Name value={item.call_id} />}
            </span>
            <OutcomeBadge {...outcome} />
          </button>
          <div className={styles.callBody}>
            <div className={styles.callPart}>
              <div className={styles.partLabel}>arguments</div>
              <CodeBlock text={item.arguments} label="arguments" />
            </div>
            <div className={styles.callPart}>
              <div className={styles.partLabel}>output</div>
              {(outcome.badge?.kind === "skipped" || outcome.badge?.kind === "refused") && (
                // The run's tool may have answered (an MCP alias the server knew), but the verifier's replay did
                // not apply the call: the output is not what the reward saw.
                <div className={styles.outcomeNote} data-outcome-note={outcome.badge.kind}>
                  In {replayName(outcome.policy)},{" "}
                  {outcome.badge.kind === "skipped" ? "Gym skipped" : "the tool refused"} this call (
                  {outcome.badge.text}): the output below is what the tool returned during the rollout, not
                  what {outcome.policy === null ? "the reward" : `the ${outcome.policy} policy's reward`} saw.
                </div>
              )}
              {item.output === null ? (
                <div className="muted">no function_call_output with this call_id</div>
              ) : (
                <CodeBlock text={item.output} label="output" />
              )}
            </div>
          </div>
        </>
      );
    }
    case "output":
      return (
        <>
          <div className={styles.itemHead}>
            unpaired output <span className="mono muted">{item.call_id ?? ""}</span>
          </div>
          <CodeBlock text={item.output} label="output" />
        </>
      );
    case "other":
      return (
        <>
          <div className={cx(styles.itemHead, "mono")}>{item.type}</div>
          <CodeBlock text={item.json} label={item.type} />
        </>
      );
  }
});

function itemClass(item: TranscriptItem, selected: number | null): string {
  switch (item.kind) {
    case "message":
      return cx(styles.item, styles[`role_${item.role}`]);
    case "reasoning":
      return cx(styles.item, styles.itemReasoning);
    case "call":
      return cx(
        styles.item,
        styles.itemCall,
        callStyles[`hl_${item.contract?.highlight ?? "none"}`],
        selected === item.call_index && styles.selected,
      );
    case "output":
    case "other":
      return cx(styles.item);
  }
}

/**
 * The rollout's output items in order, each call with its arguments and output. Virtualized in the detail
 * pane's scroll: only the items on screen are in the DOM, whatever the rollout's size.
 */
export function Transcript({
  input,
  count,
  itemAt,
  onRange,
  selected,
  selectedItem,
  onSelect,
  outcomeOf,
}: Props) {
  const [showPrompt, setShowPrompt] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const { scroller, margin } = useScrollMargin(list);
  const virtual = useLongList({
    // No items until the pane is laid out (its scroller is found after the browser's first layout): the
    // transcript sits below the header, verification and calls, and its code blocks are the costliest part
    // of the pane to lay out and paint, so a newly opened rollout's first frame leaves them to the next.
    count: scroller === null ? 0 : count,
    estimate: estimateWithin(count, ITEM_ESTIMATE, ITEM_GAP),
    gap: ITEM_GAP,
    overscan: ITEM_OVERSCAN,
    scroller,
    margin,
    // No layout reads while the items commit: sizes come from ResizeObservers (components/virtual.ts).
    initialHeight: INITIAL_PANE_PX,
  });
  const { rows } = virtual;
  useVisibleRange(rows, onRange);
  const shown = useRef<HTMLDivElement>(null);
  useReveal(virtual, scroller, shown, selectedItem);
  return (
    <div className={styles.transcript}>
      {input.length > 0 && (
        <div className={styles.prompt}>
          <button type="button" className="link-button" onClick={() => setShowPrompt(!showPrompt)}>
            {showPrompt ? "hide" : "show"} prompt ({input.length} message{input.length === 1 ? "" : "s"})
          </button>
          {showPrompt &&
            input.map((message, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: prompt messages have no ids.
              <div className={cx(styles.item, styles[`role_${message.role}`])} key={index}>
                <div className={styles.itemHead}>{message.role}</div>
                <FoldedText text={message.text} />
              </div>
            ))}
        </div>
      )}
      <div
        ref={list}
        className={longList.space}
        data-testid="transcript-space"
        style={{ height: virtual.total }}
        data-items={count}
        data-scroll-margin={Math.round(margin)}
      >
        <div
          ref={shown}
          className={styles.transcriptWindow}
          data-testid="transcript-window"
          style={{ transform: `translateY(${rows[0]?.start ?? 0}px)` }}
        >
          {rows.map(({ index }) => {
            const item = itemAt(index);
            if (!item) {
              return (
                <div
                  key={index}
                  className={cx(styles.item, "muted")}
                  data-pending
                  data-index={index}
                  ref={virtual.measure}
                >
                  item {index}…
                </div>
              );
            }
            const outcome = item.kind === "call" && outcomeOf ? outcomeOf(item.call_index) : NO_OUTCOME;
            return (
              <div
                key={index}
                ref={virtual.measure}
                data-index={index}
                className={itemClass(item, selected)}
                {...(item.kind === "call"
                  ? {
                      id: `call-${item.call_index}`,
                      "aria-current": selected === item.call_index,
                      "data-transcript-call": item.call_index,
                      "data-outcome": outcome.badge?.kind,
                    }
                  : {})}
              >
                <Item item={item} onSelect={onSelect} outcome={outcome} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
