"use client";
/** The run view's TanStack Query hooks over the data worker (./protocol.ts): the view, its export and its report. */
import { useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { useDataClient } from "@/hooks/data-client";
import { saveFile } from "@/hooks/save-file";
import type { Reward } from "@/lib/run";
import type { DatasetSummary } from "@/worker/protocol";
import type { ExportFormat } from "./protocol";
import type { MarkedRollout } from "./report-scope";

/** Every row is indexed and has its rewards: the run view can be computed (./handlers.ts). */
export function runViewReady(dataset: DatasetSummary | null): boolean {
  return (
    dataset !== null && dataset.kind === "rollouts" && dataset.indexed && dataset.rewarded === dataset.rows
  );
}

/**
 * The run view of a dataset (./run-view.ts): why-zero breakdown, metrics and the lines a structured filter
 * keeps. Asked for once the dataset's rewards are complete, not at every streaming revision (each answer
 * re-renders the breakdown and the metrics); while rewards are recomputed the previous view stays. Keyed by
 * the revision: another server, harness or inputs file recomputes it.
 */
export function useRunView(dataset: DatasetSummary | null, filter: string, reward: Reward) {
  const client = useDataClient();
  return useQuery({
    queryKey: ["run", dataset?.id ?? null, dataset?.revision ?? 0, filter, reward],
    enabled: runViewReady(dataset),
    queryFn: ({ signal }) =>
      client.request("run", { dataset: dataset?.id ?? "", filter, reward }, { signal }),
    placeholderData: (previous, query) => (query?.queryKey[1] === dataset?.id ? previous : undefined),
  });
}

/**
 * The whole folder's answer (./run-view.ts wholeFolderView) over its rollouts files (`files`, each opened),
 * once every one has every reward. Keyed by the files and their revisions, not the file on screen: choosing
 * another file of the folder, or another reward, keeps the answer.
 */
export function useWholeFolderView(files: readonly DatasetSummary[]) {
  const client = useDataClient();
  return useQuery({
    // Every reward in one answer: the reward switch asks for nothing again.
    queryKey: ["runFolder", files.map((f) => `${f.id}#${f.revision}`).join(" ")],
    enabled: files.length > 1 && files.every(runViewReady),
    queryFn: () => client.request("runFolder", { dataset: files[0]?.id ?? "" }),
  });
}

/** Downloads the rows the filter keeps, as `cli triage --format F --filter EXPR` writes them; an error or null. */
export function useRunExport() {
  const client = useDataClient();
  return useCallback(
    async (
      dataset: DatasetSummary,
      filter: string,
      format: ExportFormat,
      /** The opened folder's name when the rows are the folder's (Gym's files share their names). */
      folder: string | null = null,
    ): Promise<string | null> => {
      const result = await client.request("runExport", { dataset: dataset.id, filter, format });
      if ("error" in result) return result.error;
      const type = format === "csv" ? "text/csv" : "application/x-ndjson";
      saveFile(result.text, `${folder ?? baseName(dataset)}-rows.${format}`, type);
      return null;
    },
    [client],
  );
}

function baseName(dataset: DatasetSummary): string {
  return (dataset.name.split("/").pop() ?? dataset.name).replace(/\.jsonl(\.gz)?$/, "");
}

/**
 * Downloads the report to share (lib/report: one self-contained HTML file) of the filter and the marked
 * rollouts (none marked: the first the filter keeps); resolves to an error, or null once saved.
 */
export function useRunReport() {
  const client = useDataClient();
  return useCallback(
    async (
      dataset: DatasetSummary,
      filter: string,
      marked: readonly MarkedRollout[],
      reward: Reward,
      /** The opened folder's name when the report is the folder's. */
      folder: string | null = null,
    ): Promise<string | null> => {
      const result = await client.request("runReport", { dataset: dataset.id, filter, marked, reward });
      if ("error" in result) return result.error;
      saveFile(result.html, `${folder ?? baseName(dataset)}-report.html`, "text/html");
      return null;
    },
    [client],
  );
}
