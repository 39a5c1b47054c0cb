/**
 * lib/'s folders form layers: no folder imports, directly or around a circle, one that imports it back
 * (a verifier importing the pipeline that lists it was such a circle). Tests are left out: a verifier's
 * test may run the whole pipeline.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const LIB = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|test-helpers\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Folder -> the folders its files import (relative `import`/`export ... from` specifiers). */
function folderImports(): Map<string, Set<string>> {
  const folderOf = (path: string) => relative(LIB, path).split("/")[0] ?? "";
  const edges = new Map<string, Set<string>>();
  for (const file of sources(LIB)) {
    const from = folderOf(file);
    if (!relative(LIB, file).includes("/")) continue;
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:import|export)[^;]*?from\s+"(\.[^"]+)"/gs)) {
      const target = resolve(dirname(file), match[1] ?? "");
      const to = folderOf(target);
      if (to === from || to.startsWith("..") || /\.tsx?$/.test(to)) continue;
      edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

/** One circle through `start`, as a path start -> ... -> start, or null. */
function circleThrough(edges: Map<string, Set<string>>, start: string): string[] | null {
  const seen = new Set<string>();
  const walk = (folder: string, path: string[]): string[] | null => {
    for (const next of edges.get(folder) ?? []) {
      if (next === start) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, next]);
      if (found !== null) return found;
    }
    return null;
  };
  return walk(start, [start]);
}

describe("lib/ folders", () => {
  it("import each other in one direction only (no circle)", () => {
    const edges = folderImports();
    expect(edges.get("verify")?.has("verifiers")).toBe(true);
    const circles = [...edges.keys()].flatMap((folder) => {
      const circle = circleThrough(edges, folder);
      return circle === null ? [] : [circle.join(" -> ")];
    });
    expect(circles).toEqual([]);
  });
});
