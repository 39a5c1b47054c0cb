/**
 * useLongList, the virtual list of the detail pane's calls and transcript: which rows it renders for a
 * scroll offset, where it puts them once measured, and how it keeps what is on screen in place when a row
 * above the view changes size. jsdom lays nothing out, so the ResizeObserver is a fake that reports the
 * sizes a browser would, and scrollTop is set as a scroll would.
 */
import { act, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type LongList, useLongList } from "./virtual";

class FakeResizeObserver {
  static all: FakeResizeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(private readonly callback: ResizeObserverCallback) {
    FakeResizeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  /** Reports `height` for every observed element `pick` accepts, as one batch. */
  static report(pick: (element: Element) => number | null) {
    for (const observer of FakeResizeObserver.all) {
      const entries = [...observer.targets].flatMap((target) => {
        const height = pick(target);
        if (height === null) return [];
        const size = [{ blockSize: height, inlineSize: 400 }];
        return [{ target, borderBoxSize: size, contentBoxSize: size, contentRect: { height } }];
      });
      if (entries.length > 0)
        act(() => observer.callback(entries as unknown as ResizeObserverEntry[], observer as never));
    }
  }
}

let handle: LongList | null = null;

function List({ count, overscan = 2 }: { count: number; overscan?: number }) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const list = useLongList({ count, estimate: 50, gap: 10, overscan, scroller, initialHeight: 300 });
  handle = list;
  return (
    <div ref={setScroller} data-testid="scroller">
      <div data-testid="space" style={{ height: list.total }}>
        <div data-testid="window" style={{ transform: `translateY(${list.rows[0]?.start ?? 0}px)` }}>
          {list.rows.map(({ index }) => (
            <div key={index} data-index={index} ref={list.measure}>
              row {index}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

const shownRows = () =>
  [...document.querySelectorAll("[data-index]")].map((row) => Number(row.getAttribute("data-index")));

function scrollTo(top: number) {
  const scroller = screen.getByTestId("scroller");
  scroller.scrollTop = top;
  fireEvent.scroll(scroller);
}

/**
 * The scroller as a browser has it: scrollTop clamped to the content's height as last rendered, less the
 * view's, when it is written and when the content shrinks under it.
 */
function clampedScroller() {
  const scroller = screen.getByTestId("scroller");
  const space = screen.getByTestId("space");
  const content = () => Number.parseFloat(space.style.height);
  const clamp = (value: number) => Math.max(0, Math.min(value, content() - 300));
  let top = 0;
  Object.defineProperty(scroller, "scrollTop", {
    configurable: true,
    get: () => {
      top = clamp(top);
      return top;
    },
    set: (value: number) => {
      top = clamp(value);
    },
  });
  Object.defineProperty(scroller, "clientHeight", { configurable: true, get: () => 300 });
  Object.defineProperty(scroller, "scrollHeight", { configurable: true, get: content });
  return { scroller, space };
}

beforeEach(() => {
  FakeResizeObserver.all = [];
  vi.stubGlobal("ResizeObserver", FakeResizeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
  handle = null;
});

describe("useLongList", () => {
  it("renders the rows in view and the overscan, and those at the offset scrolled to", () => {
    render(<List count={200_001} />);
    // 300 px at a 60 px stride: rows 0-5 in view, 2 more below.
    expect(shownRows()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(screen.getByTestId("space").style.height).toBe(`${200_001 * 60 - 10}px`);
    scrollTo(60 * 150_000);
    expect(shownRows()).toEqual([
      149_998, 149_999, 150_000, 150_001, 150_002, 150_003, 150_004, 150_005, 150_006, 150_007,
    ]);
    expect(screen.getByTestId("window").style.transform).toBe(`translateY(${60 * 149_998}px)`);
  });

  it("moves the rows after a measured one, and the view with a row above it, so what is on screen stays", () => {
    render(<List count={1_000} />);
    scrollTo(60 * 100);
    const window = screen.getByTestId("window");
    expect(window.style.transform).toBe(`translateY(${60 * 98}px)`);
    // Row 98 (above the view's top) is 250 px, not 50; row 103 (in view) 80: only the first moves the view.
    FakeResizeObserver.report((row) => {
      const index = Number(row.getAttribute("data-index"));
      return index === 98 ? 250 : index === 103 ? 80 : null;
    });
    const scroller = screen.getByTestId("scroller");
    expect(scroller.scrollTop).toBe(60 * 100 + 200);
    expect(screen.getByTestId("space").style.height).toBe(`${1_000 * 60 - 10 + 200 + 30}px`);
    // Measured again at the same size: nothing moves.
    FakeResizeObserver.report((row) => (row.getAttribute("data-index") === "98" ? 250 : null));
    expect(scroller.scrollTop).toBe(60 * 100 + 200);
    // Row 98 grows again while it spans the top (a folded text opened below the top): the view stays.
    scrollTo(60 * 98 + 100);
    FakeResizeObserver.report((row) => (row.getAttribute("data-index") === "98" ? 400 : null));
    expect(scroller.scrollTop).toBe(60 * 98 + 100);
  });

  it("stays at the end of a list scrolled to its end as the rows there are measured and grow", () => {
    render(<List count={1_000} />);
    const { scroller, space } = clampedScroller();
    const end = 1_000 * 60 - 10 - 300;
    scrollTo(end);
    expect(shownRows()).toEqual([992, 993, 994, 995, 996, 997, 998, 999]);
    // Row 993 (above the view) and row 998 (in it) grow: the last row stays at the bottom of the view.
    FakeResizeObserver.report((row) => {
      const index = Number(row.getAttribute("data-index"));
      return index === 993 ? 250 : index === 998 ? 150 : null;
    });
    expect(space.style.height).toBe(`${1_000 * 60 - 10 + 200 + 100}px`);
    expect(scroller.scrollTop).toBe(end + 200 + 100);
    // Rows measured smaller, in view and above it: still at the end (not as far again above it).
    FakeResizeObserver.report((row) => (row.getAttribute("data-index") === "998" ? 40 : null));
    expect(scroller.scrollTop).toBe(end + 200 - 10);
    FakeResizeObserver.report((row) => (row.getAttribute("data-index") === "993" ? 150 : null));
    expect(scroller.scrollTop).toBe(end + 100 - 10);
    FakeResizeObserver.report((row) => (row.getAttribute("data-index") === "993" ? 250 : null));
    expect(scroller.scrollTop).toBe(end + 200 - 10);
    expect(scroller.scrollTop + 300).toBe(Number.parseFloat(space.style.height));
  });

  it("keeps a row above the view in place when the list grows past where the scroller could reach", () => {
    render(<List count={1_000} />);
    const { scroller } = clampedScroller();
    // 40 px short of the end: a row above the view growing by 200 moves the view 200 px down, beyond the
    // old end, which the scroller reaches only once the list is rendered taller.
    const at = 1_000 * 60 - 10 - 300 - 40;
    scrollTo(at);
    FakeResizeObserver.report((row) => (row.getAttribute("data-index") === "992" ? 250 : null));
    expect(scroller.scrollTop).toBe(at + 200);
  });

  it("scrolls the least that shows a row", () => {
    render(<List count={1_000} />);
    const scroller = screen.getByTestId("scroller");
    act(() => handle?.scrollToIndex(2));
    expect(scroller.scrollTop).toBe(0);
    act(() => handle?.scrollToIndex(500));
    // The row's bottom at the view's bottom.
    expect(scroller.scrollTop).toBe(500 * 60 + 50 - 300);
    act(() => handle?.scrollToIndex(10));
    expect(scroller.scrollTop).toBe(10 * 60);
  });

  it("has no rows for no items", () => {
    render(<List count={0} />);
    expect(shownRows()).toEqual([]);
    expect(screen.getByTestId("space").style.height).toBe("0px");
  });
});
