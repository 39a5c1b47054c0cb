import { describe, expect, it } from "vitest";
import {
  activeCause,
  callsInItems,
  compareLink,
  folderFileFilter,
  hasFixedByMap,
  liveLink,
  needsReanalysis,
  recordedChoice,
  restorePlan,
  shownDataset,
  sortChange,
  stepCall,
  stepRollout,
  switchReward,
  withCause,
  withFixedByMap,
  withRecordedValue,
  workspaceReadiness,
} from "./inspector-state";
import { datasetSummary, entry } from "./test-helpers";

describe("what the page opens when it starts", () => {
  const fresh = { served: false, hasSession: false, sample: null, stored: ["f1", "f2"], folder: null };

  it("reopens the tab's kept files", () => {
    expect(restorePlan(fresh)).toEqual({ kind: "restore", ids: ["f1", "f2"] });
  });

  it("opens a sample link's sample instead, and nothing when the tab kept no file or a session is open", () => {
    expect(restorePlan({ ...fresh, sample: "x.jsonl" })).toEqual({ kind: "none" });
    expect(restorePlan({ ...fresh, stored: [] })).toEqual({ kind: "none" });
    expect(restorePlan({ ...fresh, hasSession: true })).toEqual({ kind: "none" });
  });

  it("names the folder the tab had open, whose files nothing kept, unless a session or a sample link is there", () => {
    const folder = { ...fresh, stored: [], folder: "xlam_fc" };
    expect(restorePlan(folder)).toEqual({ kind: "folder", name: "xlam_fc" });
    expect(restorePlan({ ...folder, hasSession: true })).toEqual({ kind: "none" });
    expect(restorePlan({ ...folder, sample: "x.jsonl" })).toEqual({ kind: "none" });
    expect(restorePlan({ ...folder, served: true })).toEqual({ kind: "served" });
  });

  it("reads a served folder from the server, over the tab's kept files; a sample link opens its sample", () => {
    expect(restorePlan({ ...fresh, served: true })).toEqual({ kind: "served" });
    // In-app navigation back from /compare or /live: the worker holds the folder already.
    expect(restorePlan({ ...fresh, served: true, hasSession: true })).toEqual({ kind: "none" });
    expect(restorePlan({ ...fresh, served: true, sample: "x.jsonl" })).toEqual({ kind: "none" });
    // A link naming a served file (a served tab's address bar, in another tab): read only into an empty tab.
    const empty = { ...fresh, stored: [] };
    expect(restorePlan({ ...empty, servedLink: true })).toEqual({ kind: "served" });
    expect(restorePlan({ ...empty, servedLink: true, hasSession: true })).toEqual({ kind: "none" });
    expect(restorePlan({ ...fresh, servedLink: true })).toEqual({ kind: "restore", ids: ["f1", "f2"] });
  });
});

describe("the shown file", () => {
  const sets = [datasetSummary({ id: "d1", name: "a.jsonl" }), datasetSummary({ id: "d2", name: "a.jsonl" })];

  it("is the one the URL names by id, else by name, else the first", () => {
    expect(shownDataset(sets, "d2")?.id).toBe("d2");
    expect(shownDataset(sets, "a.jsonl")?.id).toBe("d1");
    expect(shownDataset(sets, "gone")?.id).toBe("d1");
    expect(shownDataset(sets, null)?.id).toBe("d1");
    expect(shownDataset([], "d1")).toBeNull();
    // A served folder's file, by its path there (the URL a served tab shows; another tab has other ids).
    const served = [
      datasetSummary({ id: "d7", name: "data/a.jsonl", ref: "served:data/a.jsonl" }),
      datasetSummary({ id: "d8", name: "data/b.jsonl", ref: "served:data/b.jsonl" }),
    ];
    expect(shownDataset(served, "served:data/b.jsonl")?.id).toBe("d8");
    // A link's file name (no id yet): its file, as named where the link was made, a folder level up or down.
    const folder = [
      datasetSummary({ id: "f1", name: "calendar/data/example_rollouts.jsonl" }),
      datasetSummary({ id: "f2", name: "ether0/data/example_rollouts.jsonl" }),
    ];
    expect(shownDataset(folder, null, "ether0/data/example_rollouts.jsonl")?.id).toBe("f2");
    expect(shownDataset(folder, null, "x/ether0/data/example_rollouts.jsonl")?.id).toBe("f1");
    // Two files end with the name: neither is guessed, the first is shown.
    expect(shownDataset(folder, null, "data/example_rollouts.jsonl")?.id).toBe("f1");
    expect(shownDataset(folder, "f1", "ether0/data/example_rollouts.jsonl")?.id).toBe("f1");
    // A file of records that are no rollouts is not the one opened on, though it comes first.
    const records = datasetSummary({ id: "e", name: "wa_expected.jsonl", rows: 0 });
    const run = datasetSummary({ id: "r", name: "wa_noecho.jsonl", rows: 56 });
    expect(shownDataset([records, run], null)?.id).toBe("r");
    expect(shownDataset([records], null)?.id).toBe("e");
    // While files are still loading, a link's file that is not in yet is waited for, not replaced.
    expect(shownDataset([records, run], null, "wa_rollouts.jsonl", true)).toBeNull();
    expect(shownDataset([records, run], null, "wa_rollouts.jsonl", false)?.id).toBe("r");
    // A kept id that names no file any more (after a reload): the name still finds the file.
    expect(shownDataset([records, run], "d-gone", "wa_noecho.jsonl")?.id).toBe("r");
  });
});

