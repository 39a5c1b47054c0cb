/**
 * Pairing: which task-rows (inputs) file each rollouts file of the workspace is verified with. The pairing
 * index of an inputs file is built once, here and in every pool worker, before a rewards job names it;
 * lib/verify decides per row whether it pairs (by Gym's indices, else by equal task input).
 */
import { type InputsJob, inputIndex, type LineRef, prepareInputs } from "./jobs";
import type { Pool } from "./pool";
import { resetRewards } from "./rewards-scheduler";
import type { Dataset } from "./store";

/** A row that carries only Gym's indices, to ask an InputIndex whether they pair. */
function keyProbe(key: string): unknown {
  const [task, rollout] = key.split(":").map(Number);
  return { _ng_task_index: task, _ng_rollout_index: rollout };
}

/** Rows of a rollouts file that pair with `inputs` by Gym's indices (its pairing index must be ready). */
async function indexMatches(dataset: Dataset, inputs: string): Promise<number> {
  const index = await inputIndex(inputs);
  let matches = 0;
  for (const entry of dataset.entries.values()) {
    if (entry.key !== null && index?.pair(keyProbe(entry.key)).paired_by === "index") matches++;
  }
  return matches;
}

/** Rows the rewards pass paired (by index or by equal input). */
export function countPaired(dataset: Dataset): number {
  let paired = 0;
  for (const entry of dataset.entries.values()) if (entry.paired) paired++;
  return paired;
}

/**
 * Where every row of an inputs file is, for the pairing index (lib/verify InputIndex); its rows are named by
 * the file's path in an opened folder, else its name, as the CLI names them.
 */
export function inputsJob(inputs: Dataset): InputsJob {
  const lines: LineRef[] = [];
  for (let line = 1; line <= inputs.lineCount; line++) {
    const ref = inputs.lineRef(line);
    if (ref && !inputs.parseErrors.has(line)) lines.push(ref);
  }
  return { id: inputs.id, files: [{ name: inputs.folderPath ?? inputs.name, lines }] };
}

/** The task rows inside a folder's rollouts file (lines of kind task_row), named by its path; null: none. */
function ownTaskRows(dataset: Dataset): InputsJob["files"][number] | null {
  const lines: LineRef[] = [];
  for (const error of dataset.schemaErrors.values()) {
    if (error.line_kind !== "task_row") continue;
    const ref = dataset.lineRef(error.line);
    if (ref !== null) lines.push(ref);
  }
  if (lines.length === 0) return null;
  lines.sort((a, b) => a.line - b.line);
  return { name: dataset.folderPath ?? dataset.name, lines };
}

export class Pairing {
  /** Inputs files (or folder unions of them) whose pairing index is ready, here and in every pool worker. */
  private readonly prepared = new Map<string, Promise<void>>();

  constructor(
    private readonly pool: Pick<Pool, "prepareInputs">,
    private readonly lookup: (id: string) => Dataset | undefined,
  ) {}

  /**
   * Pairs every rollouts file of the workspace with the inputs file that matches the most of its rows by
   * Gym's indices (else the latest inputs file, whose rows may pair by equal task input: lib/verify decides
   * per row in the rewards pass); a folder's file pairs with the task rows its plan gives it. A file whose
   * pairing changed has its rewards reset.
   */
  async pairAll(workspace: () => Dataset[]): Promise<void> {
    const inputs = workspace().filter((dataset) => dataset.kind === "inputs");
    await Promise.all(inputs.map((dataset) => this.prepare(dataset.id, () => inputsJob(dataset))));
    for (const dataset of workspace()) {
      if (dataset.kind !== "rollouts") continue;
      if (dataset.planInputs !== null) {
        await this.pairPlanned(dataset, dataset.planInputs);
        continue;
      }
      let best: { dataset: Dataset; matches: number } | null = null;
      for (const candidate of inputs) {
        const matches = await indexMatches(dataset, candidate.id);
        if (best === null || matches > best.matches) best = { dataset: candidate, matches };
      }
      // A first count by Gym's indices; the rewards pass counts every pairing (equal input too).
      this.setPairing(dataset, best?.dataset.id ?? null, best?.matches ?? 0);
    }
  }

  /**
   * A folder's rollouts file pairs with the task rows its plan gives it and the task rows inside it (all of
   * them, as one index, in that order, as `cli verify DIR` loads them), and with nothing else in the
   * workspace.
   */
  private async pairPlanned(dataset: Dataset, ids: readonly string[]): Promise<void> {
    const inputs = ids.flatMap((id) => this.lookup(id) ?? []).filter((d) => d.kind === "inputs");
    const own = ownTaskRows(dataset);
    let pairedInputs: string | null = null;
    if (inputs.length === 1 && inputs[0] && own === null) pairedInputs = inputs[0].id;
    else if (inputs.length > 0 || own !== null) {
      const union = `folder:${[...inputs.map((d) => d.id), ...(own === null ? [] : [`own:${dataset.id}`])].join("+")}`;
      pairedInputs = union;
      await this.prepare(union, () => ({
        id: union,
        files: [...inputs.flatMap((d) => inputsJob(d).files), ...(own === null ? [] : [own])],
      }));
    }
    const matches = pairedInputs === null ? 0 : await indexMatches(dataset, pairedInputs);
    this.setPairing(dataset, pairedInputs, matches);
  }

  private setPairing(dataset: Dataset, pairedInputs: string | null, matches: number): void {
    const changed = pairedInputs !== dataset.pairedInputs;
    dataset.pairedInputs = pairedInputs;
    // The first count is by Gym's indices only; a file whose pairing is unchanged keeps its rewards, and
    // with them the rewards pass's count (equal input too), which no later pass would redo.
    dataset.pairedRows = changed || dataset.pendingRewards.size > 0 ? matches : countPaired(dataset);
    if (changed) resetRewards(dataset);
  }

  private prepare(id: string, make: () => InputsJob): Promise<void> {
    let ready = this.prepared.get(id);
    if (!ready) {
      const job = make();
      ready = Promise.all([prepareInputs(job), this.pool.prepareInputs(job)]).then(() => undefined);
      this.prepared.set(id, ready);
    }
    return ready;
  }
}
