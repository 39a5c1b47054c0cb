"use client";
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { type CompareState, parseCompareState, serializeCompareState } from "./state";

export type CompareUpdate = Partial<CompareState> | ((state: CompareState) => Partial<CompareState>);

/**
 * The /compare state, read from and written to the URL search params through the History API (which
 * Next keeps in sync with useSearchParams). `push` adds a history entry; the default replaces.
 */
export function useCompareState(): [
  CompareState,
  (update: CompareUpdate, options?: { push?: boolean }) => void,
] {
  const params = useSearchParams();
  const state = useMemo(() => parseCompareState(new URLSearchParams(params.toString())), [params]);
  const update = useCallback((change: CompareUpdate, options: { push?: boolean } = {}) => {
    const current = parseCompareState(new URLSearchParams(window.location.search));
    const patch = typeof change === "function" ? change(current) : change;
    const next = serializeCompareState({ ...current, ...patch }).toString();
    const url = next ? `?${next}` : window.location.pathname;
    if (options.push) window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
  }, []);
  return [state, update];
}
