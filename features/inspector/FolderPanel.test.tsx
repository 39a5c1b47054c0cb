/**
 * Gym's own numbers beside ours in the run view: each figure with Gym's value, ours and the difference
 * named, from lib/folder's compareMetrics on Gym's example folders (the comparison `cli verify DIR` prints;
 * worker/parity.test.ts holds the page's to the CLI's). Expected figures are read from the files.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { FileRole } from "@/lib/folder";
import { compareMetrics, DatasetTally, type GymMetrics, readGymMetrics, rowRewards } from "@/lib/folder";
import type { FolderFileView, FolderRunView, FolderSummary, GymMetricsView } from "@/worker/protocol";
import { FOLDER_RUNS_OPEN_MAX, FolderPanel, folderNeedsALook, GymMetricsPanel } from "./FolderPanel";

const SERVERS = join(import.meta.dirname, "../../fixtures/gym-examples/resources_servers");
const METRICS = "data/example_metrics.json";

function metricsOf(text: string): GymMetrics {
  const read = readGymMetrics(text);
  if (!read.ok) throw new Error(read.message);
  return read.metrics;
}

/** One example folder's dataset metrics, compared with its example.jsonl as the worker compares them. */
function datasetView(server: string): { run: FolderRunView; view: GymMetricsView } {
  const metrics = metricsOf(readFileSync(join(SERVERS, server, METRICS), "utf8"));
  const tally = new DatasetTally();
  for (const line of readFileSync(join(SERVERS, server, "data/example.jsonl"), "utf8").split("\n"))
    if (line.trim() !== "") tally.row(JSON.parse(line));
  const report = compareMetrics({ metrics, tally, dataset: "data/example.jsonl" }, []);
  return { run: runWith(METRICS, metrics), view: { path: METRICS, metrics, report } };
}

function runWith(path: string, metrics: GymMetrics): FolderRunView {
  return {
    rollouts: "data/example_rollouts.jsonl",
    dataset: "d-1",
    configs: [],
    inputs: ["data/example.jsonl"],
    servers: [],
    metrics: [{ path, metrics }],
  };
}

const rowOf = (metric: string) => {
  const row = screen
    .getAllByRole("row")
    .find((r) => r.getAttribute("data-metric") === metric && r.closest("tbody") !== null);
  if (row === undefined) throw new Error(`no row ${metric}`);
  return within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);
};

