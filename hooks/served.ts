"use client";
/**
 * A folder served by `cli view` (cli/view/): the page was opened at `/?served=1` (the token already swapped
 * for a cookie), so it reads the folder's listing and opens the folder from the server as a picked folder is
 * opened (worker/folder.ts); the worker follows its rollouts files as they grow. Kept for the tab
 * (sessionStorage): a reload reads the folder again instead of the tab's kept copies.
 */
import { z } from "zod";
import { type FolderEntry, type FolderFileView, servedPathOf } from "@/worker/protocol";
import { type LoadState, storedFolderRoles } from "./data";

/** The server's routes (cli/view/server.ts). */
export const SERVED_FILES_ROUTE = "/view-api/files";
export const SERVED_FILE_ROUTE = "/view-api/file";
const SERVED_PARAM = "served";
const SERVED_KEY = "rollout-inspector:served";

const ListingSchema = z.object({
  name: z.string(),
  root: z.string().nullable().default(null),
  // Each file's role is in the listing too, for scripts; the worker decides the roles the page shows.
  files: z.array(
    z.object({ path: z.string(), bytes: z.number(), modified: z.number().nullable().default(null) }),
  ),
  hidden: z.array(z.string()).default([]),
});

/** From now on this tab shows the folder `cli view` serves (a link named its files: "/" then reads it too). */
export function markServed(): void {
  window.sessionStorage.setItem(SERVED_KEY, "1");
}

/**
 * This tab no longer shows the served folder: the user opened other files in it (they replace the folder), so
 * a reload reopens those (kept) files rather than reading the folder again.
 */
export function unmarkServed(): void {
  window.sessionStorage.removeItem(SERVED_KEY);
}

/** True when this tab shows a folder `cli view` serves (opened at its printed URL, or marked once read). */
export function servedFolder(): boolean {
  if (typeof window === "undefined") return false;
  if (new URLSearchParams(window.location.search).get(SERVED_PARAM) === "1") {
    markServed();
    return true;
  }
  return window.sessionStorage.getItem(SERVED_KEY) === "1";
}

/**
 * True when the inspector's URL names a file of a served folder by its path (`file=served:…`, as a served
 * tab's address bar shows it): opened in another tab, the folder is read if the tab holds nothing else, and
 * the tab is marked served only once it was read (a link pasted into another app's page marks nothing).
 */
export function servedLink(): boolean {
  if (typeof window === "undefined") return false;
  return servedPathOf(new URLSearchParams(window.location.search).get("file") ?? "") !== null;
}

/**
 * How often the page asks the served folder's listing for files that appeared since it was read (a second
 * run writing its output beside the first): a new file is a rare event, named within a few seconds, at one
 * small request per interval.
 */
export const SERVED_LISTING_POLL_MS = 5000;

/** The served folder's listing, as the server has it now. */
async function servedListing(): Promise<z.infer<typeof ListingSchema>> {
  const response = await fetch(SERVED_FILES_ROUTE, { cache: "no-store" });
  if (!response.ok) throw new Error(`the served folder's listing: HTTP ${response.status}`);
  return ListingSchema.parse(await response.json());
}

/** A file of the served folder's listing: its path and its size now. */
export interface ListedFile {
  readonly path: string;
  readonly bytes: number;
  /** Its last modification (epoch ms), when the server says. */
  readonly modified: number | null;
}

/** The served folder's files now (its listing, hidden entries aside). */
export async function servedFiles(): Promise<ListedFile[]> {
  // The listing's schema keeps these fields only (zod drops the rest: each file's role and reason).
  return (await servedListing()).files;
}

/**
 * The opened folder's Gym configs and metrics files that changed (size or modification time) or are gone from
 * the listing since they were read: what the page shows was routed and compared with them as first read. (Its
 * rollouts and task-rows files are watched by the worker, byte by byte.)
 */
export function changedFiles(
  listing: readonly ListedFile[],
  opened: readonly Pick<FolderFileView, "path" | "role" | "bytes" | "modified">[],
): ChangedFile[] {
  const now = new Map(listing.map((file) => [file.path, file]));
  return opened.flatMap((file): ChangedFile[] => {
    if (file.role !== "config" && file.role !== "metrics") return [];
    const listed = now.get(file.path);
    if (listed === undefined) return [{ path: file.path, gone: true }];
    const touched = listed.modified !== null && file.modified !== null && listed.modified !== file.modified;
    return listed.bytes !== file.bytes || touched ? [{ path: file.path, gone: false }] : [];
  });
}

/** A served folder's config or metrics file no longer as read. */
export interface ChangedFile {
  readonly path: string;
  readonly gone: boolean;
}

/** Files named in a notice before "and N more". */
const CHANGED_NAMED = 3;

/** The notice's sentence for changed configs and metrics files (none: null). */
export function changedFilesText(changed: readonly ChangedFile[]): string | null {
  if (changed.length === 0) return null;
  const named = changed
    .slice(0, CHANGED_NAMED)
    .map((file) => `${file.path}${file.gone ? " (gone)" : ""}`)
    .join(", ");
  const more = changed.length > CHANGED_NAMED ? ` and ${changed.length - CHANGED_NAMED} more` : "";
  const what =
    changed.length === 1
      ? `A Gym config or metrics file changed`
      : `${changed.length} Gym config and metrics files changed`;
  return `${what} in the served folder since it was read: ${named}${more}. The rows are routed, and Gym's numbers compared, with ${changed.length === 1 ? "it" : "them"} as first read.`;
}

/** Paths of the listing that the opened folder does not have, in the listing's order. */
export function newPaths(listing: readonly string[], opened: readonly string[]): string[] {
  const known = new Set(opened);
  return listing.filter((path) => !known.has(path));
}

/**
 * The served folder's files, read from the server's listing, as the worker opens a folder: every file (the
 * worker reads each for its role, plans the folder and reads its rollouts and task rows, as for a picked
 * folder).
 */
export async function servedEntries(): Promise<{
  name: string;
  root: string | null;
  entries: FolderEntry[];
}> {
  const listing = await servedListing();
  const entries: FolderEntry[] = listing.files.map((file) => ({
    path: file.path,
    url: `${SERVED_FILE_ROUTE}?path=${encodeURIComponent(file.path)}`,
    bytes: file.bytes,
    modified: file.modified,
  }));
  // The hidden entries too, as a picked folder lists them: the worker never reads a hidden path (the server
  // would refuse it), it names them in the folder's summary.
  for (const path of listing.hidden) entries.push({ path, url: "", bytes: 0 });
  return { name: listing.name, root: listing.root, entries };
}

/**
 * Reads the served folder into the worker as the inspector opens it: with the roles the user chose in it
 * before (a reload, "Read the folder again", a link to /compare or /live opened afresh).
 */
export async function readServedFolder(load: LoadState["loadFolder"]): Promise<boolean> {
  const { name, root, entries } = await servedEntries();
  // null: the load failed or was cancelled (the loader's error says why).
  return (await load(name, entries, root === null ? {} : storedFolderRoles(root), root)) !== null;
}

/** Why the served folder could not be read, as every page says it. */
export function servedReadErrorText(message: string): string {
  return `Could not read the served folder: ${message}`;
}
