"use client";
import { elementScroll, type Rect, type Virtualizer, type VirtualizerOptions } from "@tanstack/react-virtual";
import { type RefObject, useEffect } from "react";

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

/**
 * A row's height from the virtualizer's ResizeObserver only. The library's default reads `offsetHeight` when
 * a row's ref attaches, once per new row, each a forced layout inside React's commit (with the rect read
 * above, most of the 80-90 ms task when a rollout's detail opens). Until the observer reports (after the
 * browser's layout, before paint) a row keeps its last measured size or the estimate.
 */
export function measureAfterLayout<S extends Element>(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<S, Element>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  return (
    instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index)
  );
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
export function useReveal<S extends Element>(
  virtualizer: Virtualizer<S, Element>,
  scroller: HTMLElement | null,
  rows: RefObject<HTMLElement | null>,
  index: number | null,
): void {
  useEffect(() => {
    if (index === null || scroller === null || index >= virtualizer.options.count) return;
    virtualizer.scrollToIndex(index, { align: "auto" });
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
  }, [index, scroller, rows, virtualizer]);
}

/**
 * The options that keep a list's layout reads out of React's commit (the three functions above), for a list
 * whose scroller is assumed `initialHeight` tall until its ResizeObserver reports. Lists whose rows vary in
 * height add `measureElement: measureAfterLayout`.
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
export function useVisibleRange<S extends Element>(
  virtualizer: Virtualizer<S, Element>,
  onRange: (start: number, end: number) => void,
): void {
  const rows = virtualizer.getVirtualItems();
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
