"use client";
import { useCallback, useInsertionEffect, useRef } from "react";

/**
 * `value`, or the value returned before while `same(before, value)`: a prop rebuilt at every render (a session
 * event's new summary, a list recomputed from new rows) keeps its identity, so a memoized pane skips the render.
 */
export function useStable<T>(value: T, same: (before: T, next: T) => boolean): T {
  const kept = useRef(value);
  // A render React throws away leaves `kept` holding a value equal to the one it had: nothing observable.
  if (kept.current !== value && !same(kept.current, value)) kept.current = value;
  return kept.current;
}

/**
 * A function of stable identity that calls the latest `fn`: a handler passed to a memoized pane (it closes
 * over the dataset, the filter, the marks) does not make the pane render again when only those change.
 * Called from event handlers only, never during render.
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  useInsertionEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}

/** Two string lists with the same items in the same order (the agents, the servers). */
export function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, at) => item === b[at]);
}
