"use client";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo } from "react";
import { LEGACY_FILTER_PARAMS, parseViewState, serializeViewState, type ViewState } from "./view-state";

export type ViewUpdate = Partial<ViewState> | ((state: ViewState) => Partial<ViewState>);
export type SetView = (update: ViewUpdate, options?: { push?: boolean }) => void;

/**
 * The view state, read from and written to the URL search params. Writes use the History API, which
 * Next keeps in sync with useSearchParams, so nothing re-renders on the server.
 * `push` adds a history entry (opening a rollout); the default replaces (typing, filters).
 */
export function useViewState(): [ViewState, SetView] {
  const params = useSearchParams();
  const state = useMemo(() => parseViewState(new URLSearchParams(params.toString())), [params]);
  const update = useCallback((change: ViewUpdate, options: { push?: boolean } = {}) => {
    const current = parseViewState(new URLSearchParams(window.location.search));
    const patch = typeof change === "function" ? change(current) : change;
    const next = serializeViewState({ ...current, ...patch }).toString();
    const url = next ? `?${next}` : window.location.pathname;
    if (options.push) window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
  }, []);
  // An old link's filter parameters are rewritten once as clauses of `f` (parseViewState reads them).
  useEffect(() => {
    if (LEGACY_FILTER_PARAMS.some((name) => params.has(name))) update({});
  }, [params, update]);
  return [state, update];
}
