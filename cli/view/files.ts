/**
 * The served folder's listing (Node only): every regular file under it (hidden entries and symlinks are
 * not listed; a symlink is still refused by ./guard.ts if asked for), with its size and role.
 */
import { readdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";

export interface ListedFile {
  /** Relative to the folder, `/`-separated: what `/view-api/file?path=` takes. */
  readonly path: string;
  readonly bytes: number;
  readonly role: string;
  readonly reason: string;
}

export interface FolderListing {
  /** The folder's name (its last path segment): the page's title for it. */
  readonly name: string;
  readonly files: readonly ListedFile[];
}

async function walk(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) found.push(full);
    }
  };
  await visit(root);
  return found;
}

export async function listFolder(root: string): Promise<FolderListing> {
  const paths = await walk(root);
  const files = await Promise.all(
    paths.map(async (full) => {
      const path = relative(root, full).split(sep).join("/");
      const lower = path.toLowerCase();
      const jsonl = lower.endsWith(".jsonl") || lower.endsWith(".jsonl.gz") || lower.endsWith(".ndjson");
      return {
        path,
        bytes: (await stat(full)).size,
        role: jsonl ? "rollouts" : "ignore",
        reason: jsonl ? "JSONL" : "not JSONL",
      };
    }),
  );
  return { name: root.split(sep).pop() ?? root, files };
}
