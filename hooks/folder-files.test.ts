/**
 * The dropped folder's walk (folderFromDrop) over fake FileSystemEntry objects: nested directories, a
 * directory reader that answers in batches (Chromium gives 100 at a time), and a drop of files only. The
 * real drop is in e2e/folders.spec.ts (Chromium's input domain drops a directory from disk).
 */
import { describe, expect, it } from "vitest";
import { folderFromDrop } from "./folder-files";

interface Fake {
  readonly name: string;
  readonly fullPath: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
}

function fileEntry(fullPath: string, text: string): Fake & { file(ok: (f: File) => void): void } {
  const name = fullPath.slice(fullPath.lastIndexOf("/") + 1);
  return { name, fullPath, isFile: true, isDirectory: false, file: (ok) => ok(new File([text], name)) };
}

/** A directory whose reader hands out its children `batch` at a time, then an empty batch. */
function dirEntry(fullPath: string, children: Fake[], batch = 2) {
  return {
    name: fullPath.slice(fullPath.lastIndexOf("/") + 1),
    fullPath,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok: (entries: Fake[]) => void) => {
          const next = children.slice(at, at + batch);
          at += next.length;
          ok(next);
        },
      };
    },
  };
}

function transfer(entries: Fake[]): DataTransfer {
  const items = entries.map((entry) => ({ webkitGetAsEntry: () => entry }));
  // Only `items` is read by folderFromDrop; the rest of DataTransfer is not needed.
  return Object.assign(Object.create(null), { items }) as DataTransfer;
}

describe("folderFromDrop", () => {
  it("reads a dropped folder recursively, every batch of every directory, paths relative to it", async () => {
    const run = dirEntry("/run", [
      dirEntry("/run/configs", [fileEntry("/run/configs/a.yaml", "a: 1\n")]),
      dirEntry("/run/data", [
        fileEntry("/run/data/example.jsonl", "{}\n"),
        fileEntry("/run/data/example_rollouts.jsonl", "{}\n"),
        fileEntry("/run/data/example_metrics.json", "{}"),
        dirEntry("/run/data/deeper", [fileEntry("/run/data/deeper/x.jsonl", "{}\n")]),
      ]),
      fileEntry("/run/README.md", "# run\n"),
    ]);
    const folder = await folderFromDrop(transfer([run]));
    expect(folder?.name).toBe("run");
    expect(folder?.entries.map((e) => e.path)).toEqual([
      "configs/a.yaml",
      "data/example.jsonl",
      "data/example_rollouts.jsonl",
      "data/example_metrics.json",
      "data/deeper/x.jsonl",
      "README.md",
    ]);
    const first = folder?.entries[0];
    expect(first !== undefined && "file" in first ? await first.file.text() : null).toBe("a: 1\n");
  });

  it("keeps each top folder's name when several are dropped together", async () => {
    const folder = await folderFromDrop(
      transfer([
        dirEntry("/a", [fileEntry("/a/r.jsonl", "{}\n")]),
        dirEntry("/b", [fileEntry("/b/r.jsonl", "{}\n")]),
      ]),
    );
    expect(folder?.name).toBe("a, b");
    expect(folder?.entries.map((e) => e.path)).toEqual(["a/r.jsonl", "b/r.jsonl"]);
  });

  it("is null when only files were dropped (they open as files)", () => {
    expect(folderFromDrop(transfer([fileEntry("/r.jsonl", "{}\n")]))).toBeNull();
  });
});
