"use client";
/**
 * A folder from the page's edge, as the data worker takes it: every file with its path relative to the
 * folder. A picked folder (`<input webkitdirectory>`) gives each File a webkitRelativePath; a dropped folder
 * is read recursively through the entries API (DataTransferItem.webkitGetAsEntry). Paths are `/`-separated
 * and lose the folder's own name, so they read as `cli verify DIR` prints them.
 */
import type { FolderEntry } from "@/worker/protocol";

export interface PickedFolder {
  /** The folder's name (several dropped folders: their names joined). */
  readonly name: string;
  readonly entries: readonly FolderEntry[];
}

/** Strips the one top folder every path shares (the picked or dropped folder's own name). */
export function relativeToFolder(files: readonly { path: string; file: File }[]): PickedFolder {
  const paths = files.map((f) => f.path.replace(/^\/+/, ""));
  const tops = new Set(paths.map((p) => (p.includes("/") ? p.slice(0, p.indexOf("/")) : "")));
  const [top] = [...tops];
  const strip = tops.size === 1 && top !== undefined && top !== "";
  return {
    name: strip ? top : [...tops].filter((t) => t !== "").join(", ") || "folder",
    entries: files.map((f, at) => ({
      path: strip ? (paths[at] ?? "").slice((top?.length ?? 0) + 1) : (paths[at] ?? ""),
      file: f.file,
    })),
  };
}

/** The files of a folder picker (each carries webkitRelativePath). */
export function folderFromInput(files: readonly File[]): PickedFolder {
  return relativeToFolder(files.map((file) => ({ path: file.webkitRelativePath || file.name, file })));
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  // readEntries returns a batch at a time (Chromium: 100) until an empty batch.
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

function isDirectory(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory;
}

function isFile(entry: FileSystemEntry): entry is FileSystemFileEntry {
  return entry.isFile;
}

async function walk(entry: FileSystemEntry, out: { path: string; file: File }[]): Promise<void> {
  if (isFile(entry)) {
    const file = await new Promise<File>((resolve, reject) => entry.file(resolve, reject));
    out.push({ path: entry.fullPath, file });
  } else if (isDirectory(entry)) {
    for (const child of await readAll(entry.createReader())) await walk(child, out);
  }
}

/**
 * What was dropped, when it holds a folder: every file under it, read recursively; null when only files
 * were dropped. The entries must be taken during the drop event, so call this synchronously from it.
 */
export function folderFromDrop(transfer: DataTransfer): Promise<PickedFolder> | null {
  const entries = [...transfer.items].flatMap((item) => item.webkitGetAsEntry() ?? []);
  if (!entries.some((entry) => entry.isDirectory)) return null;
  return (async () => {
    const files: { path: string; file: File }[] = [];
    for (const entry of entries) await walk(entry, files);
    return relativeToFolder(files);
  })();
}
