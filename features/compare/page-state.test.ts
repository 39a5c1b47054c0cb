import { describe, expect, it } from "vitest";
import type { Sample } from "@/hooks/samples";
import {
  canRepair,
  companionsOf,
  defaultServers,
  dropPatch,
  fileChoices,
  inputsFor,
  pairedInputsOf,
  parseServers,
  repairIsStale,
  sidePatch,
  splitOpened,
} from "./page-state";
import { NO_INPUTS } from "./state";

const SAMPLES: Sample[] = [
  { file: "s.jsonl", title: "S", description: "inputs: s-inputs.jsonl", server: null, kind: "rollouts" },
  { file: "s-inputs.jsonl", title: "S inputs", description: "", server: null, kind: "inputs" },
];

describe("the pickers' choices", () => {
  it("files opened in the tab first, by id, told apart by opening order; then the bundled samples", () => {
    const session = [
      { id: "d2", name: "run.jsonl", kind: "rollouts" as const, indexed: true },
      { id: "d1", name: "run.jsonl", kind: "rollouts" as const, indexed: true },
      { id: "d0", name: "busy.jsonl", kind: "rollouts" as const, indexed: false },
    ];
    const local = [{ id: "d3", name: "in.jsonl", kind: "inputs" as const }];
    expect(fileChoices(SAMPLES, session, local, "rollouts")).toEqual([
      { name: "d2", label: "run.jsonl #2", title: "run.jsonl #2 (opened in this tab)" },
      { name: "d1", label: "run.jsonl #1", title: "run.jsonl #1 (opened in this tab)" },
      { name: "s.jsonl", title: "S" },
    ]);
    expect(fileChoices(SAMPLES, session, local, "inputs").map((c) => c.name)).toEqual([
      "d3",
      "s-inputs.jsonl",
    ]);
  });
});

describe("the pickers' choices from folders", () => {
  it("a folder's file is labelled with its folder: two folders' data/example_rollouts.jsonl read apart", () => {
    const session = [
      {
        id: "d2",
        name: "data/example_rollouts.jsonl",
        kind: "rollouts" as const,
        indexed: true,
        folder_name: "math",
      },
      {
        id: "d1",
        name: "data/example_rollouts.jsonl",
        kind: "rollouts" as const,
        indexed: true,
        folder_name: "wa",
      },
      { id: "d0", name: "run.jsonl", kind: "rollouts" as const, indexed: true, folder_name: null },
    ];
    expect(fileChoices([], session, [], "rollouts").map((c) => c.label)).toEqual([
      "math/data/example_rollouts.jsonl",
      "wa/data/example_rollouts.jsonl",
      "run.jsonl",
    ]);
  });

  it("the served folder's files are chosen by their path (a link that outlives a reload), the others by id", () => {
    const session = [
      {
        id: "d1",
        ref: "served:data/r.jsonl",
        name: "data/r.jsonl",
        kind: "rollouts" as const,
        indexed: true,
        folder_name: "wa",
      },
      { id: "d0", ref: "d0", name: "run.jsonl", kind: "rollouts" as const, indexed: true, folder_name: null },
    ];
    expect(fileChoices([], session, [], "rollouts").map((c) => [c.name, c.label])).toEqual([
      ["served:data/r.jsonl", "wa/data/r.jsonl"],
      ["d0", "run.jsonl"],
    ]);
  });
});

describe("files opened together", () => {
  const opened = splitOpened([
    { id: "r1", name: "a.jsonl", kind: "rollouts" },
    { id: "i1", name: "ai.jsonl", kind: "inputs" },
    { id: "r2", name: "b.jsonl", kind: "rollouts" },
  ]);

  it("pair each rollouts file with the inputs file opened with it, else the first", () => {
    expect(opened).toEqual({ rollouts: ["r1", "r2"], inputs: ["i1"] });
    expect(companionsOf(opened)).toEqual({ r1: "i1", r2: "i1" });
    expect(companionsOf({ rollouts: ["r1", "r2"], inputs: ["i1", "i2"] })).toEqual({ r1: "i1", r2: "i2" });
    expect(companionsOf({ rollouts: ["r1"], inputs: [] })).toEqual({});
  });

  it("a run's inputs: the choice, else its companion, else its bundled sample's; 'none' turns them off", () => {
    expect(inputsFor("r1", "x", { r1: "i1" }, SAMPLES)).toBe("x");
    expect(inputsFor("r1", null, { r1: "i1" }, SAMPLES)).toBe("i1");
    expect(inputsFor("s.jsonl", null, {}, SAMPLES)).toBe("s-inputs.jsonl");
    expect(inputsFor("s.jsonl", NO_INPUTS, { "s.jsonl": "i1" }, SAMPLES)).toBeNull();
  });
});

