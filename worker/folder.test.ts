/**
 * An opened folder (./folder.ts): roles from content unless the user chose one, lib's plan applied to the
 * datasets read (configs and task rows per rollouts file, a change said once), and the folder as the page
 * shows it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { comparePaths, configRoutes, type FolderFile, planFolder } from "@/lib/folder";
import { startServerHint } from "@/lib/live";
import { lineConfigs, ngRunCommand } from "@/lib/verify";
import { applyPlan, decideRoles, folderSummary } from "./folder";
import { inProcessPool } from "./pool";
import type { FolderEntry } from "./protocol";
import { DataService } from "./service";
import { Dataset } from "./store";
import { inputsFile, noecho } from "./test-files";

const firstLine = (full: string) => `${readFileSync(full, "utf8").split("\n")[0]}\n`;
const heads: FolderFile[] = [
  { path: "run/rollouts.jsonl", head: firstLine(noecho), complete: false },
  { path: "run/inputs.jsonl", head: firstLine(inputsFile), complete: false },
  { path: "run/notes.txt", head: "", complete: false },
];

describe("decideRoles", () => {
  it("reads each file's role from its content; a role the user chose wins and says so", () => {
    const decided = decideRoles(heads, new Map());
    expect(decided.map((d) => [d.path, d.role, d.chosen])).toEqual([
      ["run/rollouts.jsonl", "rollouts", false],
      ["run/inputs.jsonl", "inputs", false],
      ["run/notes.txt", "ignore", false],
    ]);
    const chosen = decideRoles(heads, new Map([["run/inputs.jsonl", "ignore"]]));
    expect(chosen[1]).toMatchObject({ role: "ignore", chosen: true });
  });
});

describe("applyPlan and folderSummary", () => {
  it("gives the rollouts file its task rows, says a change once, and lists every file with its dataset", () => {
    const decisions = decideRoles(heads, new Map());
    const plan = planFolder(decisions);
    const rollouts = new Dataset("d-r", "run/rollouts.jsonl", 0, null);
    const inputs = new Dataset("d-i", "run/inputs.jsonl", 0, null);
    inputs.kind = "inputs";
    const datasets = new Map([
      ["run/rollouts.jsonl", rollouts],
      ["run/inputs.jsonl", inputs],
    ]);
    expect(applyPlan(plan, decisions, datasets)).toEqual([rollouts]);
    expect(rollouts.planInputs).toEqual(["d-i"]);
    // The same plan again changes nothing.
    expect(applyPlan(plan, decisions, datasets)).toEqual([]);

    const summary = folderSummary({
      name: "run",
      root: null,
      picked: false,
      entries: [],
      heads,
      overrides: new Map(),
      hidden: [".hydra/"],
      plan,
      datasets,
    });
    expect(summary.hidden).toEqual([".hydra/"]);
    expect(summary.files.map((f) => [f.path, f.role, f.dataset])).toEqual([
      ["run/rollouts.jsonl", "rollouts", "d-r"],
      ["run/inputs.jsonl", "inputs", "d-i"],
      ["run/notes.txt", "ignore", null],
    ]);
    expect(summary.runs).toMatchObject([
      { rollouts: "run/rollouts.jsonl", dataset: "d-r", inputs: ["run/inputs.jsonl"] },
    ]);
  });
});

describe("/live's ng_run for a folder's line", () => {
  it("names the folder's configs that route the line, as its no_verifier sentence does", async () => {
    const dir = join(import.meta.dirname, "../fixtures/gym-examples/resources_servers/iheval");
    const entries: FolderEntry[] = [];
    for (const sub of ["configs", "data"])
      for (const name of readdirSync(join(dir, sub)).sort())
        entries.push({ path: `${sub}/${name}`, file: new File([readFileSync(join(dir, sub, name))], name) });
    const service = new DataService(inProcessPool());
    const summary = await service.loadFolder("iheval", entries, new AbortController().signal, () => {});
    await service.settled();
    const rollouts = summary.datasets.find((d) => d.kind === "rollouts");
    // Its rows' verifying servers, as the summary lists them (/compare's run B is chosen by them).
    expect(service.session().datasets.find((d) => d.id === rollouts?.id)?.servers).toEqual(["iheval"]);
    const opened = service.fileOf(rollouts?.id ?? "");
    if (opened === null) throw new Error("no rollouts file");
    // Two configs in the folder; the line is routed by one of them.
    expect(opened.configs).toEqual(["configs/iheval.yaml", "configs/iheval_serve.yaml"]);
    const entry = service.changes(rollouts?.id ?? "", 0).entries[0];
    const line = JSON.parse(
      await opened.file.text().then((t) => t.split("\n")[(entry?.line ?? 1) - 1] ?? ""),
    );
    const configs = lineConfigs(opened.configs, configRoutes(opened.gymConfigs), line);
    expect(configs).toEqual(["configs/iheval.yaml"]);
    expect(entry?.unverified).toBe("no_verifier");
    expect(entry?.error).toContain(`start it with ${ngRunCommand(configs)}`);
    expect(startServerHint(configs)).toContain(ngRunCommand(configs));
    // The command to check it live pairs it with the folder's task rows, as the page's check does.
    expect(entry?.error).toContain(
      "cli live URL --rollouts data/example_rollouts.jsonl --inputs data/example.jsonl`",
    );
    const options = await service.lineOptions(rollouts?.id ?? "", entry?.line ?? 0);
    expect(options).toMatchObject({
      server: "iheval",
      pairing: { paired_by: "input", row: "data/example.jsonl line 1" },
      source: { rollouts: "data/example_rollouts.jsonl", inputs: ["data/example.jsonl"] },
    });
    expect(options?.input).toEqual(JSON.parse(firstLine(join(dir, "data/example.jsonl"))));
    expect(await service.lineOptions(rollouts?.id ?? "", 10_000)).toBeNull();
  });
});

describe("a folder's files", () => {
  it("come in the order cli triage DIR walks them, whatever order the browser hands them in", async () => {
    const root = join(import.meta.dirname, "../fixtures/gym-examples/resources_servers");
    const entries: FolderEntry[] = [];
    // Reversed: a file picker's order is the file system's, not the paths'.
    for (const server of ["structeval", "image_tools"].reverse())
      for (const name of readdirSync(join(root, server, "data"))
        .sort()
        .reverse())
        entries.push({
          path: `${server}/data/${name}`,
          file: new File([readFileSync(join(root, server, "data", name))], name),
        });
    const service = new DataService(inProcessPool());
    const summary = await service.loadFolder("servers", entries, new AbortController().signal, () => {});
    const paths = (summary.folder?.files ?? []).map((file) => file.path);
    expect(paths).toEqual([...paths].sort(comparePaths));
    expect(paths[0]).toBe("image_tools/data/example.jsonl");
    const rollouts = summary.datasets.filter((d) => d.kind === "rollouts").map((d) => d.name);
    expect(rollouts).toEqual([...rollouts].sort(comparePaths));
    expect(rollouts[0]).toBe("image_tools/data/example_rollouts.jsonl");
  });
});

describe("files picked together", () => {
  const dir = join(import.meta.dirname, "../fixtures/gym-examples/resources_servers/iheval");
  const picked = (...paths: string[]) =>
    paths.map((p) => ({
      kind: "file" as const,
      file: new File([readFileSync(join(dir, p))], p.split("/").pop() ?? p),
    }));
  const never = new AbortController().signal;

  it("are read as a folder when a Gym config is among them: it routes the rollouts' lines", async () => {
    const service = new DataService(inProcessPool());
    const summary = await service.load(
      picked("data/example_rollouts.jsonl", "configs/iheval.yaml", "configs/iheval_serve.yaml"),
      null,
      never,
      () => {},
    );
    await service.settled();
    expect(summary.folder).toMatchObject({ name: "3 files picked together", picked: true });
    expect(summary.folder?.files.map((f) => [f.path, f.role])).toEqual([
      ["example_rollouts.jsonl", "rollouts"],
      ["iheval.yaml", "config"],
      ["iheval_serve.yaml", "config"],
    ]);
    const rollouts = summary.datasets.find((d) => d.kind === "rollouts");
    const entry = service.changes(rollouts?.id ?? "", 0).entries[0];
    expect(entry?.server_source).toBe("config");
    expect(service.fileOf(rollouts?.id ?? "")?.configs).toEqual(["iheval.yaml", "iheval_serve.yaml"]);
  });

  it("stay files without a config or metrics file among them, and the rollouts alone are not routed", async () => {
    const service = new DataService(inProcessPool());
    const summary = await service.load(
      picked("data/example_rollouts.jsonl", "data/example.jsonl"),
      null,
      never,
      () => {},
    );
    await service.settled();
    expect(summary.folder).toBeNull();
    const rollouts = summary.datasets.find((d) => d.kind === "rollouts");
    const rows = service.changes(rollouts?.id ?? "", 0).entries;
    expect(rows.length).toBeGreaterThan(0);
    // Gym's iheval lines name no server of their own: without the config, none is decided.
    for (const row of rows) expect(row.server_source).toBe("none");
  });
});
