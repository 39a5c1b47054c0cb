"use client";
import { useEffect, useRef, useState } from "react";
import { useLoad, useSession } from "./data";
import { markServed, readServedFolder, servedFolder } from "./served";

export interface ServedFolderRead {
  /** The served folder is being read: what the page's links name in it is not there yet. */
  readonly reading: boolean;
  /** It is read because the tab shows it (asked for by `forTab`), no file of it named: the page chooses what to show of it. */
  readonly forTab: boolean;
  /** Why it could not be read, or null. */
  readonly error: string | null;
}

/**
 * For a page other than the inspector (/compare, /live) whose URL names files of the folder `cli view` serves
 * by their paths (`named`, worker/protocol servedRef), or (`forTab`: a page that shows the folder's own files
 * when none is named, /compare's runs) opened in a tab that shows that folder: a reload, a typed address or a
 * link opened in a new tab starts with a worker that holds nothing, so the folder is read from the server,
 * once, as the inspector reads it. A page reached from
 * the inspector reads nothing: the served folder is open there, or the user opened other files, which a link
 * must not replace (its served files are then said not to be open).
 */
export function useServedFolder(named: boolean, forTab = false): ServedFolderRead {
  const session = useSession();
  const { loadFolder, error: loadError } = useLoad();
  const empty = session === null || session.datasets.length === 0;
  // Decided once, at the first render: on the server servedFolder() is false, and what the page renders from
  // `reading` (no file asked for) is the same there and at hydration.
  const [start] = useState(() => {
    const tab = forTab && servedFolder();
    return { read: (named || tab) && empty, forTab: !named && tab && empty };
  });
  const [reading, setReading] = useState(start.read);
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
  return { reading, forTab: start.forTab, error: error ?? loadError };
}
