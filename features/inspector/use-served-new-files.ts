"use client";
import { useQuery } from "@tanstack/react-query";
import { newPaths, SERVED_LISTING_POLL_MS, servedPaths } from "@/hooks/served";
import type { FolderSummary } from "@/worker/protocol";

const NONE: readonly string[] = [];

/**
 * Files that appeared in the served folder since the page read it (its listing asked every
 * SERVED_LISTING_POLL_MS): the page names them and offers to read the folder again. Nothing for a folder
 * that is not served.
 */
export function useServedNewFiles(folder: FolderSummary | null, served: boolean): readonly string[] {
  // The served folder only: a tab that serves one may open a local folder too.
  const watched = served && folder?.served === true;
  const listing = useQuery({
    queryKey: ["servedListing"],
    enabled: watched,
    queryFn: servedPaths,
    refetchInterval: SERVED_LISTING_POLL_MS,
    // A server that stopped answering is said by the followed files' banner; no retries piling up here.
    retry: false,
  });
  if (!watched || folder === null || listing.data === undefined) return NONE;
  return newPaths(
    listing.data,
    folder.files.map((file) => file.path),
  );
}
