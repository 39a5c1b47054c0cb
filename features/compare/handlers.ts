/**
 * The compare page's handlers, on the same file store as the inspector's: a file opened on either page is
 * available on both. Comparisons need every rollout of both runs parsed at once (lib/compare takes arrays),
 * so a file's parsed lines are built from its stored bytes when a comparison asks for them and a few are
 * kept (COMPARE_CACHE_FILES); the store itself still holds offsets only.
 */
import { type CompareReport, compareCsv } from "@/lib/compare";
import type { RunServerChoice } from "@/lib/verify";
import { serverChoiceOf } from "@/worker/jobs";
import { folderQualifiedName, isDatasetId, servedPathOf, servedRefMissingText } from "@/worker/protocol";
import type { Handlers } from "@/worker/rpc";
import type { DataService } from "@/worker/service";
import type { Dataset } from "@/worker/store";
import {
  combineInputs,
  comparedName,
  compareFiles,
  compareLines,
  compareView,
  type LoadedFile,
  pairDetail,
  readFile,
  repairedName,
  repairFile,
  rolloutList,
  serverTools,
  summarize,
  whatIf,
} from "./compute";
import type { CompareFileSummary, CompareRequests, FileRef, RunsParams } from "./protocol";

/** Parsed files kept for comparisons: two runs and their two inputs files. */
export const COMPARE_CACHE_FILES = 4;

