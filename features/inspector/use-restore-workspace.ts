"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { type LoadState, storedWorkspace, useRememberWorkspace } from "@/hooks/data";
import type { SessionSummary } from "@/hooks/types";
import { restorePlan } from "./inspector-state";
import { servedEntries, servedFolder } from "./served";

export interface RestoredWorkspace {
  /** Rows of a reopened file whose results are being checked say so ("restoring"), never "unverified". */
  readonly restoring: boolean;
  /** Why the served folder could not be read, or null. */
  readonly servedError: string | null;
  /** Files opened by hand replace the restored ones: their rows are no longer "restoring". */
  endRestoring(): void;
}

/**
 * What the page opens when it starts, once: the folder `cli view` serves, else the tab's own files (kept in the
 * origin-private file system) unless a link names a sample. Keeps the tab's file ids as they change.
 */
export function useRestoreWorkspace(
  session: SessionSummary | null,
  sample: string | null,
  loader: Pick<LoadState, "loadFolder" | "restore">,
): RestoredWorkspace {
  useRememberWorkspace(session);
  const restored = useRef(false);
  const [restoring, setRestoring] = useState(false);
  const [servedError, setServedError] = useState<string | null>(null);
  const { loadFolder, restore } = loader;
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const stored = storedWorkspace();
    const plan = restorePlan({ served: servedFolder(), hasSession: session !== null, sample, stored });
    if (plan.kind === "served") {
      void servedEntries().then(
        ({ name, entries }) => loadFolder(name, entries),
        (error: unknown) => setServedError(error instanceof Error ? error.message : String(error)),
      );
    } else if (plan.kind === "restore") {
      setRestoring(true);
      void restore(plan.ids);
    }
  }, [session, sample, restore, loadFolder]);
  const endRestoring = useCallback(() => setRestoring(false), []);
  return { restoring, servedError, endRestoring };
}
