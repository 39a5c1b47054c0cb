"use client";
import { useEffect, useMemo } from "react";
import { useReanalyze } from "@/hooks/data";
import type { DatasetSummary } from "@/hooks/types";
import { type HarnessChoice, NO_HARNESS, parseHarnessChoice } from "@/lib/harness";
import { needsReanalysis } from "./inspector-state";

/**
 * The verifying server chosen in the URL applies to the whole list, the harness to each agent's rows: when
 * either differs from what the shown file was analysed under, its rewards are recomputed (they fill in
 * behind), once nothing loads and no other re-analysis runs.
 */
export function useReanalysis(options: {
  readonly dataset: DatasetSummary | null;
  readonly server: string | null;
  /** The harness choice's text (the URL's `harness`). */
  readonly harness: string;
  /** Files are loading: their analysis comes with them. */
  readonly loading: boolean;
}): { readonly harnessChoice: HarnessChoice; readonly pending: boolean } {
  const { dataset, server, harness, loading } = options;
  const { reanalyze, pending } = useReanalyze();
  const harnessChoice = useMemo(() => {
    const parsed = parseHarnessChoice(harness);
    return parsed.ok ? parsed.choice : NO_HARNESS;
  }, [harness]);
  useEffect(() => {
    if (!dataset || pending || loading) return;
    if (needsReanalysis(dataset, server, harness)) void reanalyze(dataset.id, server, harnessChoice);
  }, [dataset, server, harness, harnessChoice, pending, reanalyze, loading]);
  return { harnessChoice, pending };
}