/** Bundled sample names are plain file names: nothing that could walk out of public/samples. */
const SAMPLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function compareHandlers(service: DataService): Handlers<CompareRequests> {
  // Each file read once, with the bytes it had then: a followed file (cli view) that grew is read again.
  const parsed = new Map<string, { readonly bytes: number; readonly file: LoadedFile }>();
  let lastReport: { key: string; report: CompareReport; conflicts: readonly string[] } | null = null;
  const repaired = new Map<number, { name: string; chunks: readonly Uint8Array[] }>();
  let nextRepairId = 1;

  /** A dataset id first (each opened file has its own), else the latest file of that name (samples). */
  const byRef = (ref: FileRef): Dataset | undefined => {
    const own = service.get(ref);
    if (own?.indexed) return own;
    let found: Dataset | undefined;
    // The latest file of that name wins (the store keeps insertion order).
    for (const dataset of service.store.values())
      if (dataset.name === ref && dataset.indexed) found = dataset;
    return found;
  };

  /** A file's summary under its dataset id, which the page keys it by. */
  const summaryOf = async (dataset: Dataset): Promise<CompareFileSummary> => ({
    ...summarize(await loaded(dataset), serverChoiceOf(dataset.analysisOptions())),
    id: dataset.id,
    analysis: dataset.analysisGeneration,
  });

  const loaded = async (dataset: Dataset): Promise<LoadedFile> => {
    const known = parsed.get(dataset.id);
    if (known && known.bytes === dataset.bytes) {
      // Most recently used last, so the oldest is the one evicted.
      parsed.delete(dataset.id);
      parsed.set(dataset.id, known);
      return known.file;
    }
    parsed.delete(dataset.id);
    const bytes = dataset.bytes;
    // Named as the pickers name it: a folder's file under its folder, so two folders' files read apart in
    // the alignment, the what-if, the pairing sentences and the repaired file's name.
    const file = await readFile(
      folderQualifiedName(dataset.name, dataset.folderName),
      dataset.blob().stream(),
    );
    parsed.set(dataset.id, { bytes, file });
    while (parsed.size > COMPARE_CACHE_FILES) {
      const oldest = parsed.keys().next().value;
      if (oldest === undefined) break;
      parsed.delete(oldest);
    }
    return file;
  };

  const fileOf = async (ref: FileRef): Promise<LoadedFile> => {
    const dataset = byRef(ref);
    if (dataset === undefined) throw new Error(`${ref} is not loaded`);
    return loaded(dataset);
  };

  const rolloutsOf = async (ref: FileRef): Promise<LoadedFile> => {
    const file = await fileOf(ref);
    if (file.kind === "inputs") {
      throw new Error(
        `${file.name} holds materialized inputs, not rollouts: choose it as the inputs of a run`,
      );
    }
    return file;
  };

  const inputsOf = async (ref: FileRef | null): Promise<LoadedFile | null> => {
    if (ref === null) return null;
    const file = await fileOf(ref);
    if (file.kind !== "inputs") {
      throw new Error(
        `${file.name} is not a materialized-inputs file (rows with Gym's indices and no response)`,
      );
    }
    return file;
  };

  /** A run's server choice as its own page makes it: the user's server, its sample's, its folder's configs. */
  const runChoice = (ref: FileRef): RunServerChoice => {
    const dataset = byRef(ref);
    return dataset === undefined ? {} : serverChoiceOf(dataset.analysisOptions());
  };
  /** Changes when what a run is verified with changes (a folder file's role, the server chosen). */
  const analysisOf = (ref: FileRef) => {
    const dataset = byRef(ref);
    return dataset === undefined ? null : [dataset.id, dataset.analysisGeneration];
  };

  const reportFor = async ({ a, b, ai, bi, policy }: RunsParams) => {
    const fa = await rolloutsOf(a);
    const fb = await rolloutsOf(b);
    const fai = await inputsOf(ai);
    const fbi = await inputsOf(bi);
    const key = JSON.stringify([
      [a, fa.version, analysisOf(a)],
      [b, fb.version, analysisOf(b)],
      [ai, fai?.version, bi, fbi?.version],
      policy,
    ]);
    if (lastReport?.key !== key) {
      const inputs = combineInputs(fai, fbi);
      const runs = { a: runChoice(a), b: runChoice(b) };
      lastReport = { key, report: compareFiles(fa, fb, policy, inputs, runs), conflicts: inputs.conflicts };
    }
    return { fa, fb, fai, fbi, report: lastReport.report, conflicts: lastReport.conflicts };
  };

  return {
    file: async ({ ref, sample }, { signal }) => {
      // A file opened before a reload comes back from the origin-private file system by its id.
      let dataset = byRef(ref) ?? (await service.reopen(ref, signal));
      if (dataset === undefined) {
        if (!sample || !SAMPLE_NAME.test(ref)) {
          // A dataset id names a file opened earlier that is gone (a folder's files are not kept for a
          // reload); its id is no name to show.
          const served = servedPathOf(ref);
          throw new Error(
            served !== null
              ? servedRefMissingText(served, service.session().folder?.served === true)
              : isDatasetId(ref)
                ? 'A file chosen here before is no longer open (a folder\'s files are not kept across a reload, and a kept file can be removed): open it again with "Open file…", or its folder in the inspector'
                : `${ref} is not loaded in this tab: open it with "Open file…" or drop it here`,
          );
        }
        dataset = await service.add({ kind: "url", url: `/samples/${ref}`, name: ref }, signal);
      }
      return summaryOf(dataset);
    },
    open: async ({ source }, { signal }) => summaryOf(await service.add(source, signal)),
    compare: async (params) => {
      const { fa, fb, fai, fbi, report, conflicts } = await reportFor(params);
      return compareView(fa, fb, report, { ai: fai, bi: fbi, conflicts });
    },
    compareCsv: async (params) => {
      const { fa, fb, report } = await reportFor(params);
      return {
        text: compareCsv(report, compareLines(fa, fb)),
        name: comparedName(fa.name, fb.name, params.policy),
      };
    },
    pairDetail: async ({ id, ...params }) => pairDetail((await reportFor(params)).report, id),
    rollouts: async ({ file }) => rolloutList(await rolloutsOf(file)),
    whatIf: async ({ file, line, inputs }) => {
      const source = await rolloutsOf(file);
      // The server the inspector verifies the line with: a folder's configs route lines that name none.
      return whatIf(source, line, await inputsOf(inputs), runChoice(file));
    },
    repairServers: () => ({ servers: serverTools() }),
    repair: async ({ file, harness, servers, inputs }) => {
      const source = await rolloutsOf(file);
      const { view, chunks } = await repairFile(
        source,
        harness,
        servers,
        await inputsOf(inputs),
        runChoice(file),
      );
      repaired.clear();
      const id = nextRepairId++;
      repaired.set(id, { name: repairedName(source.name, harness), chunks });
      return { id, ...view };
    },
    download: ({ id }) => {
      const found = repaired.get(id);
      if (found === undefined) return null;
      // A Blob crosses to the page by reference to the same bytes; nothing is re-encoded.
      return {
        blob: new Blob(
          found.chunks.map((c) => new Uint8Array(c)),
          { type: "application/x-ndjson" },
        ),
        name: found.name,
      };
    },
  };
}