describe("where dropped files go", () => {
  it("runs: two runs are A then B with their inputs; one run, or inputs alone, go to B", () => {
    expect(dropPatch("runs", { rollouts: ["r1", "r2"], inputs: ["i1"] })).toEqual({
      a: "r1",
      b: "r2",
      ai: "i1",
      bi: "i1",
      pair: null,
    });
    expect(dropPatch("runs", { rollouts: ["r1"], inputs: [] })).toEqual({ b: "r1", bi: null, pair: null });
    expect(dropPatch("runs", { rollouts: [], inputs: ["i1"] })).toEqual({ bi: "i1", pair: null });
    expect(dropPatch("runs", { rollouts: [], inputs: [] })).toBeNull();
  });

  it("what-if and repair take the first rollouts file; inputs alone change nothing", () => {
    expect(dropPatch("whatif", { rollouts: ["r1", "r2"], inputs: [] })).toEqual({ sample: "r1", line: null });
    expect(dropPatch("repair", { rollouts: ["r1"], inputs: [] })).toEqual({ repairFile: "r1" });
    expect(dropPatch("repair", { rollouts: [], inputs: ["i1"] })).toBeNull();
  });

  it("a side's picker sets that side's run and inputs only", () => {
    expect(sidePatch("a", { rollouts: ["r1"], inputs: [] })).toEqual({ a: "r1", ai: null, pair: null });
    expect(sidePatch("b", { rollouts: ["r1"], inputs: ["i1"] })).toEqual({ b: "r1", bi: "i1", pair: null });
    expect(sidePatch("a", { rollouts: [], inputs: ["i1"] })).toEqual({ ai: "i1", pair: null });
    expect(sidePatch("b", { rollouts: [], inputs: [] })).toBeNull();
  });
});

describe("the repair form", () => {
  const known = [
    { name: "weather", tools: ["get_weather"] },
    { name: "workplace_assistant", tools: ["email_send", "calendar_get"] },
  ];

  it("starts from the file's verifying server with its known tools, else the first known, else a blank row", () => {
    expect(defaultServers(known, ["workplace_assistant"])).toEqual([
      { name: "workplace_assistant", tools: "email_send, calendar_get" },
    ]);
    expect(defaultServers(known, ["unknown"])).toEqual([{ name: "weather", tools: "get_weather" }]);
    expect(defaultServers([], [])).toEqual([{ name: "", tools: "" }]);
  });

  it("reads the typed servers: names trimmed, tools split, unnamed rows left out", () => {
    expect(
      parseServers([
        { name: " wa ", tools: "a, b,,a" },
        { name: "  ", tools: "c" },
      ]),
    ).toEqual([{ name: "wa", tools: ["a", "b"] }]);
  });

  const file = { name: "run.jsonl", version: 1 };
  const form = { file, inputs: null, harness: "hermes-legacy", servers: [{ name: "wa", tools: ["a"] }] };

  it("runs once the file and its inputs are read and every server has a tool", () => {
    expect(canRepair(form)).toBe(true);
    expect(canRepair({ ...form, file: undefined })).toBe(false);
    expect(canRepair({ ...form, inputs: undefined })).toBe(false);
    expect(canRepair({ ...form, servers: [] })).toBe(false);
    expect(canRepair({ ...form, servers: [{ name: "wa", tools: [] }] })).toBe(false);
  });

  it("a result is stale once the file, inputs, harness or servers differ from what it ran on", () => {
    const ran = { file, inputs: null, harness: "hermes-legacy", servers: [{ name: "wa", tools: ["a"] }] };
    expect(repairIsStale(null, form)).toBe(false);
    expect(repairIsStale(ran, form)).toBe(false);
    expect(repairIsStale(ran, { ...form, file: { name: "run.jsonl", version: 2 } })).toBe(true);
    expect(repairIsStale(ran, { ...form, inputs: { version: 1 } })).toBe(true);
    expect(repairIsStale(ran, { ...form, harness: "claude-code" })).toBe(true);
    expect(repairIsStale(ran, { ...form, servers: [{ name: "wa", tools: ["a", "b"] }] })).toBe(true);
  });
});

describe("the inspector's pairing on /compare", () => {
  it("a rollouts file comes with the one inputs file the inspector paired it with, never a union of several", () => {
    const session = [
      { id: "d-run", kind: "rollouts", paired_inputs: "d-rows" },
      { id: "d-rows", kind: "inputs", paired_inputs: null },
      // A folder file paired with two task-row files and rows of its own: no one file to offer.
      { id: "d-two", kind: "rollouts", paired_inputs: "folder:d-rows+d-more+own:d-two" },
      { id: "d-none", kind: "rollouts", paired_inputs: null },
    ];
    expect(pairedInputsOf(session)).toEqual({ "d-run": "d-rows" });
    // The served folder's files as links name them (by path, or by an id an older link holds); the folder
    // read again, the path names the file read last (listed first).
    const served = [
      { id: "d-new", ref: "served:data/r.jsonl", kind: "rollouts", paired_inputs: "d-rows2" },
      { id: "d-rows2", ref: "served:data/rows.jsonl", kind: "inputs", paired_inputs: null },
      { id: "d-old", ref: "served:data/r.jsonl", kind: "rollouts", paired_inputs: "d-other" },
      { id: "d-other", ref: "d-other", kind: "inputs", paired_inputs: null },
    ];
    expect(pairedInputsOf(served)).toEqual({
      "served:data/r.jsonl": "served:data/rows.jsonl",
      "d-new": "served:data/rows.jsonl",
      "d-old": "d-other",
    });
  });
});
