/** Test-only helpers shared by the worker's and features' Node tests. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { FolderEntry } from "./protocol";

/** Every file under `dir`, as the page gets them from a folder picker (path relative to `dir`, sorted). */
export function folderEntriesFromDisk(dir: string): FolderEntry[] {
  const out: FolderEntry[] = [];
  const visit = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) visit(full);
      else
        out.push({
          path: path.relative(dir, full).split(path.sep).join("/"),
          file: new File([readFileSync(full)], name),
        });
    }
  };
  visit(dir);
  return out;
}
