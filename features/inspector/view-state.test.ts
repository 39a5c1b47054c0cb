import { describe, expect, it } from "vitest";
import {
  clauseValue,
  flagClause,
  hasClause,
  rewardChanged,
  selectRollouts,
  setClause,
  statusCounts,
  toggleClause,
} from "@/features/run/list";
import { parseFilter } from "@/lib/run";
import { entry } from "./test-helpers";
import {
  DEFAULT_VIEW,
  keptForOpenedFiles,
  linkedName,
  linkMissesShown,
  parseViewState,
  serializeViewState,
  type ViewState,
  viewForOpenedFiles,
  viewForOpenedFolder,
} from "./view-state";

describe("URL state", () => {
  it("round-trips every field", () => {
    const state: ViewState = {
      sample: "workplace-edge-cases.jsonl",
      file: "b.jsonl",
      name: "run.jsonl",
      line: 12,
      call: "3",
      f: 'recorded:0 field:category="a b" cause:identity agent:claude-code_agent text:"email reply"',
      reward: "legacy",
      sort: "contract",
      desc: true,
      server: "team store",
      harness: "claude-code,hermes_agent=hermes-legacy",
    };
    expect(parseViewState(serializeViewState(state))).toEqual(state);
  });

  it("writes nothing for the default view", () => {
    expect(serializeViewState(DEFAULT_VIEW).toString()).toBe("");
  });

  it("reads an old link's chips, agent, server and search into clauses of the one filter", () => {
    const state = parseViewState(
      new URLSearchParams(
        "filter=zero,changed&agent=a&env=workplace_assistant&q=email%20reply&f=cause:identity",
      ),
    );
    expect(state.f).toBe(
      'cause:identity recorded:..0 is:changed agent:a server:workplace_assistant text:"email reply"',
    );
    expect(serializeViewState(state).toString()).toBe(
      `f=${encodeURIComponent(state.f).replace(/%20/g, "+")}`,
    );
    expect(parseViewState(new URLSearchParams("filter=mismatched")).f).toBe("flag:mismatched");
    expect(parseViewState(new URLSearchParams("filter=unverified")).f).toBe("is:unverified");
  });

  it("names a served file by its path when the link gives no name (a tab showing other files says so)", () => {
    const linked = parseViewState(new URLSearchParams("file=served%3Adata%2Fa.jsonl&line=3"));
    expect(linked).toMatchObject({ file: "served:data/a.jsonl", name: "data/a.jsonl", line: 3 });
    expect(parseViewState(new URLSearchParams("file=d-1&line=3")).name).toBeNull();
  });

  it("drops values it does not understand instead of guessing", () => {
    const state = parseViewState(
      new URLSearchParams("line=-4&filter=changed,bogus&sort=-nope&harness=vim&call=2&reward=x"),
    );
    expect(state.line).toBeNull();
    expect(state.f).toBe("is:changed");
    expect(state.reward).toBe("recorded");
    expect(state.sort).toBe("line");
    expect(state.desc).toBe(false);
    expect(state.harness).toBe("");
    expect(state.call).toBe("2");
  });
});