describe("re-analysis", () => {
  it("is needed when the chosen server or harness differs from what the file was analysed under", () => {
    const shown = datasetSummary({ server_override: null, harness: "" });
    expect(needsReanalysis(shown, null, "")).toBe(false);
    expect(needsReanalysis(shown, "workplace_assistant", "")).toBe(true);
    expect(needsReanalysis(shown, null, "hermes-legacy")).toBe(true);
    expect(needsReanalysis(datasetSummary({ harness: "hermes-legacy" }), null, "hermes-legacy")).toBe(false);
  });
});

describe("j/k and n/p", () => {
  const rows = [entry(2), entry(5), entry(9)];

  it("j and k step through the listed rows and stop at the ends", () => {
    expect(stepRollout(rows, 2, 1)).toBe(5);
    expect(stepRollout(rows, 5, -1)).toBe(2);
    expect(stepRollout(rows, 9, 1)).toBe(9);
    expect(stepRollout(rows, 2, -1)).toBe(2);
  });

  it("from a rollout the list does not hold, j opens the first and k the last", () => {
    expect(stepRollout(rows, 4, 1)).toBe(2);
    expect(stepRollout(rows, null, -1)).toBe(9);
    expect(stepRollout([], 4, 1)).toBeNull();
  });

  it("n and p step through the calls; p with none selected takes the last; no call, no step", () => {
    expect(stepCall(3, null, 1)).toBe("0");
    expect(stepCall(3, "0", 1)).toBe("1");
    expect(stepCall(3, "2", 1)).toBe("2");
    expect(stepCall(3, "1", -1)).toBe("0");
    expect(stepCall(3, "0", -1)).toBe("0");
    expect(stepCall(3, null, -1)).toBe("2");
    expect(stepCall(0, null, 1)).toBeNull();
  });
});

describe("sorting by a column", () => {
  it("flips the direction of the same column; another starts descending unless it reads A→Z", () => {
    expect(sortChange({ sort: "contract", desc: true }, "contract")).toEqual({
      sort: "contract",
      desc: false,
    });
    expect(sortChange({ sort: "line", desc: false }, "contract")).toEqual({ sort: "contract", desc: true });
    expect(sortChange({ sort: "contract", desc: true }, "agent")).toEqual({ sort: "agent", desc: false });
  });
});

describe("the Live link", () => {
  it("names the shown file by its ref and its open line", () => {
    expect(liveLink(null, null)).toBe("/live");
    expect(liveLink("served:data/a b.jsonl", 4)).toBe("/live?dataset=served%3Adata%2Fa%20b.jsonl&line=4");
    expect(liveLink("d-1", null)).toBe("/live?dataset=d-1");
  });
});

