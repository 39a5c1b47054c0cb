import { fireEvent, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { RolloutIndexEntry } from "@/hooks/types";
import { entry } from "./test-helpers";
import { useListKeyboard } from "./use-list-keyboard";
import type { ViewUpdate } from "./use-view-state";
import { DEFAULT_VIEW, type ViewState } from "./view-state";

/** The list's keys over rows, with the URL's view state that each key updates. */
function renderKeys(rows: readonly RolloutIndexEntry[], entries = rows, start: Partial<ViewState> = {}) {
  const page = { view: { ...DEFAULT_VIEW, ...start } };
  const setView = vi.fn((update: ViewUpdate) => {
    page.view = { ...page.view, ...(typeof update === "function" ? update(page.view) : update) };
  });
  const searchInput: { current: HTMLInputElement | null } = { current: null };
  renderHook(() =>
    useListKeyboard({ rows, entries, firstLine: rows[0]?.line ?? null, setView, searchInput }),
  );
  const press = (key: string, target: Element = document.body) => fireEvent.keyDown(target, { key });
  return { page, press, searchInput, setView };
}

describe("useListKeyboard", () => {
  const rows = [entry(1, { calls: 0 }), entry(4, { calls: 3 }), entry(7, { calls: 1 })];

  it("j and k move through the listed rollouts from the first one shown, and clear the call", () => {
    const { page, press } = renderKeys(rows, rows, { call: "2" });
    press("j");
    expect(page.view).toMatchObject({ line: 4, call: null });
    press("j");
    press("j");
    expect(page.view.line).toBe(7);
    press("k");
    expect(page.view.line).toBe(4);
  });

  it("each key reads the state it updates, so quick repeats never act on a stale line", () => {
    const { page, press } = renderKeys(rows);
    press("j");
    press("j");
    expect(page.view.line).toBe(7);
  });

  it("n and p step through the open rollout's calls; p first takes the last", () => {
    const { page, press } = renderKeys(rows, rows, { line: 4 });
    press("n");
    expect(page.view).toMatchObject({ line: 4, call: "0" });
    press("n");
    expect(page.view.call).toBe("1");
    press("p");
    expect(page.view.call).toBe("0");
    const fresh = renderKeys(rows, rows, { line: 4 });
    fresh.press("p");
    expect(fresh.page.view.call).toBe("2");
  });

  it("n does nothing on a rollout without calls", () => {
    const { page, press, setView } = renderKeys(rows);
    press("n");
    expect(page.view.call).toBeNull();
    expect(setView).toHaveBeenCalledTimes(1);
  });

  it("n steps through an open rollout the filter left out of the list", () => {
    const { page, press } = renderKeys([rows[0]!], rows, { line: 7 });
    press("n");
    expect(page.view).toMatchObject({ line: 7, call: "0" });
  });

  it("keys typed into a field are text, not moves; / focuses the search box and Escape leaves it", () => {
    const { page, press, searchInput, setView } = renderKeys(rows);
    const input = document.createElement("input");
    document.body.append(input);
    // The hook reads the ref when the key comes: point it at the input as React would.
    searchInput.current = input;
    press("/");
    expect(document.activeElement).toBe(input);
    press("j", input);
    expect(setView).not.toHaveBeenCalled();
    press("Escape", input);
    expect(document.activeElement).not.toBe(input);
    press("j");
    expect(page.view.line).toBe(4);
    // The structured filter box too: Escape gives the keys back to the list.
    const filter = document.createElement("input");
    document.body.append(filter);
    filter.focus();
    press("Escape", filter);
    expect(document.activeElement).not.toBe(filter);
    press("j");
    expect(page.view.line).toBe(7);
    input.remove();
    filter.remove();
  });

  it("a clicked checkbox (mark for the report) keeps j and k for the list; a text field does not", () => {
    const { page, press } = renderKeys(rows);
    const checkbox = document.createElement("input");
    checkbox.type = "checkbox";
    const select = document.createElement("select");
    document.body.append(checkbox, select);
    press("j", checkbox);
    expect(page.view.line).toBe(4);
    press("j", select);
    expect(page.view.line).toBe(4);
    checkbox.remove();
    select.remove();
  });
});