describe("a link opened where its file is not loaded", () => {
  it("keeps its rollout, call and filter for the file opened next, and nothing else without them", () => {
    const link = parseViewState(
      new URLSearchParams("name=run.jsonl&line=6&call=1&f=cause:tool_failed&reward=legacy"),
    );
    expect(keptForOpenedFiles(link)).toMatchObject({
      line: 6,
      call: "1",
      f: "cause:tool_failed",
      reward: "legacy",
    });
    expect(keptForOpenedFiles(parseViewState(new URLSearchParams("sample=x.jsonl")))).toEqual(DEFAULT_VIEW);
    // The reward setting alone is kept too: a ?reward= link opens the file with it applied.
    expect(keptForOpenedFiles(parseViewState(new URLSearchParams("reward=contract")))).toEqual({
      ...DEFAULT_VIEW,
      reward: "contract",
    });
  });

  it("keeps them only while no file is shown: files opened over a shown one start from the default view", () => {
    const link = parseViewState(new URLSearchParams("name=run.jsonl&line=6&call=1&f=agent:a"));
    expect(viewForOpenedFiles(link, false)).toMatchObject({ line: 6, call: "1", f: "agent:a" });
    expect(viewForOpenedFiles(link, true)).toEqual(DEFAULT_VIEW);
    expect(viewForOpenedFiles({ ...link, reward: "legacy" }, true)).toEqual({
      ...DEFAULT_VIEW,
      reward: "legacy",
    });
  });

  it("a link's file among opened names: the same, or the one that holds its whole path below a folder", () => {
    const names = ["calendar/data/example_rollouts.jsonl", "ether0/data/example_rollouts.jsonl"];
    expect(linkedName(names, "ether0/data/example_rollouts.jsonl")).toBe(
      "ether0/data/example_rollouts.jsonl",
    );
    // Made in environments/calendar/, opened as environments/.
    expect(linkedName(["x/calendar/data/r.jsonl", "x/ether0/data/r.jsonl"], "calendar/data/r.jsonl")).toBe(
      "x/calendar/data/r.jsonl",
    );
    // A name the link's only ends with is not its file: every Gym server has a data/example_rollouts.jsonl.
    expect(linkedName(["data/example_rollouts.jsonl"], "calendar/data/example_rollouts.jsonl")).toBeNull();
    expect(linkedName(["example_rollouts.jsonl"], "calendar/data/example_rollouts.jsonl")).toBeNull();
    // Ambiguous, or only a name's end (not a whole segment): no file.
    expect(linkedName(names, "data/example_rollouts.jsonl")).toBeNull();
    expect(linkedName(names, "0/data/example_rollouts.jsonl")).toBeNull();
    expect(linkedName(names, "other.jsonl")).toBeNull();
    // Two files of the link's very name: neither.
    expect(linkedName(["run.jsonl", "run.jsonl"], "run.jsonl")).toBeNull();
  });

  it("a folder opened: the link's file by its path there, or with the folder's name before it", () => {
    const link = parseViewState(new URLSearchParams("name=calendar/data/r.jsonl&line=6&f=recorded:0"));
    const inside = viewForOpenedFolder(link, false, "calendar", ["data/r.jsonl", "data/example.jsonl"]);
    expect(inside).toMatchObject({ name: "data/r.jsonl", line: 6, f: "recorded:0" });
    const above = viewForOpenedFolder(link, false, "environments", [
      "calendar/data/r.jsonl",
      "code_gen/data/r.jsonl",
    ]);
    expect(above).toMatchObject({ name: "calendar/data/r.jsonl", line: 6 });
    // Another server's folder: kept as the link had it, for the page to set aside once the files are in.
    const other = viewForOpenedFolder(link, false, "code_gen", ["data/r.jsonl"]);
    expect(other).toMatchObject({ name: "calendar/data/r.jsonl", line: 6 });
    expect(linkMissesShown(other, "data/r.jsonl", ["data/r.jsonl"])).toBe(true);
    // A link that names no file keeps its filter only; over a shown file, nothing.
    const bare = parseViewState(new URLSearchParams("line=6&f=recorded:..0&reward=contract"));
    expect(viewForOpenedFolder(bare, false, "run", ["data/r.jsonl"])).toEqual({
      ...DEFAULT_VIEW,
      f: "recorded:..0",
      reward: "contract",
    });
    expect(viewForOpenedFolder(link, true, "calendar", ["data/r.jsonl"])).toEqual(DEFAULT_VIEW);
  });

  it("a link misses the shown file unless its name means that file among the open ones, and no chip chose it", () => {
    const link = parseViewState(new URLSearchParams("name=a/run.jsonl&line=6"));
    expect(linkMissesShown(link, "x/a/run.jsonl", ["x/a/run.jsonl", "x/b/run.jsonl"])).toBe(false);
    expect(linkMissesShown(link, "run.jsonl", ["run.jsonl"])).toBe(true);
    // Two files its name could mean: neither is guessed, the first shown is missed.
    expect(linkMissesShown(link, "1/a/run.jsonl", ["1/a/run.jsonl", "2/a/run.jsonl"])).toBe(true);
    const bare = parseViewState(new URLSearchParams("name=run.jsonl&line=6"));
    expect(linkMissesShown(bare, "run.jsonl", ["run.jsonl", "run.jsonl"])).toBe(true);
    expect(linkMissesShown({ ...link, file: "d-1" }, "other.jsonl", ["other.jsonl"])).toBe(false);
    expect(linkMissesShown({ ...link, line: null }, "other.jsonl", ["other.jsonl"])).toBe(false);
  });
});

describe("clauses of the one filter", () => {
  it("a chip toggles its clause and keeps every other clause", () => {
    const on = toggleClause("agent:a cause:identity", flagClause("zero"));
    expect(on).toBe("agent:a cause:identity recorded:..0");
    expect(hasClause(on, flagClause("zero"))).toBe(true);
    expect(toggleClause(on, flagClause("zero"))).toBe("agent:a cause:identity");
  });

  it("a select, the search box or a cause replaces its own kind only", () => {
    const f = setClause("recorded:0 agent:a", "agent", { kind: "agent", value: "b" });
    expect(f).toBe("recorded:0 agent:b");
    expect(clauseValue(f, "agent")).toBe("b");
    expect(setClause(f, "agent", null)).toBe("recorded:0");
    expect(setClause(f, "text", { kind: "text", value: "x y" })).toBe('recorded:0 agent:b text:"x y"');
    expect(clauseValue('text:"x y"', "text")).toBe("x y");
    // A filter that does not parse keeps what was typed.
    expect(setClause("cause:bogus", "agent", { kind: "agent", value: "a" })).toBe("cause:bogus agent:a");
  });
});

