/**
 * The served folder's listing (Node only): every regular file under it (hidden entries and symlinks are
 * not listed; a symlink is still refused by ./guard.ts if asked for), with its size and its role, decided
 * as every folder command decides it (cli/folder.ts, lib/folder fileRole).
 */
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { type FileRole, fileRole, hiddenEntries } from "../../lib/folder";
import { folderFile, walk } from "../folder";

export interface ListedFile {
  /** Relative to the folder, `/`-separated: what `/view-api/file?path=` takes. */
  readonly path: string;
  readonly bytes: number;
  /** Its last modification (epoch ms): the page says a config edited since it was read, size kept or not. */
  readonly modified: number;
  readonly role: FileRole;
  /** One sentence: what in the file decided its role. */
  readonly reason: string;
}

export interface FolderListing {
  /** The folder's name (its last path segment). */
  readonly name: string;
  /** Its real path on the machine `view` runs on: the page's shell commands name it, runnable there. */
  readonly root: string;
  readonly files: readonly ListedFile[];
  /** Its hidden entries (a folder's with "/"), never served: the page names them as it does a picked folder's. */
  readonly hidden: readonly string[];
}

export async function listFolder(root: string): Promise<FolderListing> {
  const hidden: string[] = [];
  const files = await Promise.all(
    (await walk(root, hidden)).map(async (full) => {
      const file = await folderFile(root, full);
      const { role, reason } = fileRole(file);
      const stats = await stat(full);
      return { path: file.path, bytes: stats.size, modified: stats.mtimeMs, role, reason };
    }),
  );
  return { name: basename(root), root, files, hidden: hiddenEntries(hidden) };
}
