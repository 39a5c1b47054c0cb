"use client";
/**
 * TanStack Query hooks for /compare over the one data worker (the inspector's): the only way the compare
 * components get data. A file is named by a FileRef: the dataset id of a file opened in this tab (two files
 * of the same name stay two files), or a bundled sample's name, whose key also carries the id of the
 * stored file of that name, so a sample opened again refreshes what depends on it.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { type Sample, useSession } from "@/hooks/data";
import { useDataClient } from "@/hooks/data-client";
import { bundledSample } from "@/hooks/samples";
import { saveFile } from "@/hooks/save-file";
import type { HarnessId } from "@/lib/harness";
import type { Policy } from "@/lib/identity/types";
import { servedPathOf, storedFileOf } from "@/worker/protocol";
import { isCancelled } from "@/worker/rpc";
import type { CompareFileSummary, FileRef, RepairServerInput } from "./protocol";

/**
 * The stored file a ref names (the one of that dataset id, else the latest one of that name) and its
 * analysis revision, which changes when what its rollouts are verified with changes.
 */
function useStored(ref: FileRef | null): {
  id: string | null;
  analysis: number | null;
  bytes: number | null;
} {
  const session = useSession();
  const files = session?.files ?? [];
  const stored = storedFileOf(ref, files) ?? files.findLast((file) => file.name === ref);
  return { id: stored?.id ?? null, analysis: stored?.analysis ?? null, bytes: stored?.bytes ?? null };
}

/**
 * What the inspector says of a followed file no longer as read (rewritten, shrunk, gone), by FileRef: the
 * comparison keeps its rows as first read, as the inspector does; null otherwise.
 */
export function useFileChanged(ref: FileRef | null): string | null {
  const session = useSession();
  return storedFileOf(ref, session?.files ?? [])?.follow?.problem ?? null;
}

/**
 * One file of the store, by FileRef: the file of that dataset id, or the served folder's file at that path
 * (worker/protocol servedRef), else the latest file of that name opened
 * on either page, else the bundled sample of that name (fetched into the store the first time), else a
 * clear error.
 */
export function useCompareFile(ref: FileRef | null, samples: readonly Sample[] | undefined) {
  const client = useDataClient();
  const stored = useStored(ref);
  // Only samples listed in index.json are fetched; any other ref must be a file opened in this tab.
  const sample = ref !== null && bundledSample(ref, samples ?? []) !== null;
  // A sample's name and a served file's path (the folder read again) name another stored file over time.
  const renamed = sample || (ref !== null && servedPathOf(ref) !== null);
  return useQuery({
    // A sample's name can name a newer stored file; a dataset id always names the same one, so its key
    // does not change while the session catches up with a file just opened.
    // Its bytes too: a followed file (cli view) that grew is compared as it is now.
    queryKey: ["compare", "file", ref ?? "", renamed ? stored.id : null, stored.analysis, stored.bytes],
    enabled: ref !== null && samples !== undefined,
    queryFn: ({ signal }): Promise<CompareFileSummary> =>
      client.request("file", { ref: ref ?? "", sample }, { signal }),
    // A sample's key changes once the session lists the file its first request stored, and any file's when
    // its analysis does. Without this its summary, and every comparison built on it, would vanish and come
    // back a moment later. Only the same stored file's summary is kept: another file's (the sample opened
    // again, another file of that name) would be a wrong answer while this one loads.
    placeholderData: (previous, previousQuery) => {
      const [, , previousRef, previousStored] = previousQuery?.queryKey ?? [];
      const sameFile = previousStored === null || previousStored === (renamed ? stored.id : null);
      return previousRef === (ref ?? "") && sameFile ? previous : undefined;
    },
  });
}

/** Opens a local file into the one store; it is then offered on both pages. */
export function useOpenCompareFile() {
  const client = useDataClient();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (file: File) => client.request("open", { source: { kind: "file", file } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["compare", "file"] }),
  });
  const { mutateAsync } = mutation;
  const open = useCallback(
    async (file: File): Promise<CompareFileSummary | null> => {
      try {
        return await mutateAsync(file);
      } catch {
        // The mutation's error state carries the message.
        return null;
      }
    },
    [mutateAsync],
  );
  const error = mutation.error && !isCancelled(mutation.error) ? mutation.error.message : null;
  return { open, pending: mutation.isPending, error };
}

const version = (file: CompareFileSummary | null | undefined) =>
  file ? [file.id, file.version, file.analysis] : (file ?? "loading");

/** Undefined while loading; null when the run has no inputs file. */
export type InputsFile = CompareFileSummary | null | undefined;

