import { afterEach, describe, expect, it, vi } from "vitest";
import { gcBallast } from "./gc-ballast";

afterEach(() => vi.useRealTimers());

const small = { doubles: 16, afterBytes: 1000, idleMs: 100 };

describe("gcBallast", () => {
  it("is not taken by a pass that reads less than afterBytes (a small file never pays for it)", () => {
    vi.useFakeTimers();
    const ballast = gcBallast(small);
    ballast.hold(400);
    ballast.hold(500);
    expect(ballast.held()).toBe(false);
    ballast.hold(100);
    expect(ballast.held()).toBe(true);
  });

  it("is held while jobs keep coming and let go once none came for idleMs", () => {
    vi.useFakeTimers();
    const ballast = gcBallast(small);
    ballast.hold(1000);
    vi.advanceTimersByTime(90);
    ballast.hold(10); // the pass goes on: the idle time starts again
    vi.advanceTimersByTime(90);
    expect(ballast.held()).toBe(true);
    vi.advanceTimersByTime(10);
    expect(ballast.held()).toBe(false);
  });

  it("counts the next pass's bytes from zero", () => {
    vi.useFakeTimers();
    const ballast = gcBallast(small);
    ballast.hold(1000);
    vi.advanceTimersByTime(100);
    ballast.hold(999);
    expect(ballast.held()).toBe(false);
    ballast.hold(1);
    expect(ballast.held()).toBe(true);
  });
});
