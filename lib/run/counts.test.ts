import { describe, expect, it } from "vitest";
import {
  breakdownScopeText,
  formatBytes,
  formatCount,
  lineCountsText,
  unverifiedCounts,
  unverifiedText,
  zeroShareText,
} from "./counts";
import { parseFilter } from "./filter";

describe("the one wording for a file's counts", () => {
  it("names unreadable lines beside the rollouts, never inside their count", () => {
    expect(lineCountsText({ rollouts: 24, unreadable: 0 })).toBe("24 rollouts");
    expect(lineCountsText({ rollouts: 24, unreadable: 1 })).toBe("24 rollouts · 1 unreadable line");
    expect(lineCountsText({ rollouts: 1, unreadable: 2 })).toBe("1 rollout · 2 unreadable lines");
    expect(lineCountsText({ rollouts: 12345, unreadable: 0 })).toBe("12,345 rollouts");
  });

  it("says what the why-zero share is a share of", () => {
    expect(zeroShareText(18, { rollouts: 24, unreadable: 0 })).toBe("18 of 24 rollouts recorded 0 (75.0%)");
    expect(zeroShareText(18, { rollouts: 24, unreadable: 1 })).toBe(
      "18 of 24 rollouts recorded 0 (75.0%) · 1 unreadable line, not counted",
    );
    // A followed file's last line without its break yet (a run writing it): said, never counted.
    expect(zeroShareText(18, { rollouts: 24, unreadable: 1, waiting: 1 })).toBe(
      "18 of 24 rollouts recorded 0 (75.0%) · 1 unreadable line, not counted · 1 line still being written, not counted",
    );
    expect(zeroShareText(0, { rollouts: 0, unreadable: 3 })).toBe(
      "No rollout to count: 3 unreadable lines, each listed with what it is",
    );
    expect(zeroShareText(0, { rollouts: 0, unreadable: 0 }, "contract")).toBe("No rollout to count");
    expect(zeroShareText(5, { rollouts: 10, unreadable: 0 }, "legacy")).toBe(
      "5 of 10 rollouts recompute to 0 under legacy (50.0%)",
    );
  });

  it("names the negative rewards among the zeros (blackjack records -1 for a loss)", () => {
    expect(zeroShareText(2, { rollouts: 5, unreadable: 0 }, "recorded", 2)).toBe(
      "2 of 5 rollouts recorded 0 or less (40.0%; 2 negative)",
    );
    expect(zeroShareText(3, { rollouts: 4, unreadable: 1 }, "contract", 1)).toBe(
      "3 of 4 rollouts recompute to 0 or less under contract (75.0%; 1 negative) · 1 unreadable line, not counted",
    );
    // No negative reward: Gym's zeros, worded as they always were.
    expect(zeroShareText(3, { rollouts: 4, unreadable: 0 }, "recorded", 0)).toBe(
      "3 of 4 rollouts recorded 0 (75.0%)",
    );
  });
});

describe("the rollouts a view has no reward for", () => {
  it("are named, so a view where nothing was recomputed never reads as a run without zeros", () => {
    // Gym's xlam_fc folder under the contract policy: no rollout could be verified.
    expect(zeroShareText(0, { rollouts: 5, unreadable: 0 }, "contract", 0, 5)).toBe(
      "0 of 5 rollouts recompute to 0 under contract (0.0%; 5 not recomputed)",
    );
    expect(zeroShareText(2, { rollouts: 5, unreadable: 0 }, "recorded", 1, 1)).toBe(
      "2 of 5 rollouts recorded 0 or less (40.0%; 1 negative; 1 with no recorded reward)",
    );
  });
});

describe("formatBytes", () => {
  it("writes a size one way on every page", () => {
    expect([512, 178_586, 12.3 * 1024 * 1024, 1024 ** 3].map(formatBytes)).toEqual([
      "512 B",
      "174.4 KiB",
      "12.3 MiB",
      "1.00 GiB",
    ]);
  });
});

describe("formatCount", () => {
  it("groups an integer's thousands as en-US does", () => {
    for (const n of [0, 7, 999, 1000, 17975, 1234567, -1234567, Number.MAX_SAFE_INTEGER])
      expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
  });
  it("leaves other numbers to toLocaleString", () => {
    expect(formatCount(1234.5)).toBe("1,234.5");
  });
});

describe("unverifiedText", () => {
  it("counts the rollouts not verified by reason, in the reasons' order, and says nothing when all were", () => {
    const rows = [
      { unverified: "missing_field" as const, legacy_unverified: "missing_field" as const },
      { unverified: null, legacy_unverified: null },
      { unverified: "no_server" as const, legacy_unverified: "no_server" as const },
      { unverified: "missing_field" as const, legacy_unverified: null },
    ];
    expect(unverifiedText(unverifiedCounts(rows), rows.length)).toBe(
      "3 of 4 rollouts not verified under the contract policy (no server 1, no task data 2)",
    );
    // The reward setting's policy: the legacy policy's own counts, named.
    expect(unverifiedText(unverifiedCounts(rows), rows.length, "legacy")).toBe(
      "2 of 4 rollouts not verified under the legacy policy (no server 1, no task data 1)",
    );
    expect(unverifiedText(unverifiedCounts([{ unverified: null, legacy_unverified: null }]), 1)).toBeNull();
    expect(unverifiedText({ contract: {}, legacy: {} }, 0)).toBeNull();
  });
});

describe("breakdownScopeText", () => {
  const text = (filter: string) => {
    const parsed = parseFilter(filter);
    if (!parsed.ok) throw new Error(parsed.error);
    return breakdownScopeText(filter, parsed.clauses, 5, 10);
  };

  it("says which of the filter's clauses the breakdown leaves out: a cause, is:fixed_by_map, both or none", () => {
    expect(text("agent:a")).toBe("Breakdown of 5 of 10 rollouts (filter: agent:a)");
    expect(text("agent:a cause:tool_failed")).toBe(
      "Breakdown of 5 of 10 rollouts (filter: agent:a cause:tool_failed); its cause clause is left out here, so every cause stays visible",
    );
    expect(text("recorded:..0 is:fixed_by_map")).toMatch(
      /; its is:fixed_by_map clause is left out here, so every count stays whole$/,
    );
    expect(text("is:fixed_by_map cause:identity")).toMatch(
      /; its cause and is:fixed_by_map clauses are left out here, so every count stays whole$/,
    );
    // Another is: clause narrows the breakdown: nothing left out.
    expect(text("is:changed")).toBe("Breakdown of 5 of 10 rollouts (filter: is:changed)");
  });
});
