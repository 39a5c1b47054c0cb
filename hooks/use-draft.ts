"use client";
import { useCallback, useEffect, useRef, useState } from "react";

/** Typing settles this long before the text is written to the URL. */
export const DRAFT_COMMIT_MS = 250;

/**
 * A text field whose committed value lives in the URL. The field shows its own draft, so keystrokes are
 * never replaced by an older URL value arriving late (which dropped characters when the field read the URL
 * directly); the draft is written after typing settles. A URL change that is not our own pending write
 * (back/forward, a "clear" button) replaces the draft.
 */
export function useDraft(value: string, commit: (value: string) => void): [string, (value: string) => void] {
  const [draft, setDraft] = useState(value);
  const pending = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const commitRef = useRef(commit);
  commitRef.current = commit;

  useEffect(() => {
    if (pending.current !== null && pending.current !== value) return;
    pending.current = null;
    setDraft(value);
  }, [value]);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const change = useCallback((next: string) => {
    setDraft(next);
    pending.current = next;
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      commitRef.current(next);
    }, DRAFT_COMMIT_MS);
  }, []);
  return [draft, change];
}
