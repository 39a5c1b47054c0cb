import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startDeadline } from "./deadline";

afterEach(() => {
  vi.useRealTimers();
});

describe("startDeadline", () => {
  it("aborts with a TimeoutError when the time is up, and says it expired", () => {
    vi.useFakeTimers();
    const deadline = startDeadline(1000);
    vi.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired()).toBe(true);
    expect(deadline.signal.reason).toBeInstanceOf(DOMException);
    expect(deadline.signal.reason).toMatchObject({ name: "TimeoutError" });
  });

  it("follows its parent's abort without calling it a timeout, and stops its timer", () => {
    vi.useFakeTimers();
    const parent = new AbortController();
    const deadline = startDeadline(1000, parent.signal);
    parent.abort("gone");
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe("gone");
    vi.advanceTimersByTime(2000);
    expect(deadline.expired()).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("starts aborted under an aborted parent, and clear() leaves nothing pending", () => {
    vi.useFakeTimers();
    const parent = new AbortController();
    parent.abort();
    expect(startDeadline(1000, parent.signal).signal.aborted).toBe(true);
    const deadline = startDeadline(1000);
    deadline.clear();
    vi.advanceTimersByTime(2000);
    expect(deadline.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("still fires after a garbage collection (AbortSignal.any over AbortSignal.timeout does not, on Node 20)", async () => {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    if (typeof gc !== "function") throw new Error("no gc in this runtime");
    const deadline = startDeadline(200, new AbortController().signal);
    const aborted = new Promise((resolve) => deadline.signal.addEventListener("abort", resolve));
    await new Promise((r) => setTimeout(r, 50));
    gc();
    await aborted;
    expect(deadline.expired()).toBe(true);
  }, 5000);
});
