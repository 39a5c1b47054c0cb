/**
 * What survives a reload, and when it is written: each opened file (./opfs.ts keeps it in the browser) and,
 * once all its rewards are in, its computed results (./results-cache.ts), restored before any reward is
 * computed again. Keeping is a convenience: nothing here ever fails a load.
 */
import type { AnalyzedRollout } from "./core";
import type { RecentFile } from "./protocol";
import { contentHash, type ResultsStore, readResults, resultsKey, writeResults } from "./results-cache";
import type { Dataset } from "./store";

/** Keeps opened files across reloads (the origin-private file system in the browser). */
export interface KeptFiles {
  /**
   * `fallbackServer`: the server rows that name none are verified against (a bundled sample's). `idle`
   * resolves when the copy may go on (between its slices): no search is reading the file.
   */
  save(
    id: string,
    name: string,
    blob: Blob,
    fallbackServer: string | null,
    idle?: () => Promise<void>,
  ): Promise<void>;
  open(id: string): Promise<KeptFile | null>;
  recent(): Promise<RecentFile[]>;
}

export interface KeptFile {
  readonly name: string;
  readonly blob: Blob;
  readonly fallbackServer: string | null;
}

/** The analysis a file is loaded with: no server chosen, no harness, no inputs file (what results are kept for). */
export function defaultAnalysis(dataset: Dataset): boolean {
  return (
    dataset.serverOverride === null &&
    dataset.pairedInputs === null &&
    dataset.harness.all === null &&
    Object.keys(dataset.harness.agents).length === 0
  );
}

export class Keeper {
  /** Datasets whose results are kept (or being kept) for this analysis generation: written once. */
  private readonly keptResults = new Map<string, number>();

  constructor(
    private readonly files: KeptFiles | null,
    private readonly results: ResultsStore | null,
    /**
     * Resolves once no search reads the file: the copy and the content hash each read the whole file again,
     * and beside a search (a term in every rollout reads every byte) they made it up to 3x slower.
     */
    private readonly idle: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Keeps a copy of an opened file (reload, recent files). */
  async save(dataset: Dataset): Promise<void> {
    try {
      await this.files?.save(dataset.id, dataset.name, dataset.blob(), dataset.fallbackServer, this.idle);
    } catch {
      // Keeping a copy is a convenience (reload, recent files); a full disk must not fail the load.
    }
  }

  /** A kept file, by id; null when nothing is kept under it. */
  async open(id: string): Promise<KeptFile | null> {
    return (await this.files?.open(id)) ?? null;
  }

  recent(): Promise<RecentFile[]> {
    return this.files?.recent() ?? Promise.resolve([]);
  }

  /** The key a dataset's results are kept under (its content hash, computed once), or null when none apply. */
  private async resultsKeyOf(dataset: Dataset): Promise<string | null> {
    if (this.results === null) return null;
    dataset.contentHash ??= contentHash(dataset.blob(), this.idle);
    return resultsKey(await dataset.contentHash, dataset.fallbackServer);
  }

  /**
   * A reopened file's kept results, applied before any reward is computed: its rows show their rewards and
   * causes at once (never "unverified" while they would be recomputed). Only for the default analysis.
   */
  async restoreResults(dataset: Dataset): Promise<void> {
    if (dataset.kind !== "rollouts" || !defaultAnalysis(dataset)) return;
    const key = await this.resultsKeyOf(dataset).catch(() => null);
    if (key === null || this.results === null) return;
    const rows = await readResults(this.results, key);
    if (rows === null || !defaultAnalysis(dataset)) return;
    dataset.revision++;
    for (const row of rows) {
      if (!dataset.entries.has(row.entry.line) || !dataset.pendingRewards.has(row.entry.line)) continue;
      dataset.setAnalyzed(row);
      dataset.pendingRewards.delete(row.entry.line);
    }
    this.keptResults.set(dataset.id, dataset.analysisGeneration);
  }

  /** Keeps a dataset's results once all its rewards are in (default analysis only), for the next reload. */
  keepResults(dataset: Dataset): void {
    if (this.results === null || dataset.kind !== "rollouts" || !defaultAnalysis(dataset)) return;
    if (dataset.pendingRewards.size > 0 || this.keptResults.get(dataset.id) === dataset.analysisGeneration)
      return;
    const generation = dataset.analysisGeneration;
    this.keptResults.set(dataset.id, generation);
    const store = this.results;
    void (async () => {
      const key = await this.resultsKeyOf(dataset);
      if (key === null || dataset.analysisGeneration !== generation) return;
      const rows: AnalyzedRollout[] = [];
      for (const line of dataset.lines()) {
        const entry = dataset.entries.get(line);
        const runRow = dataset.runRows.get(line);
        if (entry?.rewards !== "done" || entry.counts === null || !runRow) return;
        rows.push({ entry: { ...entry, counts: entry.counts }, run: runRow.run, emitted: runRow.emitted });
      }
      await writeResults(store, key, rows);
    })().catch(() => {
      // Keeping results is a convenience (a reload without a recomputation); a full disk must not fail anything.
    });
  }
}
