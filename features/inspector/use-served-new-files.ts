"use client";
import { useQuery } from "@tanstack/react-query";
import {
  type ChangedFile,
  changedFiles,
  newPaths,
  SERVED_LISTING_POLL_MS,
  servedFiles,
} from "@/hooks/served";
import type { FolderSummary } from "@/worker/protocol";

/** What changed in the served folder's listing since the page read the folder. */
export interface ServedChanges {
  /** Files that appeared (a second run's output). */
  readonly added: readonly string[];
  /** Its Gym configs and metrics files that changed size or are gone. */
  readonly changed: readonly ChangedFile[];
}

const NONE: ServedChanges = { added: [], changed: [] };

/**
 * Files that appeared in the served folder since the page read it, and its configs and metrics files that
 * changed (its listing asked every SERVED_LISTING_POLL_MS): the page names them and offers to read the
 * folder again. Nothing for a folder that is not served.
 */
export function useServedNewFiles(folder: FolderSummary | null, served: boolean): ServedChanges {
  // The served folder only: a tab that serves one may open a local folder too.
  const watched = served && folder?.served === true;
  const listing = useQuery({
    queryKey: ["servedListing"],
    enabled: watched,
    queryFn: servedFiles,
    refetchInterval: SERVED_LISTING_POLL_MS,
    // A server that stopped answering is said by the followed files' banner; no retries piling up here.
    retry: false,
  });
  if (!watched || folder === null || listing.data === undefined) return NONE;
  const added = newPaths(
    listing.data.map((file) => file.path),
    folder.files.map((file) => file.path),
  );
  const changed = changedFiles(listing.data, folder.files);
  return added.length === 0 && changed.length === 0 ? NONE : { added, changed };
}