describe("selectRollouts", () => {
  const rows = [
    entry(1, { recorded: 0, contract: 1, agent: "b" }),
    entry(2, { counts: { ambiguous: 1, mismatched: 0, external: 0, none: 1 } }),
    entry(3, { recorded: 0, contract: 0, counts: { ambiguous: 0, mismatched: 0, external: 2, none: 0 } }),
    entry(4, { contract: null, error: "no verifier for x", server: "x" }),
  ];
  const none = { search: null, kept: null };
  const lines = (f: string, context: Parameters<typeof selectRollouts>[2] = none) => {
    const parsed = parseFilter(f);
    if (!parsed.ok) throw new Error(parsed.error);
    return selectRollouts(rows, { clauses: parsed.clauses, sort: "line", desc: false }, context).map(
      (r) => r.line,
    );
  };
  const base = { clauses: [], sort: "line" as const, desc: false };

  it("AND-s the chips' clauses", () => {
    expect(lines("recorded:0")).toEqual([1, 3]);
    expect(lines("recorded:0 is:changed")).toEqual([1]);
    expect(lines("flag:external")).toEqual([3]);
    expect(lines("is:unverified")).toEqual([4]);
  });

  it("filters by agent, server and the search's lines for the text clause", () => {
    expect(lines("agent:b")).toEqual([1]);
    expect(lines("server:x")).toEqual([4]);
    expect(lines("text:abc", { search: { text: "abc", lines: new Set([2, 4]) }, kept: null })).toEqual([
      2, 4,
    ]);
  });

  it("keeps a row a clause cannot judge yet until the worker's answer decides it", () => {
    const pending = [...rows, entry(5, { rewards: "pending", contract: null })];
    const select = (f: string, kept: ReadonlySet<number> | null) => {
      const parsed = parseFilter(f);
      if (!parsed.ok) throw new Error(parsed.error);
      return selectRollouts(
        pending,
        { clauses: parsed.clauses, sort: "line", desc: false },
        { search: null, kept },
      ).map((r) => r.line);
    };
    // A pending reward is not unverified; a cause is not known before the run view.
    expect(select("is:unverified", null)).toEqual([4, 5]);
    expect(select("cause:identity", null)).toEqual([1, 2, 3, 4, 5]);
    expect(select("cause:identity", new Set([3]))).toEqual([3]);
  });

  it("judges a row afresh when its rewards land, and the same rows by each streamed search answer", () => {
    const select = (list: typeof rows, f: string, search: { text: string; lines: Set<number> } | null) => {
      const parsed = parseFilter(f);
      if (!parsed.ok) throw new Error(parsed.error);
      return selectRollouts(
        list,
        { clauses: parsed.clauses, sort: "line", desc: false },
        { search, kept: null },
      ).map((r) => r.line);
    };
    const pending = entry(5, { rewards: "pending", contract: null });
    // Undecided while pending (kept), then decided by the row that replaces it once its rewards are in.
    expect(select([...rows, pending], "contract:1", null)).toEqual([1, 2, 5]);
    expect(select([...rows, entry(5, { contract: 0 })], "contract:1", null)).toEqual([1, 2]);
    // The same row objects, two answers of one search as it streams in.
    expect(select(rows, "text:abc", { text: "abc", lines: new Set([2]) })).toEqual([2]);
    expect(select(rows, "text:abc", { text: "abc", lines: new Set([2, 3]) })).toEqual([2, 3]);
    // A search answer for another text does not decide the clause.
    expect(select(rows, "text:abc recorded:0", { text: "abd", lines: new Set([2]) })).toEqual([1, 3]);
  });

  it("sorts with nulls last and ties by line", () => {
    expect(selectRollouts(rows, { ...base, sort: "contract" }, none).map((r) => r.line)).toEqual([
      3, 1, 2, 4,
    ]);
    expect(selectRollouts(rows, { ...base, sort: "contract", desc: true }, none).map((r) => r.line)).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it("never counts a row whose rewards are pending as unverified", () => {
    const counts = statusCounts([...rows, entry(5, { rewards: "pending", contract: null, legacy: null })]);
    expect(counts.unverified).toBe(1);
    expect(counts.pending).toBe(1);
  });

  it("counts statuses over the rows given", () => {
    expect(statusCounts(rows)).toEqual({
      rollouts: 4,
      calls: 8,
      ambiguous: 1,
      mismatched: 0,
      external: 2,
      changed: 1,
      zero: 2,
      unverified: 1,
      pending: 0,
      rollouts_with: { ambiguous: 1, mismatched: 0, external: 1 },
    });
    expect(rewardChanged(rows[3]!)).toBe(false);
  });
});
