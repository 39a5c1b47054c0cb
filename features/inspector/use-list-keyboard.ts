"use client";
import type { RefObject } from "react";
import type { RolloutIndexEntry } from "@/hooks/types";
import { useKeyboard } from "@/hooks/use-keyboard";
import { stepCall, stepRollout } from "./inspector-state";
import type { SetView } from "./use-view-state";

/**
 * The list's keys: j/k open the next/previous listed rollout, n/p select its next/previous call, / focuses the
 * search box and Escape leaves it (or any text field: the filter box too, so j/k move the list again). Each
 * move is a functional update that reads the URL, so fast key repeats never act on a stale selection.
 */
export function useListKeyboard(options: {
  /** The listed rows, in list order. */
  readonly rows: readonly RolloutIndexEntry[];
  /** Every row of the file (the open rollout may be filtered out of the list). */
  readonly entries: readonly RolloutIndexEntry[];
  /** The rollout open when the URL names none. */
  readonly firstLine: number | null;
  readonly setView: SetView;
  readonly searchInput: RefObject<HTMLInputElement | null>;
}): void {
  const { rows, entries, firstLine, setView, searchInput } = options;
  const moveRollout = (delta: number) =>
    setView((state) => {
      const line = stepRollout(rows, state.line ?? firstLine, delta);
      return line === null ? {} : { line, call: null };
    });
  const moveCall = (delta: number) =>
    setView((state) => {
      const line = state.line ?? firstLine;
      const entry = entries.find((candidate) => candidate.line === line);
      const call = entry ? stepCall(entry.calls, state.call, delta) : null;
      return entry && call !== null ? { line: entry.line, call } : {};
    });
  useKeyboard({
    j: () => moveRollout(1),
    k: () => moveRollout(-1),
    n: () => moveCall(1),
    p: () => moveCall(-1),
    "/": () => searchInput.current?.focus(),
    escape: () => {
      const typing = document.activeElement;
      if (typing instanceof HTMLInputElement || typing instanceof HTMLTextAreaElement) typing.blur();
    },
  });
}