describe("GymMetricsPanel", () => {
  it("sets Gym's figure, ours and the named difference side by side, open when one differs", () => {
    const { run, view } = datasetView("iheval");
    render(<GymMetricsPanel run={run} views={[view]} />);
    const panel = screen.getByTestId("gym-metrics");
    expect(panel).toHaveProperty("open", true);
    const differ = view.report.comparisons.filter((c) => c.ours !== null && !c.same);
    expect(differ.length).toBeGreaterThan(0);
    expect(within(panel).getByText(/Gym's own numbers beside ours/).textContent).toContain(
      `: ${differ.length} difference`,
    );
    // iheval's last row has two user messages; Gym's file says every row has one.
    expect(rowOf("Number of turns Max")).toEqual([
      "Number of turns Max",
      "resources_servers/iheval/data/example.jsonl",
      "1",
      "2",
      "differs by 1 (data/example.jsonl)",
    ]);
    expect(rowOf("Number of examples")).toEqual([
      "Number of examples",
      "resources_servers/iheval/data/example.jsonl",
      "5",
      "5",
      "the same (data/example.jsonl)",
    ]);
    // Every figure has its row; the summary is lib's sentence, the one the CLI prints.
    expect(screen.getAllByRole("row")).toHaveLength(view.report.comparisons.length + 1);
    expect(screen.getByTestId("metrics-summary").textContent).toBe(view.report.summary);
    expect(screen.getByText(/^Not recomputed here:/).textContent).toContain(
      view.report.not_recomputed[0] ?? "",
    );
  });

  it("stays closed when every recomputed figure agrees", () => {
    const { run, view } = datasetView("example_multi_step");
    render(<GymMetricsPanel run={run} views={[view]} />);
    const panel = screen.getByTestId("gym-metrics");
    expect(panel).toHaveProperty("open", false);
    const compared = view.report.comparisons.filter((c) => c.ours !== null).length;
    expect(compared).toBeGreaterThan(0);
    expect(within(panel).getByText(/Gym's own numbers beside ours/).textContent).toContain(
      `: ${compared} recomputed figures agree`,
    );
    for (const row of panel.querySelectorAll("tbody tr[data-metric]"))
      expect(row.getAttribute("data-same")).toBe("true");
  });

  it("claims no agreement when nothing was recomputed (no task rows open)", () => {
    const { run, view } = datasetView("example_multi_step");
    const none = {
      ...view,
      report: { ...view.report, comparisons: view.report.comparisons.map((c) => ({ ...c, ours: null })) },
    };
    render(<GymMetricsPanel run={run} views={[none]} />);
    expect(within(screen.getByTestId("gym-metrics")).getByText(/Gym's own numbers/).textContent).toContain(
      ": none recomputed here",
    );
  });

  it("shows Gym's figures alone while ours are recomputed", () => {
    const { run } = datasetView("iheval");
    render(<GymMetricsPanel run={run} views={undefined} />);
    expect(screen.getByText(/Gym's own numbers beside ours/).textContent).toContain(": recomputing…");
    expect(screen.queryByTestId("metrics-comparisons")).toBeNull();
    expect(screen.getByText(/Number of examples:/).textContent).toBe("Number of examples: 5");
  });

  it("sets an agent's mean reward beside the mean of its recorded and recomputed rewards", () => {
    const path = "run_aggregate_metrics.json";
    const metrics = metricsOf(
      JSON.stringify([{ agent_ref: { name: "calc_agent" }, agent_metrics: { "mean/reward": 0.75 } }]),
    );
    const rows = [
      { agent: "calc_agent", recorded: 1, contract: 1 },
      { agent: "calc_agent", recorded: 0.5, contract: 0 },
    ];
    const report = compareMetrics({ metrics, tally: null, dataset: null }, rows.map(rowRewards));
    render(<GymMetricsPanel run={runWith(path, metrics)} views={[{ path, metrics, report }]} />);
    expect(rowOf("mean/reward (recorded)").slice(1, 5)).toEqual([
      "agent calc_agent",
      "0.75",
      "0.75",
      "the same (the recorded rewards of its 2 lines)",
    ]);
    expect(rowOf("mean/reward (recomputed)").slice(1, 5)).toEqual([
      "agent calc_agent",
      "0.75",
      "0.5",
      "differs by -0.25 (the rewards recomputed here)",
    ]);
  });
});

describe("FolderPanel", () => {
  const file = (path: string, role: FileRole): FolderFileView => ({
    path,
    role,
    reason: `why ${path}`,
    chosen: false,
    dataset: null,
    bytes: 100,
    modified: null,
  });
  const run: FolderRunView = {
    rollouts: "data/example_rollouts.jsonl",
    dataset: "d-1",
    configs: ["configs/x.yaml"],
    inputs: ["data/example.jsonl"],
    servers: ["x"],
    metrics: [],
  };
  const recognised: FolderSummary = {
    name: "x",
    picked: false,
    served: false,
    path: null,
    hidden: [],
    files: [
      file("data/example_rollouts.jsonl", "rollouts"),
      file("data/example.jsonl", "inputs"),
      file("configs/x.yaml", "config"),
    ],
    runs: [run],
  };

  it("starts folded when every file is recognised and each rollouts file has configs and task rows", () => {
    expect(folderNeedsALook(recognised)).toBe(false);
    render(<FolderPanel folder={recognised} onRole={() => {}} busy={false} />);
    expect(screen.getByTestId("folder-panel")).not.toHaveAttribute("open");
    // What each rollouts file is read with stays on screen.
    expect(screen.getByTestId("folder-runs")).toHaveTextContent(
      "read with the Gym config configs/x.yaml (it routes agents to x)",
    );
  });

  it("names the hidden entries it left out in its summary (Hydra's .hydra/ among them)", () => {
    render(
      <FolderPanel
        folder={{ ...recognised, hidden: [".hidden_file", ".hydra/"] }}
        onRole={() => {}}
        busy={false}
      />,
    );
    expect(screen.getByTestId("folder-panel").querySelector("summary")).toHaveTextContent(
      "Folder x: 3 files, 1 rollouts file; left out as hidden: .hidden_file, .hydra/",
    );
  });

  it("folds what each rollouts file is read with past a few files, behind a line that counts them", () => {
    const runs = Array.from({ length: FOLDER_RUNS_OPEN_MAX + 1 }, (_, i) => ({
      ...run,
      rollouts: `s${i}/data/example_rollouts.jsonl`,
    }));
    render(<FolderPanel folder={{ ...recognised, runs }} onRole={() => {}} busy={false} />);
    const folded = screen.getByTestId("folder-runs-folded");
    expect(folded).not.toHaveAttribute("open");
    expect(folded).toHaveTextContent(`What each of the ${runs.length} rollouts files is read with`);
    expect(within(folded).getAllByRole("listitem")).toHaveLength(runs.length);
  });

  it("starts open when something needs a look: an unrecognised data file, no rollouts file, no config or task rows", () => {
    // A server folder's README or code is not data: never a reason to unfold.
    expect(
      folderNeedsALook({ ...recognised, files: [...recognised.files, file("README.md", "ignore")] }),
    ).toBe(false);
    const cases: FolderSummary[] = [
      { ...recognised, files: [...recognised.files, file("data/extra.jsonl", "ignore")] },
      { ...recognised, runs: [] },
      { ...recognised, runs: [{ ...run, configs: [] }] },
      { ...recognised, runs: [{ ...run, inputs: [] }] },
    ];
    for (const folder of cases) expect(folderNeedsALook(folder), JSON.stringify(folder)).toBe(true);
    render(<FolderPanel folder={cases[0]!} onRole={() => {}} busy={false} />);
    expect(screen.getByTestId("folder-panel")).toHaveAttribute("open");
    expect(screen.getByTestId("folder-panel")).toHaveTextContent(
      "(1 JSON or YAML file not recognised as rollouts, task rows, a Gym config or Gym metrics)",
    );
    cleanup();
    // A long table starts folded whatever it holds; its summary still names what needs a look.
    const many = Array.from({ length: 12 }, (_, i) => file(`data/more-${i}.jsonl`, "ignore"));
    render(
      <FolderPanel
        folder={{ ...recognised, files: [...recognised.files, ...many] }}
        onRole={() => {}}
        busy={false}
      />,
    );
    expect(screen.getByTestId("folder-panel")).not.toHaveAttribute("open");
    expect(screen.getByTestId("folder-panel")).toHaveTextContent("(12 JSON or YAML files not recognised as");
  });
});
