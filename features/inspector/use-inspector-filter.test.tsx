import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { DatasetSummary, RolloutIndexEntry } from "@/hooks/types";
import { datasetSummary, entry } from "./test-helpers";
import { answerLines, useInspectorFilter } from "./use-inspector-filter";
import { DEFAULT_VIEW, type ViewState } from "./view-state";

// The data layer's answers, faked at the hook boundary: the index, the byte search and the run view.
const worker = vi.hoisted(() => ({
  index: { data: undefined as readonly unknown[] | undefined, isSuccess: true, isPlaceholderData: false },
  search: {
    data: undefined as { text: string; lines: ReadonlySet<number>; ms: number | null } | undefined,
    isFetching: false,
    isPlaceholderData: false,
  },
  run: { data: undefined as { filter: string; lines: readonly number[] } | undefined },
}));
vi.mock("@/hooks/data", () => ({
  useRolloutIndex: () => worker.index,
  useSearch: () => worker.search,
}));
const runViewCalls = vi.hoisted(() => [] as unknown[][]);
vi.mock("@/features/run/data", () => ({
  useRunView: (...args: unknown[]) => {
    runViewCalls.push(args);
    return worker.run;
  },
}));

const ROWS: RolloutIndexEntry[] = [
  entry(1, { agent: "a", recorded: 0 }),
  entry(2, { agent: "b", recorded: 0 }),
  entry(3, { agent: "b", recorded: 1 }),
  entry(4, { agent: "b", recorded: 0 }),
];

function renderList(
  view: Partial<ViewState> = {},
  dataset: DatasetSummary | null = datasetSummary(),
  busy = false,
) {
  return renderHook(() => useInspectorFilter(dataset, { ...DEFAULT_VIEW, ...view }, busy)).result.current;
}

beforeEach(() => {
  worker.index = { data: ROWS, isSuccess: true, isPlaceholderData: false };
  worker.search = { data: undefined, isFetching: false, isPlaceholderData: false };
  worker.run = { data: undefined };
});

describe("the one filter's list", () => {
  it("without a filter lists every row and opens the first", () => {
    const list = renderList();
    expect(list.rows.map((r) => r.line)).toEqual([1, 2, 3, 4]);
    expect(list.selectedEntry?.line).toBe(1);
    expect(list.agents).toEqual(["a", "b"]);
  });

  it("Back to a URL without a line closes the rollout instead of re-opening the first row; opening one ends it", () => {
    window.history.replaceState(null, "", "/?sample=s");
    let view: Partial<ViewState> = { line: 3 };
    const { result, rerender } = renderHook(() =>
      useInspectorFilter(datasetSummary(), { ...DEFAULT_VIEW, ...view }, false),
    );
    expect(result.current.selectedLine).toBe(3);
    // Back: the URL before the first rollout opened has no line.
    view = { line: null };
    act(() => window.dispatchEvent(new PopStateEvent("popstate")));
    rerender();
    expect(result.current.selectedLine).toBeNull();
    expect(result.current.selectedEntry).toBeNull();
    // Opening a rollout again, then a filter that drops the line: the first row is the default again.
    view = { line: 2 };
    rerender();
    expect(result.current.selectedLine).toBe(2);
    view = { line: null, f: "agent:b" };
    rerender();
    expect(result.current.selectedLine).toBe(2);
    // Forward to a URL with a line is no close.
    window.history.replaceState(null, "", "/?sample=s&line=4");
    view = { line: 4 };
    act(() => window.dispatchEvent(new PopStateEvent("popstate")));
    rerender();
    expect(result.current.selectedLine).toBe(4);
    window.history.replaceState(null, "", "/");
  });

  it("narrows by the filter's clauses, and by the run view's answer for this very filter", () => {
    expect(renderList({ f: "agent:b recorded:0" }).rows.map((r) => r.line)).toEqual([2, 4]);
    worker.run = { data: { filter: "agent:b recorded:0", lines: [4] } };
    expect(renderList({ f: "agent:b recorded:0" }).rows.map((r) => r.line)).toEqual([4]);
    // A previous filter's answer is not applied to this one.
    worker.run = { data: { filter: "agent:b", lines: [3] } };
    expect(renderList({ f: "agent:b recorded:0" }).rows.map((r) => r.line)).toEqual([2, 4]);
  });

  it("its text clause keeps the worker's search matches, and the search is done once they are all in", () => {
    worker.search = {
      data: { text: "needle", lines: new Set([3]), ms: 12 },
      isFetching: false,
      isPlaceholderData: false,
    };
    const list = renderList({ f: "text:needle" });
    expect(list.rows.map((r) => r.line)).toEqual([3]);
    expect(list.searchDone).toBe(true);
    worker.search = { ...worker.search, isFetching: true };
    expect(renderList({ f: "text:needle" }).searchDone).toBe(false);
  });

  it("one reward setting: the zero tile counts zeros in it, and the run view (breakdown, pass@k) is asked in it", () => {
    worker.index = {
      data: [
        entry(1, { recorded: 0, contract: 1 }),
        entry(2, { recorded: 0, contract: 0 }),
        entry(3, { recorded: 1, contract: 0 }),
        // A recomputation still pending is not yet a zero.
        entry(4, { recorded: 1, contract: 0, rewards: "pending" }),
      ],
      isSuccess: true,
      isPlaceholderData: false,
    };
    expect(renderList().counts.zero).toBe(2);
    expect(runViewCalls.at(-1)?.[2]).toBe("recorded");
    expect(renderList({ reward: "contract" }).counts.zero).toBe(2);
    expect(renderList({ reward: "contract" }).rows).toHaveLength(4);
    expect(runViewCalls.at(-1)?.[2]).toBe("contract");
    expect(renderList({ reward: "legacy" }).counts.zero).toBe(0);
  });

  it("the URL's line stays open when the filter leaves it out of the list", () => {
    const list = renderList({ f: "agent:a", line: 3 });
    expect(list.rows.map((r) => r.line)).toEqual([1]);
    expect(list.selectedEntry?.line).toBe(3);
  });
});

describe("the workspace's readiness flags", () => {
  it("ready and rewarded once the file is read and the list holds the index's answer", () => {
    expect(renderList()).toMatchObject({ ready: true, rewarded: true });
  });

  it("ready but not rewarded while rewards fill in", () => {
    expect(renderList({}, datasetSummary({ rewarded: 2 }))).toMatchObject({ ready: true, rewarded: false });
  });

  it("not ready while the file streams, files load or re-analyse, or the index shows a previous revision", () => {
    expect(renderList({}, datasetSummary({ indexed: false })).ready).toBe(false);
    expect(renderList({}, datasetSummary(), true).ready).toBe(false);
    worker.index = { data: ROWS, isSuccess: true, isPlaceholderData: true };
    expect(renderList()).toMatchObject({ ready: false, rewarded: false });
  });
});

describe("answerLines", () => {
  const answer = (text: string) => ({ text, lines: new Set([1, 2]) });
  it("decides the text clause with this text's answer, or one the typed text holds (no match hidden)", () => {
    expect(answerLines("refund", answer("refund"))?.size).toBe(2);
    expect(answerLines(" Refunds ", answer("refund"))?.size).toBe(2);
    // Another text's answer (a word deleted, another word) decides nothing until this text's arrives.
    expect(answerLines("refun", answer("refund"))).toBeNull();
    expect(answerLines("charge", answer("refund"))).toBeNull();
    expect(answerLines("", answer("refund"))).toBeNull();
    expect(answerLines("refund", undefined)).toBeNull();
  });
});