describe("the breakdown's cause", () => {
  it("a cause comes with its view's zero clause and replaces another; other clauses stay", () => {
    const f = withCause("agent:a", "no_tool_call", "recorded");
    expect(f).toBe("agent:a recorded:..0 cause:no_tool_call");
    expect(activeCause(f)).toBe("no_tool_call");
    expect(withCause(f, "no_tool_call", "contract")).toBe("agent:a contract:..0 cause:no_tool_call");
    expect(withCause(f, null, "recorded")).toBe("agent:a");
    // Drift's count is every drifted rollout, whatever the reward: its list takes no zero clause.
    expect(withCause(f, "drift", "recorded")).toBe("agent:a cause:drift");
    expect(activeCause("agent:a")).toBeNull();
  });

  it("a file opened from the folder's table gets the chosen cause alone, or loses one chosen before", () => {
    expect(folderFileFilter("agent:a", "no_server", "recorded")).toBe("recorded:..0 cause:no_server");
    // No cause chosen: the cause a folder click left goes; a filter typed without one stays as typed.
    expect(folderFileFilter("recorded:..0 cause:no_verifier_port", null, "recorded")).toBe("");
    expect(folderFileFilter("agent:a recorded:..0", null, "recorded")).toBe("agent:a recorded:..0");
  });
});

describe("the zeros a provenance map rescues, kept in the list", () => {
  it("replace the cause and zero clauses with the view's zero clause and is:fixed_by_map, and toggle off", () => {
    const f = withFixedByMap("agent:a recorded:..0 cause:tool_failed", true, "contract");
    expect(f).toBe("agent:a contract:..0 is:fixed_by_map");
    expect(hasFixedByMap(f)).toBe(true);
    expect(withFixedByMap(f, false, "contract")).toBe("agent:a");
    expect(hasFixedByMap("agent:a")).toBe(false);
    // A cause chosen afterwards keeps the clause: the list then holds that cause's rescued zeros.
    expect(withCause(f, "identity", "contract")).toBe("agent:a is:fixed_by_map contract:..0 cause:identity");
  });
});

describe("a recorded field's value chosen in the breakdown", () => {
  it("keeps the recorded zeros with that value, replaces the field's other value, and toggles off", () => {
    const f = withRecordedValue("agent:a", "failure_reason", '"tool_name_mismatch"');
    expect(f).toBe("agent:a recorded:..0 verifier:failure_reason=tool_name_mismatch");
    expect(recordedChoice(f)).toEqual({
      clauses: new Set(["agent:a", "recorded:..0", "verifier:failure_reason=tool_name_mismatch"]),
      chosen: true,
    });
    expect(recordedChoice("agent:a").chosen).toBe(false);
    // Another value of the same field replaces it; another field adds to it.
    const g = withRecordedValue(f, "failure_reason", '"argument below threshold"');
    expect(g).toBe('agent:a recorded:..0 verifier:failure_reason="argument below threshold"');
    const both = withRecordedValue(g, "hit", "false");
    expect(both).toBe(
      'agent:a verifier:failure_reason="argument below threshold" recorded:..0 verifier:hit=false',
    );
    // One off: the other still needs the zeros.
    expect(withRecordedValue(both, "hit", "false")).toBe(
      'agent:a verifier:failure_reason="argument below threshold" recorded:..0',
    );
    // Chosen again: off, and the zeros with it.
    expect(withRecordedValue(f, "failure_reason", '"tool_name_mismatch"')).toBe("agent:a");
    // A cause chosen too keeps its zeros.
    const caused = withCause(f, "no_verifier_port", "recorded");
    expect(withRecordedValue(caused, "failure_reason", '"tool_name_mismatch"')).toBe(
      "agent:a recorded:..0 cause:no_verifier_port",
    );
    // A key no clause can name leaves the filter as it was.
    expect(withRecordedValue("agent:a", "two words", "1")).toBe("agent:a");
  });

  it("comes with its server's clause when the run has several verifiers (is:no_server for none)", () => {
    const f = withRecordedValue("", "failure_reason", '"x"', "image_tools");
    expect(f).toBe("server:image_tools recorded:..0 verifier:failure_reason=x");
    // Already there: not twice.
    expect(withRecordedValue(f, "hit", "false", "image_tools")).toBe(
      "server:image_tools verifier:failure_reason=x recorded:..0 verifier:hit=false",
    );
    expect(withRecordedValue("", "hit", "false", null)).toBe("is:no_server recorded:..0 verifier:hit=false");
    // One verifier: no clause needed.
    expect(withRecordedValue("", "hit", "false")).toBe("recorded:..0 verifier:hit=false");
    // Off again: the server and the zeros it came with go too.
    expect(withRecordedValue(f, "failure_reason", '"x"', "image_tools")).toBe("");
    expect(
      withRecordedValue("agent:a is:no_server recorded:..0 verifier:hit=false", "hit", "false", null),
    ).toBe("agent:a");
  });

  it("goes when the reward switches to a policy's, whose zeros are not these", () => {
    const f = withRecordedValue("agent:a", "failure_reason", '"none"');
    expect(switchReward({ f, reward: "recorded" }, "contract").f).toBe("agent:a contract:..0");
  });
});

