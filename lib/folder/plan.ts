/**
 * Which configs, task rows and metrics go with each rollouts file of an opened folder. A folder may hold
 * one run (a Gym example folder: configs/, data/) or many (all of Gym's resources_servers/): each rollouts
 * file takes, per role, the files under its nearest ancestor directory that holds any file of that role.
 * So `resources_servers/x/data/example_rollouts.jsonl` takes `resources_servers/x/configs/*.yaml` and
 * `resources_servers/x/data/example.jsonl`; a file with no config of its own climbs until one is found,
 * and several configs found together are merged as Gym merges its config_paths.
 */
import { type ConfigRoutes, configRoutes, type GymConfig } from "./config";
import type { GymMetrics } from "./metrics";
import type { FileRole, RoleDecision } from "./roles";

export interface RunPlan {
  /** The rollouts file. */
  readonly rollouts: string;
  /** Config files that route its lines, and the routes they give. */
  readonly configs: readonly string[];
  readonly routes: ConfigRoutes;
  /** Task-row files its lines pair against. */
  readonly inputs: readonly string[];
  /** Gym metrics files shown beside its figures: each metrics file goes with one run only (metricsRun). */
  readonly metrics: readonly string[];
}

/** The metrics files of a run with what they hold. */
export function runMetrics(plan: FolderPlan, run: RunPlan): { path: string; metrics: GymMetrics }[] {
  return run.metrics.flatMap((path) => {
    const d = plan.decisions.find((x) => x.path === path);
    return d?.metrics === undefined ? [] : [{ path, metrics: d.metrics }];
  });
}

/**
 * The task-row file Gym's dataset metrics describe: the run's inputs file whose path ends the metrics'
 * `jsonl_fpath` (Gym writes it relative to its checkout), else the one input with its file name, else, when
 * they name no file, the only one.
 * Metrics naming a file that is not among the inputs describe none of them (a folder's
 * parallel_example_metrics.json beside example.jsonl alone was compared with example.jsonl).
 */
export function datasetOf(metrics: GymMetrics, inputs: readonly string[]): string | null {
  if (metrics.kind !== "dataset") return null;
  const target = metrics.jsonl_fpath;
  if (target !== null) {
    // The path itself first: Gym's openenv folder holds data/example.jsonl, data/echo/example.jsonl and
    // two more example.jsonl, and its metrics name the echo one (matched by name, the first listed won).
    // The longest such path, whatever the order (a folder opened a level deeper lists "example.jsonl"
    // beside "echo/example.jsonl": both end the metrics' path, the echo one more of it).
    const exact = inputs
      .filter((p) => target === p || target.endsWith(`/${p}`))
      .reduce<string | null>((best, p) => (best === null || p.length > best.length ? p : best), null);
    if (exact !== null) return exact;
    // Then the file name, when one input alone has it (the folder opened at another depth than Gym's).
    const name = target.split("/").pop();
    const named = inputs.filter((p) => p === name || p.endsWith(`/${name}`));
    return named.length === 1 ? (named[0] ?? null) : null;
  }
  return inputs.length === 1 ? (inputs[0] ?? null) : null;
}

export interface FolderPlan {
  readonly decisions: readonly RoleDecision[];
  readonly runs: readonly RunPlan[];
}

const dirname = (path: string) => {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? "" : path.slice(0, cut);
};

const inside = (dir: string, path: string) => dir === "" || path.startsWith(`${dir}/`);

/** The top directory of `path` below `dir` (`path` inside `dir`), or null when `path` is directly in `dir`. */
function childOf(dir: string, path: string): string | null {
  const rest = dir === "" ? path : path.slice(dir.length + 1);
  const cut = rest.indexOf("/");
  return cut < 0 ? null : rest.slice(0, cut);
}

/**
 * The files of `role` under the nearest ancestor directory of `path` that holds any. Above a run's own Gym
 * folder that directory may hold other runs: a folder of several runs opened from above (`runs/a/…`,
 * `runs/b/…`, no config of its own outside them) gives a run without configs or task rows of its own none of
 * its sibling runs'. A Gym folder (`configs` beside its runs: `data/example_rollouts.jsonl` and a user's
 * `results/run.jsonl`) shares its files among its runs. `runs`: the rollouts files; `configs`: the configs.
 */
