"use client";
import type { Virtualizer } from "@tanstack/react-virtual";
import { type RefObject, useEffect } from "react";

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
