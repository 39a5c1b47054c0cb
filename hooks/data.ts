"use client";
/**
 * TanStack Query hooks over the worker client: the only way components get data.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { z } from "zod";
import { CancelledError } from "@/worker/client";
import type {
  DatasetSummary,
  HarnessId,
  LoadProgress,
  RolloutIndexEntry,
  SessionSummary,
  Source,
} from "@/worker/protocol";
import { useInspectorClient } from "./inspector-client";
import { type Sample, SampleSchema } from "./samples";

export type { Sample } from "./samples";

/** Index rows per message: each page is cloned in well under a frame, whatever the file size. */
export const INDEX_PAGE_SIZE = 2_000;

const SESSION_KEY = ["session"] as const;

export function useSession(): SessionSummary | null {
  const { data } = useQuery<SessionSummary | null>({
    queryKey: SESSION_KEY,
    queryFn: () => null,
    initialData: null,
  });
  return data;
}

export interface LoadState {
  /** fallbackServer verifies rows that name no server (a bundled sample's declared server). */
  load(sources: readonly Source[], fallbackServer?: string | null): Promise<SessionSummary | null>;
  cancel(): void;
  progress: LoadProgress | null;
  loading: boolean;
  error: string | null;
}

export function useLoad(): LoadState {
  const client = useInspectorClient();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<LoadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  const mutation = useMutation({
    mutationFn: async ({
      sources,
      fallbackServer,
    }: {
      sources: readonly Source[];
      fallbackServer: string | null;
    }) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setProgress(null);
      try {
        return await client.request(
          "load",
          { sources, fallbackServer },
          { signal: abort.signal, onProgress: setProgress },
        );
      } finally {
        if (controller.current === abort) controller.current = null;
        setProgress(null);
      }
    },
    onSuccess: (summary) => queryClient.setQueryData(SESSION_KEY, summary),
  });
  const { mutateAsync } = mutation;
  const load = useCallback(
    async (sources: readonly Source[], fallbackServer: string | null = null) => {
      try {
        return await mutateAsync({ sources, fallbackServer });
      } catch {
        // The mutation's error state carries the message; cancelled loads are not errors.
        return null;
      }
    },
    [mutateAsync],
  );
  const cancel = useCallback(() => controller.current?.abort(), []);
  const error = mutation.error && !(mutation.error instanceof CancelledError) ? mutation.error.message : null;
  return { load, cancel, progress, loading: mutation.isPending, error };
}

export interface ReanalyzeState {
  reanalyze(dataset: string, server: string | null, harness: HarnessId | null): Promise<void>;
  progress: LoadProgress | null;
  pending: boolean;
}

/** Recomputes a dataset's index for another verifying server. */
export function useReanalyze(): ReanalyzeState {
  const client = useInspectorClient();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<LoadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: ({
      dataset,
      server,
      harness,
    }: {
      dataset: string;
      server: string | null;
      harness: HarnessId | null;
    }) => client.request("reanalyze", { dataset, server, harness }, { onProgress: setProgress }),
    onSuccess: (summary) => {
      setProgress(null);
      queryClient.setQueryData(SESSION_KEY, summary);
    },
    onError: () => setProgress(null),
  });
  const { mutateAsync } = mutation;
  const reanalyze = useCallback(
    async (dataset: string, server: string | null, harness: HarnessId | null) => {
      await mutateAsync({ dataset, server, harness }).catch(() => undefined);
    },
    [mutateAsync],
  );
  return { reanalyze, progress, pending: mutation.isPending };
}

export function useRolloutIndex(dataset: DatasetSummary | null) {
  const client = useInspectorClient();
  return useQuery({
    queryKey: ["index", dataset?.id ?? null, dataset?.server_override ?? null, dataset?.harness ?? null],
    enabled: dataset !== null && dataset.kind === "rollouts",
    queryFn: async ({ signal }) => {
      if (!dataset) return [];
      const entries: RolloutIndexEntry[] = [];
      for (let start = 0; ; start += INDEX_PAGE_SIZE) {
        const page = await client.request(
          "indexPage",
          { dataset: dataset.id, start, count: INDEX_PAGE_SIZE },
          { signal },
        );
        entries.push(...page.entries);
        if (entries.length >= page.total || page.entries.length === 0) break;
      }
      return entries;
    },
  });
}

/** `analysis` names what the worker's index was computed with (server override, harness), for the cache key. */
export function useRollout(datasetId: string | null, line: number | null, analysis: string) {
  const client = useInspectorClient();
  return useQuery({
    queryKey: ["rollout", datasetId, line, analysis],
    enabled: datasetId !== null && line !== null,
    queryFn: ({ signal }) =>
      client.request("rollout", { dataset: datasetId ?? "", line: line ?? 0 }, { signal }),
  });
}

export function useVerification(
  datasetId: string | null,
  line: number | null,
  server: string | null,
  harness: HarnessId | null,
) {
  const client = useInspectorClient();
  return useQuery({
    queryKey: ["verify", datasetId, line, server, harness],
    // server null: the row's own verifying server (lib/verify chooseServer), as the list computed it.
    enabled: datasetId !== null && line !== null,
    queryFn: ({ signal }) =>
      client.request("verify", { dataset: datasetId ?? "", line: line ?? 0, server, harness }, { signal }),
  });
}

/** Typing pauses this long before a search is sent to the worker. */
export const SEARCH_DEBOUNCE_MS = 200;

function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** Lines matching a text search (debounced; a newer search cancels an older one in the worker). */
export function useSearch(datasetId: string | null, text: string) {
  const client = useInspectorClient();
  const trimmed = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  return useQuery({
    queryKey: ["search", datasetId, trimmed],
    enabled: datasetId !== null && trimmed.length > 0,
    queryFn: async ({ signal }) => {
      const { lines } = await client.request(
        "search",
        { dataset: datasetId ?? "", text: trimmed },
        { signal },
      );
      return new Set(lines);
    },
    placeholderData: (previous) => previous,
  });
}

export function useHighlight(code: string | null) {
  const client = useInspectorClient();
  return useQuery({
    queryKey: ["highlight", code],
    enabled: code !== null,
    queryFn: ({ signal }) => client.request("highlight", { code: code ?? "", lang: "json" }, { signal }),
    gcTime: 60_000,
  });
}

export function useServers() {
  const client = useInspectorClient();
  return useQuery({
    queryKey: ["servers"],
    queryFn: async ({ signal }) => (await client.request("servers", {}, { signal })).servers,
  });
}

/** The original bytes of one line, fetched from the worker when asked for (copy, download, raw view). */
export function useRawLine() {
  const client = useInspectorClient();
  return useCallback(
    async (dataset: string, line: number): Promise<Uint8Array | null> => {
      const result = await client.request("raw", { dataset, line });
      return result?.bytes ?? null;
    },
    [client],
  );
}

export const SAMPLES_INDEX_URL = "/samples/index.json";

export function useSamples() {
  return useQuery({
    queryKey: ["samples"],
    queryFn: async ({ signal }): Promise<Sample[]> => {
      const response = await fetch(SAMPLES_INDEX_URL, { signal });
      if (!response.ok) return [];
      const parsed = z.array(SampleSchema).safeParse(await response.json());
      return parsed.success ? parsed.data : [];
    },
  });
}
