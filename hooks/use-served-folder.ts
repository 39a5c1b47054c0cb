"use client";
import { useEffect, useRef, useState } from "react";
import { useLoad, useSession } from "./data";
import { markServed, readServedFolder } from "./served";

export interface ServedFolderRead {
  /** The served folder is being read: what the page's links name in it is not there yet. */
  readonly reading: boolean;
  /** Why it could not be read, or null. */
  readonly error: string | null;
}

/**
 * For a page other than the inspector (/compare, /live) whose URL names files of the folder `cli view` serves
 * by their paths (`named`, worker/protocol servedRef): a reload or a link opened in a new tab starts with a
 * worker that holds nothing, so the folder is read from the server, once, as the inspector reads it. A page
 * reached from the inspector reads nothing: the served folder is open there, or the user opened other files,
 * which a link must not replace (its served files are then said not to be open).
 */
export function useServedFolder(named: boolean): ServedFolderRead {
  const session = useSession();
  const { loadFolder, error: loadError } = useLoad();
  const empty = session === null || session.datasets.length === 0;
  const [reading, setReading] = useState(named && empty);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !reading) return;
    started.current = true;
    readServedFolder(loadFolder)
      // The tab shows the served folder from now on ("/" reads it too), once it could be read.
      .then((read) => (read ? markServed() : undefined))
      .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)))
      .finally(() => setReading(false));
  }, [reading, loadFolder]);
  return { reading, error: error ?? loadError };
}