export function nearest(
  path: string,
  files: readonly string[],
  runs: readonly string[],
  configs: readonly string[],
): string[] {
  let dir = dirname(path);
  for (;;) {
    const own = childOf(dir, path);
    const runChildren = new Set(
      runs.flatMap((run) => {
        const child = inside(dir, run) ? childOf(dir, run) : null;
        return child === null ? [] : [child];
      }),
    );
    const gymFolder = configs.some((config) => {
      if (!inside(dir, config)) return false;
      const child = childOf(dir, config);
      return child === null || !runChildren.has(child);
    });
    const found = files.filter((f) => {
      if (f === path || !inside(dir, f)) return false;
      const child = childOf(dir, f);
      return gymFolder || child === null || child === own || !runChildren.has(child);
    });
    if (found.length > 0 || dir === "") return found;
    dir = dirname(dir);
  }
}

const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** What a metrics file is named after: `foo` of `foo_aggregate_metrics.json`, `example` of `example_metrics.json`. */
function metricsStem(path: string): string {
  return basename(path).replace(/(_aggregate_metrics|_agent_metrics|_metrics)?\.json$/i, "");
}

/** A rollouts file's name without its extension (`.jsonl`, `.jsonl.gz`, `.json`). */
function rolloutsStem(path: string): string {
  return basename(path).replace(/\.jsonl?(\.gz)?$/i, "");
}

/**
 * The one run a metrics file goes with, among the runs that take it as their nearest metrics (`runs`, in
 * path order): the run named after it, else the first. Gym writes `<out>_aggregate_metrics.json` beside
 * `<out>.jsonl` (rollout_collection.py, `output_fpath.stem + "_aggregate_metrics"`), and an example folder's
 * `example_metrics.json` describes `example.jsonl`, whose rollouts Gym ships as `example_rollouts.jsonl`. One
 * run each, so a folder with two rollouts files beside one metrics file says its figures once.
 */
export function metricsRun(metrics: string, runs: readonly string[]): string | null {
  const stem = metricsStem(metrics);
  const dir = dirname(metrics);
  const named = runs.find(
    (r) => dirname(r) === dir && (rolloutsStem(r) === stem || rolloutsStem(r) === `${stem}_rollouts`),
  );
  return named ?? runs[0] ?? null;
}

/**
 * Folder-relative paths in the order `cli ... DIR` walks them (each directory's names sorted by code unit):
 * segment by segment, so `a/x` comes before `a-b/x` as the walk has it (a plain string sort would not).
 */
export function comparePaths(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (p !== q) return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

export function planFolder(decisions: readonly RoleDecision[]): FolderPlan {
  const byRole = (role: FileRole) => decisions.filter((d) => d.role === role).map((d) => d.path);
  const configs = new Map<string, GymConfig>();
  for (const d of decisions) if (d.role === "config" && d.config !== undefined) configs.set(d.path, d.config);
  const configFiles = [...configs.keys()];
  const inputs = byRole("inputs");
  const metrics = byRole("metrics");
  const rolloutFiles = byRole("rollouts");
  // Each run's files of a role: one rule for its metrics, configs and task rows (`nearest`).
  const near = (path: string, files: readonly string[]) => nearest(path, files, rolloutFiles, configFiles);
  const nearestMetrics = new Map(rolloutFiles.map((r) => [r, near(r, metrics)] as const));
  const owner = new Map(
    metrics.map((m) => [
      m,
      metricsRun(
        m,
        rolloutFiles.filter((r) => nearestMetrics.get(r)?.includes(m)),
      ),
    ]),
  );
  const runs = rolloutFiles.map((rollouts): RunPlan => {
    const mine = near(rollouts, configFiles);
    return {
      rollouts,
      configs: mine,
      routes: configRoutes(mine.flatMap((p) => configs.get(p) ?? [])),
      inputs: near(rollouts, inputs),
      metrics: (nearestMetrics.get(rollouts) ?? []).filter((m) => owner.get(m) === rollouts),
    };
  });
  return { decisions, runs };
}
