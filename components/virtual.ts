"use client";
import { elementScroll, type Rect, type Virtualizer, type VirtualizerOptions } from "@tanstack/react-virtual";
import { type RefObject, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { RowOffsets } from "./row-offsets";

/**
 * A virtualized list's scroller size, from a ResizeObserver only. The library's default also reads it when
 * the list mounts, which forces a layout of the whole new page inside React's commit (the longest
 * main-thread task when the first rows appear and when a rollout opens, bench/browser.md). The observer
 * reports after the browser's own layout instead; until then the list assumes its `initialRect`.
 */
export function observeRectAfterLayout<S extends Element>(
  instance: Virtualizer<S, Element>,
  cb: (rect: Rect) => void,
) {
  const element = instance.scrollElement;
  if (!element || typeof ResizeObserver === "undefined") return;
  const observer = new ResizeObserver((entries) => {
    const box = entries[0]?.borderBoxSize?.[0];
    if (box) cb({ width: Math.round(box.inlineSize), height: Math.round(box.blockSize) });
    else cb({ width: element.clientWidth, height: element.clientHeight });
  });
  observer.observe(element);
  return () => observer.disconnect();
}

const attachedTo = new WeakMap<object, Element>();
const deferred = new WeakMap<object, number>();

/**
 * The library's scroll write, except the one it makes when it attaches to its scroller (to its initial
 * offset, 0): `scrollTo` forces a layout of the whole new page inside React's commit. That write waits for
 * the next animation frame, where the browser lays out anyway; any later write replaces it.
 */
export function scrollAfterLayout<S extends Element>(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<S, Element>,
): void {
  const waiting = deferred.get(instance);
  if (waiting !== undefined) {
    cancelAnimationFrame(waiting);
    deferred.delete(instance);
  }
  const element = instance.scrollElement;
  if (element !== null && attachedTo.get(instance) !== element) {
    attachedTo.set(instance, element);
    const handle = requestAnimationFrame(() => {
      deferred.delete(instance);
      if (instance.scrollElement === element) elementScroll(offset, options, instance);
    });
    deferred.set(instance, handle);
    return;
  }
  elementScroll(offset, options, instance);
}

/** The nearest ancestor that scrolls vertically (the detail pane), or null. */
export function scrollParent(element: HTMLElement | null): HTMLElement | null {
  for (let at = element?.parentElement ?? null; at !== null; at = at.parentElement) {
    const overflow = getComputedStyle(at).overflowY;
    if (overflow === "auto" || overflow === "scroll") return at;
  }
  return null;
}

/** Longest time spent bringing a row into view while its page arrives and the rows around it are measured. */
const REVEAL_MS = 3_000;
/** Frames the row must stay in place before the list stops correcting it. */
const STILL_FRAMES = 5;

/**
 * Scrolls row `index` of a virtualized list into view in its scroller when it changes (a selected call).
 * The virtualizer scrolls by estimated heights; once the row is rendered its real position is known, and
 * it is corrected frame after frame until the rows measured around it stop moving it.
 */
export function useReveal(
  list: Pick<LongList, "count" | "scrollToIndex">,
  scroller: HTMLElement | null,
  rows: RefObject<HTMLElement | null>,
  index: number | null,
): void {
  const { count, scrollToIndex } = list;
  useEffect(() => {
    if (index === null || scroller === null || index >= count) return;
    scrollToIndex(index);
    const deadline = performance.now() + REVEAL_MS;
    let still = 0;
    let handle = 0;
    const settle = () => {
      const before = scroller.scrollTop;
      // The row itself, not the placeholder shown while its page is on its way (it has another height).
      const row = rows.current?.querySelector<HTMLElement>(
        `:scope > [data-index="${index}"]:not([data-pending])`,
      );
      if (row) {
        const box = row.getBoundingClientRect();
        const view = scroller.getBoundingClientRect();
        // Only this list's scroller moves (never the page around it). A row taller than the view is shown
        // from its start, any other whole: the nearest edge.
        if (box.top < view.top || box.height > view.height) scroller.scrollTop += box.top - view.top;
        else if (box.bottom > view.bottom) scroller.scrollTop += box.bottom - view.bottom;
      }
      // Done once it stays put: a scroll by the user after that is theirs.
      still = row && scroller.scrollTop === before ? still + 1 : 0;
      if (performance.now() < deadline && still < STILL_FRAMES) handle = requestAnimationFrame(settle);
    };
    handle = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(handle);
  }, [index, scroller, rows, count, scrollToIndex]);
}

/**
 * The options that keep a list's layout reads out of React's commit (the two functions above), for a list
 * whose scroller is assumed `initialHeight` tall until its ResizeObserver reports.
 */
export function afterLayout<S extends Element>(
  initialHeight: number,
): Pick<VirtualizerOptions<S, Element>, "initialRect" | "observeElementRect" | "scrollToFn"> {
  return {
    initialRect: { width: 0, height: initialHeight },
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollAfterLayout,
  };
}

/** Reports the range of rows on screen (end exclusive) whenever it changes, so their pages are fetched. */
export function useVisibleRange(
  rows: readonly LongListRow[],
  onRange: (start: number, end: number) => void,
): void {
  const first = rows[0]?.index ?? 0;
  const last = rows[rows.length - 1]?.index ?? -1;
  useEffect(() => {
    if (last >= first) onRange(first, last + 1);
  }, [first, last, onRange]);
}

/**
 * The tallest list this app lets a virtualizer lay out, in px. Browsers clamp an element's height (Chromium
 * near 2^25 px, Firefox lower), and past it scroll offsets no longer map to rows: a 200k-item transcript
 * at 168 px per item is 33.6M px, and scrolling to its item 1 showed item 740.
 */
export const MAX_LIST_PX = 15_000_000;

/**
 * A row's height before it is measured: `preferred`, or less when `count` rows of it (and `gap` between
 * them) would pass MAX_LIST_PX. Measured rows keep their real height.
 */
export function estimateWithin(count: number, preferred: number, gap = 0): number {
  if (count <= 0) return preferred;
  return Math.max(1, Math.min(preferred, Math.floor(MAX_LIST_PX / count) - gap));
}

/** One row of a long list to render: its index and its top, in px from the list's top. */
export interface LongListRow {
  readonly index: number;
  readonly start: number;
}

export interface LongList {
  readonly count: number;
  /** The rows on screen and `overscan` more on each side, in order. */
  readonly rows: readonly LongListRow[];
  /** The list's height (every row, measured or estimated, and the gaps). */
  readonly total: number;
  /** Ref for each rendered row (it carries `data-index`): its size is measured by a ResizeObserver. */
  readonly measure: (element: HTMLElement | null) => (() => void) | undefined;
  /** Scrolls the scroller the least that shows row `index` (by the sizes known so far). */
  scrollToIndex(index: number): void;
}

export interface LongListOptions {
  count: number;
  /** A row's height before it is measured. */
  estimate: number;
  /** Space between rows, in px (the list's CSS gap). */
  gap?: number;
  overscan: number;
  /** The element that scrolls (the list's own box or an ancestor); null until it is known. */
  scroller: HTMLElement | null;
  /** Where the list starts inside the scroller's content, in px (0 when the list is the scroller's content). */
  margin?: number;
  /** The scroller's height until its ResizeObserver reports. */
  initialHeight: number;
}

/**
 * A virtualized list for rollouts of 100k calls and 200k transcript items (components/row-offsets.ts): a
 * measured row, a scroll or a changed margin costs O(log n) plus the rows on screen, never a pass over every
 * row. Layout is read only in ResizeObserver callbacks and scroll events (after the browser's own layout),
 * never while React commits. When a row above the top of the view changes size the scroller moves by as
 * much, so what is on screen stays in place.
 */
export function useLongList({
  count,
  estimate,
  gap = 0,
  overscan,
  scroller,
  margin = 0,
  initialHeight,
}: LongListOptions): LongList {
  const offsets = useMemo(() => new RowOffsets(count, estimate, gap), [count, estimate, gap]);
  const [, setVersion] = useState(0);
  const [height, setHeight] = useState(initialHeight);
  const top = useRef(0);
  const shown = useRef({ first: -1, last: -1 });
  // What the scroll, resize and scroll-to callbacks read: the committed render's (a render React discards,
  // such as an interrupted deferred one, must not leave its offsets to be measured into).
  const live = useRef({ offsets, scroller, margin, height });
  useLayoutEffect(() => {
    live.current = { offsets, scroller, margin, height };
  });

  const range = useCallback(
    (at: number, list: RowOffsets, view: number, from: number) => {
      if (list.count === 0) return { first: 0, last: -1 };
      const offset = at - from;
      return {
        first: Math.max(0, list.indexAt(Math.max(0, offset)) - overscan),
        last: Math.min(list.count - 1, list.indexAt(offset + view) + overscan),
      };
    },
    [overscan],
  );

  // The scroller: its height from a ResizeObserver, its offset from scroll events (a render only when the
  // rows to show change).
  useEffect(() => {
    if (scroller === null) return;
    const onScroll = () => {
      top.current = scroller.scrollTop;
      const { offsets: list, margin: from, height: view } = live.current;
      const next = range(top.current, list, view, from);
      // At once, as the scroll happens (as TanStack Virtual does): a render left to React's scheduler came a
      // frame or more later, and n/p (which scroll to the selected call) waited for it.
      if (next.first !== shown.current.first || next.last !== shown.current.last)
        flushSync(() => setVersion((v) => v + 1));
    };
    scroller.addEventListener("scroll", onScroll, { passive: true });
    let observer: ResizeObserver | null = null;
    if (typeof ResizeObserver !== "undefined") {
      observer = new ResizeObserver((entries) => {
        const box = entries[0]?.borderBoxSize?.[0];
        top.current = scroller.scrollTop;
        setHeight(Math.round(box ? box.blockSize : scroller.clientHeight));
        setVersion((v) => v + 1);
      });
      observer.observe(scroller);
    }
    return () => {
      scroller.removeEventListener("scroll", onScroll);
      observer?.disconnect();
    };
  }, [scroller, range]);

  // The rows: one ResizeObserver for every rendered row of this list.
  const rowObserver = useRef<ResizeObserver | null>(null);
  const observed = useRef(new Set<Element>());
  const rowsObserver = useCallback(() => {
    if (rowObserver.current !== null || typeof ResizeObserver === "undefined") return rowObserver.current;
    rowObserver.current = new ResizeObserver((entries) => {
      const { offsets: list, scroller: element, margin: from } = live.current;
      const scrolled = element === null ? 0 : element.scrollTop;
      const viewTop = scrolled - from;
      // The view's bottom at the list's end (scrolled to its last row): it stays there, whichever rows
      // change (rows on screen growing as their page or badges arrive pushed the last calls off the end
      // of a 3,000-call list). By the list's own height: the scroller's scrollHeight also counts rows that
      // overflow the list before they are measured.
      const view = element === null ? 0 : element.clientHeight;
      const end = from + list.total();
      const atEnd = element !== null && end > view && Math.abs(scrolled + view - end) <= 2;
      let changed = false;
      let shift = 0;
      for (const entry of entries) {
        const index = Number(entry.target.getAttribute("data-index"));
        if (!entry.target.isConnected || !Number.isInteger(index) || index >= list.count) continue;
        const box = entry.borderBoxSize?.[0];
        const size = box ? box.blockSize : entry.contentRect.height;
        const start = list.start(index);
        const before = list.size(index);
        const first = !list.isMeasured(index);
        const delta = list.set(index, size);
        if (delta === 0) continue;
        changed = true;
        // A row above the view's top: keep what is on screen in place. A row already measured that spans
        // the top grows below it (a folded text opened): nothing on screen moves, so neither does the view.
        if (first ? start < viewTop : start + before <= viewTop) shift += delta;
      }
      if (!changed) return;
      if (element === null || (shift === 0 && !atEnd)) {
        setVersion((v) => v + 1);
        return;
      }
      // The list's new height first, then the scroll, to where it was meant to be (not by a delta): the
      // browser clamps scrollTop to the content's height, cutting a move past the old end short, and has
      // already moved it up by itself when the content shrank at the end.
      flushSync(() => setVersion((v) => v + 1));
      element.scrollTop = atEnd ? from + list.total() - view : scrolled + shift;
    });
    return rowObserver.current;
  }, []);
  useEffect(
    () => () => {
      rowObserver.current?.disconnect();
      rowObserver.current = null;
      observed.current.clear();
    },
    [],
  );
  // New offsets (another count): the rows on screen report their sizes again.
  useEffect(() => {
    const observer = rowObserver.current;
    if (observer === null || offsets.count === 0) return;
    for (const element of observed.current) {
      observer.unobserve(element);
      observer.observe(element);
    }
  }, [offsets]);
  const measure = useCallback(
    (element: HTMLElement | null) => {
      const observer = rowsObserver();
      if (element === null || observer === null) return undefined;
      observer.observe(element);
      observed.current.add(element);
      return () => {
        observer.unobserve(element);
        observed.current.delete(element);
      };
    },
    [rowsObserver],
  );

  const scrollToIndex = useCallback((index: number) => {
    const { offsets: list, scroller: element, margin: from, height: view } = live.current;
    if (element === null || index < 0 || index >= list.count) return;
    const start = from + list.start(index);
    const end = start + list.size(index);
    const at = element.scrollTop;
    if (start < at) element.scrollTop = start;
    else if (end > at + view) element.scrollTop = Math.min(start, end - view);
  }, []);

  const { first, last } = range(top.current, offsets, height, margin);
  shown.current = { first, last };
  const rows: LongListRow[] = [];
  for (let index = first; index <= last; index++) rows.push({ index, start: offsets.start(index) });
  return { count: offsets.count, rows, total: offsets.total(), measure, scrollToIndex };
}
