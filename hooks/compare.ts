"use client";
/**
 * TanStack Query hooks over the compare worker: the only way the /compare components get data.
 * Results are keyed by file name and load version, so reloading a file refreshes what depends on it.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { HarnessId } from "@/lib/harness";
import type { Policy } from "@/lib/identity/types";
import { CompareCancelledError } from "@/worker/compare-client";
import type { CompareFileSummary, RepairServerInput } from "@/worker/compare-protocol";
import { useCompareClient } from "./compare-client";
import type { Sample } from "./data";
import { bundledSample } from "./samples";

const fileKey = (name: string) => ["compare", "file", name] as const;

/**
 * One file of the compare worker, by name. A bundled sample is fetched the first time it is named;
 * a local file must have been opened (useOpenCompareFile), else the query fails with a clear reason.
 */
export function useCompareFile(name: string | null, samples: readonly Sample[] | undefined) {
  const client = useCompareClient();
  return useQuery({
    queryKey: fileKey(name ?? ""),
    enabled: name !== null && samples !== undefined,
    queryFn: async ({ signal }): Promise<CompareFileSummary> => {
      const file = name ?? "";
      if (bundledSample(file, samples ?? []) === null) {
        throw new Error(`${file} is not loaded in this tab: open it with "Open file…" or drop it here`);
      }
      return client.request(
        "open",
        { source: { kind: "url", url: `/samples/${file}`, name: file } },
        { signal },
      );
    },
  });
}

/** Opens a local file in the compare worker; its summary becomes the data of useCompareFile(name). */
export function useOpenCompareFile() {
  const client = useCompareClient();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (file: File) => client.request("open", { source: { kind: "file", file } }),
    onSuccess: (summary) => queryClient.setQueryData(fileKey(summary.name), summary),
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
  const error =
    mutation.error && !(mutation.error instanceof CompareCancelledError) ? mutation.error.message : null;
  return { open, pending: mutation.isPending, error };
}

const version = (file: CompareFileSummary | null | undefined) =>
  file ? [file.name, file.version] : (file ?? "loading");

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
  a: f.a?.name ?? "",
  b: f.b?.name ?? "",
  ai: f.ai?.name ?? null,
  bi: f.bi?.name ?? null,
  policy,
});

const runsKey = (f: RunFiles) => [version(f.a), version(f.b), version(f.ai), version(f.bi)];

export function useCompareRuns(files: RunFiles, policy: Policy) {
  const client = useCompareClient();
  return useQuery({
    queryKey: ["compare", "runs", ...runsKey(files), policy],
    enabled: runsReady(files),
    queryFn: ({ signal }) => client.request("compare", runsParams(files, policy), { signal }),
  });
}

export function usePairDetail(files: RunFiles, policy: Policy, id: number | null) {
  const client = useCompareClient();
  return useQuery({
    queryKey: ["compare", "pair", ...runsKey(files), policy, id],
    enabled: runsReady(files) && id !== null,
    queryFn: ({ signal }) =>
      client.request("pairDetail", { ...runsParams(files, policy), id: id ?? 0 }, { signal }),
  });
}

export function useRolloutList(file: CompareFileSummary | undefined) {
  const client = useCompareClient();
  return useQuery({
    queryKey: ["compare", "rollouts", version(file)],
    enabled: file !== undefined,
    queryFn: ({ signal }) => client.request("rollouts", { file: file?.name ?? "" }, { signal }),
  });
}

export function useWhatIf(file: CompareFileSummary | undefined, inputs: InputsFile, line: number | null) {
  const client = useCompareClient();
  return useQuery({
    queryKey: ["compare", "whatif", version(file), version(inputs), line],
    enabled: file !== undefined && inputs !== undefined && line !== null,
    queryFn: ({ signal }) =>
      client.request(
        "whatIf",
        { file: file?.name ?? "", line: line ?? 0, inputs: inputs?.name ?? null },
        { signal },
      ),
  });
}

/** Every registered verifying server with its known tools (the repair form's defaults). */
export function useServerTools() {
  const client = useCompareClient();
  return useQuery({
    queryKey: ["compare", "servers"],
    queryFn: async ({ signal }) => (await client.request("servers", {}, { signal })).servers,
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
  const client = useCompareClient();
  const mutation = useMutation({
    mutationFn: ({ file, inputs, harness, servers }: RepairParams) =>
      client.request("repair", { file: file.name, harness, servers, inputs: inputs?.name ?? null }),
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

/** How long an object URL lives after the click that starts its download. */
const OBJECT_URL_LIFETIME_MS = 60_000;

/** Saves the repaired file: the worker builds the Blob, the page only hands it to the browser. */
export function useDownloadRepaired() {
  const client = useCompareClient();
  const mutation = useMutation({
    mutationFn: async (id: number) => {
      const result = await client.request("download", { id });
      if (result === null) throw new Error("the repaired file is gone: run the repair again");
      const url = URL.createObjectURL(result.blob);
      const anchor = document.createElement("a");
      anchor.href = url;
      anchor.download = result.name;
      anchor.rel = "noopener";
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
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
