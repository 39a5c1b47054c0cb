import { describe, expect, it } from "vitest";
import { comparableRuns, folderComparisons } from "./comparable-runs";

describe("comparableRuns", () => {
  it("offers as run B a file of the same task rows, then of a server in common, never another server's run", () => {
    const file = (id: string, servers: string[], paired_inputs: string | null = null, paired_rows = 5) => ({
      id,
      ref: `served:${id}`,
      paired_inputs,
      paired_rows,
      servers,
      indexed: servers.length > 0 || id === "no-server",
    });
    const wa = ["workplace_assistant"];
    const sets = [
      file("wa-http", wa),
      file("calendar", ["calendar"]),
      file("unread", []),
      file("wa-mcp", ["calendar", "workplace_assistant"]),
      file("tasks-twin", ["x"], "i1"),
    ];
    // Another server's run is left out; a file whose rows are not read yet may be either: after the sure one.
    expect(comparableRuns(sets[0] ?? null, sets)).toEqual([
      "served:wa-http",
      "served:wa-mcp",
      "served:unread",
    ]);
    // Paired with the same task rows: the likeliest B of all, whatever its servers.
    const shown = file("x", ["y"], "i1");
    expect(comparableRuns(shown, [shown, ...sets])[1]).toBe("served:tasks-twin");
    // The one inputs file open, every file's pairing whether its rows matched or not: not the same tasks.
    const unmatched = file("calendar-run", ["calendar"], "i1", 0);
    expect(comparableRuns(unmatched, [unmatched, file("wa-run", wa, "i1")])).toEqual(["served:calendar-run"]);
    // A run whose rows no server verifies (calendar without its config) is not a workplace run's B, nor the
    // reverse; two such runs may be (two harnesses of one unported server).
    const noServer = file("no-server", []);
    expect(comparableRuns(sets[0] ?? null, [sets[0]!, noServer])).toEqual(["served:wa-http"]);
    expect(comparableRuns(noServer, [noServer, sets[0]!])).toEqual(["served:no-server"]);
    const twin = { ...file("no-server-2", []), indexed: true };
    expect(comparableRuns(noServer, [noServer, twin])).toEqual(["served:no-server", "served:no-server-2"]);
    // A run of one server beside other servers' runs only: offered none but itself (B is then A, the one to change).
    expect(comparableRuns(sets[1] ?? null, [sets[0]!, sets[1]!])).toEqual(["served:calendar"]);
    // Two runs no server verifies here, each paired with rows of its own task file (Gym's abstention and
    // arc_agi examples in one folder): two experiments.
    const abstention = { ...file("abstention", [], "i-abstention"), indexed: true };
    const arc = { ...file("arc_agi", [], "i-arc"), indexed: true };
    expect(comparableRuns(abstention, [abstention, arc])).toEqual(["served:abstention"]);
    // Nor beside a run with no rows paired (Gym's biomnibench_da example): its tasks are not known to be these.
    const unpaired = { ...file("unpaired", [], null, 0), indexed: true };
    expect(comparableRuns(abstention, [abstention, unpaired])).toEqual(["served:abstention"]);
    // Two runs whose rows no inputs file matched (one lone inputs file is both files' pairing): nothing tells
    // them apart.
    const lone = (id: string) => ({ ...file(id, [], "i-lone", 0), indexed: true });
    expect(comparableRuns(lone("h1"), [lone("h1"), lone("h2")])).toEqual(["served:h1", "served:h2"]);
  });
});

describe("folderComparisons", () => {
  const run = (id: string, servers: string[], paired_inputs: string | null = null, paired_rows = 0) => ({
    id,
    paired_inputs,
    paired_rows,
    servers,
    indexed: true,
  });
  it("pairs a folder's runs of one experiment: the same task rows, or a verifying server in common", () => {
    const http = run("wa-http", ["workplace_assistant"]);
    const mcp = run("wa-mcp", ["workplace_assistant"]);
    const aviary = run("aviary", ["aviary"]);
    const abstention = run("abstention", [], "i-a", 5);
    const abstentionTwin = run("abstention-2", [], "i-a", 5);
    const arc = run("arc", [], "i-arc", 5);
    const pairs = folderComparisons([http, aviary, mcp, abstention, arc, abstentionTwin]);
    expect(pairs.map(({ a, b }) => `${a.id}|${b.id}`)).toEqual(["wa-http|wa-mcp", "abstention|abstention-2"]);
    // A file not read yet pairs with nothing (its servers are not known).
    expect(folderComparisons([http, { ...mcp, indexed: false }])).toEqual([]);
  });
});
