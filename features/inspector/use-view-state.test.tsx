/**
 * useViewState reads a write back at once: the state a write makes is the next render's, before Next's
 * router (which learns of History API writes in a transition) passes new search params.
 */
import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

/** Next's search params: they change only when its router has caught up (never, in these tests). */
const next = vi.hoisted(() => ({ params: new URLSearchParams("line=2") }));
vi.mock("next/navigation", () => ({ useSearchParams: () => next.params }));

const { afterWrite, shownSearch, useViewState } = await import("./use-view-state");

afterEach(() => {
  window.history.replaceState(null, "", "/");
  next.params = new URLSearchParams("line=2");
});

describe("useViewState", () => {
  it("reads the URL's params until the first write", () => {
    window.history.replaceState(null, "", "/?line=2");
    const { result } = renderHook(() => useViewState());
    expect(result.current[0].line).toBe(2);
    expect(result.current[0].call).toBeNull();
  });

  it("shows a write in the next render, before the router passes the new params", () => {
    window.history.replaceState(null, "", "/?line=2");
    const { result } = renderHook(() => useViewState());
    act(() => result.current[1]({ call: "5" }));
    expect(window.location.search).toContain("call=5");
    expect(result.current[0].call).toBe("5");
    expect(result.current[0].line).toBe(2);
    // Each press reads the state the previous one wrote.
    act(() => result.current[1]((state) => ({ call: String(Number(state.call) + 1) })));
    expect(result.current[0].call).toBe("6");
  });

  it("once the router has shown a write, its move back (Back) to the params before is shown", () => {
    window.history.replaceState(null, "", "/?line=2");
    const { result, rerender } = renderHook(() => useViewState());
    act(() => result.current[1]({ line: 5 }, { push: true }));
    expect(result.current[0].line).toBe(5);
    next.params = new URLSearchParams(window.location.search);
    rerender();
    expect(result.current[0].line).toBe(5);
    next.params = new URLSearchParams("line=2");
    rerender();
    expect(result.current[0].line).toBe(2);
  });

  it("Back or Forward before the router has shown the writes shows the router's params", () => {
    window.history.replaceState(null, "", "/?line=2");
    const { result } = renderHook(() => useViewState());
    act(() => result.current[1]({ line: 5 }, { push: true }));
    expect(result.current[0].line).toBe(5);
    act(() => window.dispatchEvent(new PopStateEvent("popstate")));
    expect(result.current[0].line).toBe(2);
  });
});

describe("shownSearch", () => {
  it("shows the latest write until the router has moved past them, then the router's params", () => {
    let pending = afterWrite(null, "line=2", "line=2&call=1");
    pending = afterWrite(pending, "line=2", "line=2&call=2");
    expect(shownSearch("line=2", pending)).toBe("line=2&call=2");
    // The router shows the first write, then the second: the second all along.
    expect(shownSearch("line=2&call=1", pending)).toBe("line=2&call=2");
    expect(shownSearch("line=2&call=2", pending)).toBe("line=2&call=2");
    // A write while the router shows the first: the writes before it are done.
    pending = afterWrite(pending, "line=2&call=1", "line=2&call=3");
    expect(pending.writes).toEqual(["line=2&call=2", "line=2&call=3"]);
    // Anywhere else (back, a link): the router's.
    expect(shownSearch("line=7", pending)).toBe("line=7");
    expect(shownSearch("line=7", null)).toBe("line=7");
  });
});
