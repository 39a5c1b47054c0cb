"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { type LoadState, storedFolder, storedWorkspace, useRememberWorkspace } from "@/hooks/data";
import { markServed, readServedFolder, servedFolder, servedLink } from "@/hooks/served";
import type { SessionSummary } from "@/hooks/types";
import { restorePlan } from "./inspector-state";

export interface RestoredWorkspace {
  /** Rows of a reopened file whose results are being checked say so ("restoring"), never "unverified". */
  readonly restoring: boolean;
  /** Why the served folder could not be read, or null. */
  readonly servedError: string | null;
  /** The folder open before the reload, which the user has to open again (null once anything is opened). */
  readonly lostFolder: string | null;
  /** Files opened by hand replace the restored ones: their rows are no longer "restoring". */
  endRestoring(): void;
}

/**
 * What the page opens when it starts, once: the folder `cli view` serves, else the tab's own files (kept in the
 * origin-private file system) unless a link names a sample, or the name of the folder it had open (a page
 * cannot reopen a folder). Keeps the tab's file ids, or its folder's name, as they change.
 */
export function useRestoreWorkspace(
  session: SessionSummary | null,
  sample: string | null,
  loader: Pick<LoadState, "loadFolder" | "restore" | "loading">,
): RestoredWorkspace {
  useRememberWorkspace(session, loader.loading);
  const restored = useRef(false);
  const [restoring, setRestoring] = useState(false);
  const [servedError, setServedError] = useState<string | null>(null);
  const [lostFolder, setLostFolder] = useState<string | null>(null);
  const { loadFolder, restore } = loader;
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const served = servedFolder();
    const plan = restorePlan({
      served,
      servedLink: servedLink(),
      hasSession: session !== null,
      sample,
      stored: storedWorkspace(),
      folder: storedFolder(),
    });
    if (plan.kind === "served") {
      // Read again (a reload, "Read the folder again"): with the roles the user chose in it.
      readServedFolder(loadFolder)
        // A link's tab shows the served folder from now on, once it could be read.
        .then((read) => (read && !served ? markServed() : undefined))
        // A link's served folder that cannot be read (this app is not `view`): the link's own notice says
        // which file to open; an HTTP error beside it would only confuse.
        .catch((error: unknown) =>
          served ? setServedError(error instanceof Error ? error.message : String(error)) : undefined,
        );
    } else if (plan.kind === "restore") {
      setRestoring(true);
      void restore(plan.ids);
    } else if (plan.kind === "folder") {
      setLostFolder(plan.name);
    }
  }, [session, sample, restore, loadFolder]);
  const endRestoring = useCallback(() => {
    setRestoring(false);
    setLostFolder(null);
  }, []);
  return { restoring, servedError, lostFolder, endRestoring };
}
