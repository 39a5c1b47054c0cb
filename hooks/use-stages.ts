"use client";
import { startTransition, useEffect, useState } from "react";

/**
 * How many of a view's `stages` parts to mount: 1 on the render where `key` appears (or changes), then one
 * more per task, each in a background (interruptible) render. A big view's first mount is then a few short
 * tasks, each with its own commit, style and layout, instead of one long one (bench/main-thread.md).
 */
export function useStages(key: string | null, stages: number): number {
  const [state, setState] = useState({ key, shown: 1 });
  const current = state.key === key;
  // A new key starts over at once, in this render (React's state-from-previous-render pattern).
  if (!current) setState({ key, shown: 1 });
  const shown = current ? state.shown : 1;
  useEffect(() => {
    if (key === null || shown >= stages) return;
    // A task of its own: the stage before is committed and can be painted first.
    const timer = setTimeout(() => startTransition(() => setState({ key, shown: shown + 1 })), 0);
    return () => clearTimeout(timer);
  }, [key, shown, stages]);
  return key === null ? 1 : shown;
}