describe("the calls a transcript range shows", () => {
  it("are the calls whose items are in [start, end)", () => {
    // Calls at items 1, 3, 4 and 8 (a reasoning item or message between some).
    const items = Int32Array.from([1, 3, 4, 8]);
    expect(callsInItems(items, 0, 2)).toEqual([0, 1]);
    expect(callsInItems(items, 2, 5)).toEqual([1, 3]);
    expect(callsInItems(items, 5, 8)).toEqual([3, 3]);
    expect(callsInItems(items, 0, 100)).toEqual([0, 4]);
    expect(callsInItems(new Int32Array(), 0, 10)).toEqual([0, 0]);
  });
});

describe("the reward switch", () => {
  it("sets the one setting and moves the zeros of a chosen chip, tile or cause with it", () => {
    const f = withCause("agent:a", "tool_failed", "recorded");
    expect(switchReward({ f, reward: "recorded" }, "legacy")).toEqual({
      f: "agent:a legacy:..0 cause:tool_failed",
      reward: "legacy",
    });
    // Without a zero clause the filter is kept as typed.
    expect(switchReward({ f: "agent:a  text:x", reward: "recorded" }, "contract")).toEqual({
      f: "agent:a  text:x",
      reward: "contract",
    });
    // A filter that does not parse is not rewritten.
    expect(switchReward({ f: 'text:"open', reward: "contract" }, "recorded")).toEqual({
      f: 'text:"open',
      reward: "recorded",
    });
  });
});

describe("the workspace's readiness", () => {
  const settled = { dataset: datasetSummary(), busy: false, indexSettled: true, current: true };

  it("is ready and rewarded once the file is read, settled and shown with every reward in", () => {
    expect(workspaceReadiness(settled)).toEqual({ ready: true, rewarded: true });
  });

  it("is ready but not rewarded while rewards fill in", () => {
    expect(workspaceReadiness({ ...settled, dataset: datasetSummary({ rewarded: 3 }) })).toEqual({
      ready: true,
      rewarded: false,
    });
  });

  it("is neither while the file streams, files load, the index answers or the list shows older rows", () => {
    const not = { ready: false, rewarded: false };
    expect(workspaceReadiness({ ...settled, dataset: datasetSummary({ indexed: false }) })).toEqual(not);
    expect(workspaceReadiness({ ...settled, busy: true })).toEqual(not);
    expect(workspaceReadiness({ ...settled, indexSettled: false })).toEqual(not);
    expect(workspaceReadiness({ ...settled, current: false })).toEqual(not);
    expect(workspaceReadiness({ ...settled, dataset: null })).toEqual(not);
  });
});

describe("the link to /compare", () => {
  it("opens the what-if of the open rollout, and with two rollouts files open, compares them as A and B", () => {
    expect(compareLink(null, null, null, [])).toBe("/compare");
    // One file open: it is A and B (a third pass found the bundled pair, unrelated to it).
    expect(compareLink("d1", 4, "d1", ["d1"])).toBe("/compare?tab=whatif&sample=d1&line=4&a=d1&b=d1");
    // A bundled sample opened by its name: the link names no run (the sample pair stays the default).
    expect(compareLink("s.jsonl", 4, null, [])).toBe("/compare?tab=whatif&sample=s.jsonl&line=4");
    // The shown file is A, the next open one B (a second new-user pass found the bundled pair instead).
    expect(compareLink("d2", 4, "d2", ["d1", "d2", "d3"])).toBe(
      "/compare?tab=whatif&sample=d2&line=4&a=d2&b=d1",
    );
    expect(compareLink(null, null, "d1", ["d1", "d2"])).toBe("/compare?a=d1&b=d2");
    // The only run offered is the shown one: B is A, the one to change (never the bundled pair).
    expect(compareLink(null, null, "d1", ["d1"])).toBe("/compare?a=d1&b=d1");
  });
});
