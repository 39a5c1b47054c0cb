"use client";
/**
 * The run view's hooks: the why-zero breakdown, metrics and filtered lines of a dataset, and the export of
 * the filtered rows. Keys carry what the worker's rows depend on (dataset, server choice, harness).
 */
import { useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import type { DatasetSummary, ExportFormat } from "@/worker/protocol";
import { useInspectorClient } from "./inspector-client";

export function useRunView(dataset: DatasetSummary | null, filter: string) {
  const client = useInspectorClient();
  return useQuery({
    queryKey: [
      "run",
      dataset?.id ?? null,
      dataset?.server_override ?? null,
      dataset?.harness ?? null,
      filter,
    ],
    enabled: dataset !== null && dataset.kind === "rollouts",
    queryFn: ({ signal }) => client.request("run", { dataset: dataset?.id ?? "", filter }, { signal }),
    placeholderData: (previous) => previous,
  });
}

/** Downloads the rows the filter keeps, as `cli triage --format F --filter EXPR` writes them. */
export function useRunExport() {
  const client = useInspectorClient();
  return useCallback(
    async (dataset: DatasetSummary, filter: string, format: ExportFormat): Promise<string | null> => {
      const result = await client.request("runExport", { dataset: dataset.id, filter, format });
      if ("error" in result) return result.error;
      const type = format === "csv" ? "text/csv" : "application/x-ndjson";
      const url = URL.createObjectURL(new Blob([result.text], { type }));
      const anchor = document.createElement("a");
      anchor.href = url;
      anchor.download = `${dataset.name.replace(/\.jsonl(\.gz)?$/, "")}-rows.${format}`;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
      return null;
    },
    [client],
  );
}
