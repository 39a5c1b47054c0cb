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

/** Frames spent bringing a row into view while the rows around it are measured. */
const REVEAL_FRAMES = 30;

/**
 * Scrolls row `index` of a virtualized list into view when it changes (a selected call). The virtualizer
 * scrolls by estimated heights; once the row is rendered, the browser places it exactly, frame after
 * frame until the rows measured around it stop moving it.
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
    let frame = 0;
    let handle = 0;
    const settle = () => {
      const row = rows.current?.querySelector<HTMLElement>(`:scope > [data-index="${index}"]`);
      if (row) {
        const box = row.getBoundingClientRect();
        const view = scroller.getBoundingClientRect();
        // The row's head on screen is enough: a row taller than the view is shown from its start.
        if (box.top < view.top || box.top > view.bottom - Math.min(box.height, view.height / 4)) {
          row.scrollIntoView({ block: box.height > view.height ? "start" : "nearest" });
        }
      }
      if (++frame < REVEAL_FRAMES) handle = requestAnimationFrame(settle);
    };
    handle = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(handle);
  }, [index, scroller, rows, virtualizer]);
}
