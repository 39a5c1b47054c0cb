"use client";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { LEGACY_FILTER_PARAMS, parseViewState, serializeViewState, type ViewState } from "./view-state";

export type ViewUpdate = Partial<ViewState> | ((state: ViewState) => Partial<ViewState>);
export type SetView = (update: ViewUpdate, options?: { push?: boolean }) => void;

/** Writes the router has not shown yet, after the params it showed last (`base`). */
interface Pending {
  readonly base: string;
  readonly writes: readonly string[];
}

/**
 * The search params to show: the latest write while the router's params are those it had before the writes
 * or one of them (it shows History API writes in a transition, one at a time); the router's own once it
 * has moved anywhere else (a link, back or forward).
 */
export function shownSearch(params: string, pending: Pending | null): string {
  if (pending === null || (params !== pending.base && !pending.writes.includes(params))) return params;
  return pending.writes.at(-1) ?? params;
}

/** The pending writes once `written` is written, the router showing `params`. */
export function afterWrite(pending: Pending | null, params: string, written: string): Pending {
  const at = pending?.writes.indexOf(params) ?? -1;
  const kept =
    pending !== null && at !== -1
      ? pending.writes.slice(at + 1)
      : pending !== null && params === pending.base
        ? pending.writes
        : [];
  return { base: params, writes: [...kept, written] };
}

/**
 * The view state, read from and written to the URL search params. Writes use the History API, which
 * Next keeps in sync with useSearchParams, so nothing re-renders on the server.
 * `push` adds a history entry (opening a rollout); the default replaces (typing, filters).
 */
export function useViewState(): [ViewState, SetView] {
  const params = useSearchParams();
  const routed = params.toString();
  // Each write is shown at once, in the event's own render: Next learns of a History API write in a
  // transition (a render of the whole router, yielding to the browser), and n/p waited for it to select
  // the next call (bench/hostile-browser.md).
  const [pending, setPending] = useState<Pending | null>(null);
  // The params the router has committed (not those of a render React may still throw away).
  const seen = useRef(routed);
  useLayoutEffect(() => {
    seen.current = routed;
    // Caught up: the writes are the router's now, so a later move back to their base is the router's too.
    if (pending !== null && routed === pending.writes.at(-1)) setPending(null);
  }, [routed, pending]);
  // Back and Forward are the router's to show, even before it has shown the writes they leave.
  useEffect(() => {
    const popped = () => setPending(null);
    window.addEventListener("popstate", popped);
    return () => window.removeEventListener("popstate", popped);
  }, []);
  const search = shownSearch(routed, pending);
  const state = useMemo(() => parseViewState(new URLSearchParams(search)), [search]);
  const update = useCallback((change: ViewUpdate, options: { push?: boolean } = {}) => {
    const current = parseViewState(new URLSearchParams(window.location.search));
    const patch = typeof change === "function" ? change(current) : change;
    const next = serializeViewState({ ...current, ...patch }).toString();
    const url = next ? `?${next}` : window.location.pathname;
    if (options.push) window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
    setPending((before) => afterWrite(before, seen.current, next));
  }, []);
  // An old link's filter parameters are rewritten once as clauses of `f` (parseViewState reads them).
  useEffect(() => {
    if (LEGACY_FILTER_PARAMS.some((name) => params.has(name))) update({});
  }, [params, update]);
  return [state, update];
}

/**
 * Whether Back or Forward reached a URL without a line, so no rollout is open: the list's first-row default
 * is for a file just opened or a new filter, never for a Back past the first rollout opened (it would
 * re-open line 1, and Back would never seem to close anything). Opening a rollout ends it.
 */
export function useClosedByBack(line: number | null): boolean {
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    const popped = () => setClosed(!new URLSearchParams(window.location.search).has("line"));
    window.addEventListener("popstate", popped);
    return () => window.removeEventListener("popstate", popped);
  }, []);
  useEffect(() => {
    if (line !== null) setClosed(false);
  }, [line]);
  return closed && line === null;
}
