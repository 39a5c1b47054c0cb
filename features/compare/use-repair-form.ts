"use client";
import { useMemo, useState } from "react";
import type { HarnessId } from "@/lib/harness";
import { type InputsFile, useDownloadRepaired, useRepair, useServerTools } from "./data";
import { canRepair, defaultServers, parseServers, repairIsStale } from "./page-state";
import type { ServerDraft } from "./RepairPanel";
import type { CompareFileSummary } from "./types";

/**
 * The repair tab's form: its servers (the file's verifying server with its known tools until edited), whether
 * it can run, whether the shown result is stale, and the repair and download themselves.
 */
export function useRepairForm(file: CompareFileSummary | undefined, inputs: InputsFile, harness: HarnessId) {
  const known = useServerTools();
  const repair = useRepair();
  const download = useDownloadRepaired();
  const [drafts, setDrafts] = useState<ServerDraft[] | null>(null);
  // Default: the file's verifying server with its known tools, until the user edits the list.
  const defaults = useMemo(
    () => (known.data ? defaultServers(known.data, file?.servers ?? []) : null),
    [known.data, file],
  );
  const servers = drafts ?? defaults ?? [];
  const parsed = useMemo(() => parseServers(servers), [servers]);
  const form = { file, inputs, harness, servers: parsed };
  /** Runs the repair, under `other` when given (a suggested harness chosen: the URL's lags a render). */
  const run = (other?: HarnessId) => {
    if (file && inputs !== undefined)
      repair.run({ file, inputs, harness: other ?? harness, servers: parsed });
  };
  return {
    servers,
    setDrafts,
    stale: repairIsStale(repair.params, form),
    canRun: canRepair(form),
    run,
    repair,
    download,
  };
}