/** Two runs, each with its optional materialized-inputs file. */
export interface RunFiles {
  readonly a: CompareFileSummary | undefined;
  readonly b: CompareFileSummary | undefined;
  readonly ai: InputsFile;
  readonly bi: InputsFile;
}

const runsReady = (f: RunFiles) =>
  f.a !== undefined && f.b !== undefined && f.ai !== undefined && f.bi !== undefined;

const runsParams = (f: RunFiles, policy: Policy) => ({
  a: f.a?.id ?? "",
  b: f.b?.id ?? "",
  ai: f.ai?.id ?? null,
  bi: f.bi?.id ?? null,
  policy,
});

const runsKey = (f: RunFiles) => [version(f.a), version(f.b), version(f.ai), version(f.bi)];

export function useCompareRuns(files: RunFiles, policy: Policy) {
  const client = useDataClient();
  return useQuery({
    queryKey: ["compare", "runs", ...runsKey(files), policy],
    enabled: runsReady(files),
    queryFn: ({ signal }) => client.request("compare", runsParams(files, policy), { signal }),
  });
}

export function usePairDetail(files: RunFiles, policy: Policy, id: number | null) {
  const client = useDataClient();
  return useQuery({
    queryKey: ["compare", "pair", ...runsKey(files), policy, id],
    enabled: runsReady(files) && id !== null,
    queryFn: ({ signal }) =>
      client.request("pairDetail", { ...runsParams(files, policy), id: id ?? 0 }, { signal }),
  });
}

export function useRolloutList(file: CompareFileSummary | undefined) {
  const client = useDataClient();
  return useQuery({
    queryKey: ["compare", "rollouts", version(file)],
    enabled: file !== undefined,
    queryFn: ({ signal }) => client.request("rollouts", { file: file?.id ?? "" }, { signal }),
  });
}

export function useWhatIf(file: CompareFileSummary | undefined, inputs: InputsFile, line: number | null) {
  const client = useDataClient();
  return useQuery({
    queryKey: ["compare", "whatif", version(file), version(inputs), line],
    enabled: file !== undefined && inputs !== undefined && line !== null,
    queryFn: ({ signal }) =>
      client.request(
        "whatIf",
        { file: file?.id ?? "", line: line ?? 0, inputs: inputs?.id ?? null },
        { signal },
      ),
  });
}

/** Every registered verifying server with its known tools (the repair form's defaults). */
export function useServerTools() {
  const client = useDataClient();
  return useQuery({
    queryKey: ["compare", "servers"],
    queryFn: async ({ signal }) => (await client.request("repairServers", {}, { signal })).servers,
  });
}

export interface RepairParams {
  readonly file: CompareFileSummary;
  readonly inputs: CompareFileSummary | null;
  readonly harness: HarnessId;
  readonly servers: readonly RepairServerInput[];
}

/** Runs the lossless repair in the worker; the repaired bytes stay there until downloaded. */
export function useRepair() {
  const client = useDataClient();
  const mutation = useMutation({
    mutationFn: ({ file, inputs, harness, servers }: RepairParams) =>
      client.request("repair", { file: file.id, harness, servers, inputs: inputs?.id ?? null }),
  });
  const { reset } = mutation;
  return {
    run: mutation.mutate,
    reset,
    result: mutation.data ?? null,
    /** What the result was computed for, to tell when the form has changed since. */
    params: mutation.variables ?? null,
    pending: mutation.isPending,
    error: mutation.error?.message ?? null,
  };
}

/** Saves the repaired file: the worker builds the Blob, the page only hands it to the browser. */
export function useDownloadRepaired() {
  const client = useDataClient();
  const mutation = useMutation({
    mutationFn: async (id: number) => {
      const result = await client.request("download", { id });
      if (result === null) throw new Error("the repaired file is gone: run the repair again");
      saveFile(result.blob, result.name);
      return result.name;
    },
  });
  return {
    download: mutation.mutate,
    pending: mutation.isPending,
    error: mutation.error?.message ?? null,
    saved: mutation.data ?? null,
  };
}

/** Saves the comparison as CSV (lib/compare's compareCsv: the bytes `cli compare --format csv` prints). */
export function useDownloadCompareCsv(files: RunFiles, policy: Policy) {
  const client = useDataClient();
  const mutation = useMutation({
    mutationFn: async () => {
      const result = await client.request("compareCsv", runsParams(files, policy));
      saveFile(result.text, result.name, "text/csv");
      return result.name;
    },
  });
  return {
    download: () => mutation.mutate(),
    pending: mutation.isPending,
    error: mutation.error?.message ?? null,
  };
}
