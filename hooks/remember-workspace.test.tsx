/**
 * What the tab keeps for a reload (hooks/data.ts useRememberWorkspace): the roles chosen in each folder, by
 * folder, so a served folder read again finds its own and another folder of the same name does not.
 */
import { renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { FolderSummary, SessionSummary } from "@/worker/protocol";
import { FOLDER_ROLES_KEPT, storedFolderRoles, useRememberWorkspace } from "./data";

function session(
  name: string,
  path: string | null,
  chosen: Record<string, "ignore" | "inputs">,
): SessionSummary {
  const folder: FolderSummary = {
    name,
    path,
    picked: false,
    served: path !== null,
    hidden: [],
    files: Object.entries(chosen).map(([file, role]) => ({
      path: file,
      role,
      reason: "Chosen by you.",
      chosen: true,
      dataset: null,
      bytes: 100,
      modified: null,
    })),
    runs: [],
  };
  return { datasets: [], files: [], folder };
}

beforeEach(() => window.sessionStorage.clear());

describe("useRememberWorkspace", () => {
  it("keeps each folder's roles apart: serving another folder and then the first again finds the first's", () => {
    const { rerender } = renderHook(({ s, loading }) => useRememberWorkspace(s, loading), {
      initialProps: { s: session("run", "/a/run", { "data/x.jsonl": "ignore" }), loading: false },
    });
    rerender({ s: session("run", "/b/run", { "data/y.jsonl": "inputs" }), loading: false });
    expect(storedFolderRoles("/a/run")).toEqual({ "data/x.jsonl": "ignore" });
    expect(storedFolderRoles("/b/run")).toEqual({ "data/y.jsonl": "inputs" });
    // A folder picked (no served path) is never read again: nothing is kept for it, nothing pushed out.
    rerender({ s: session("picked", null, { "a.jsonl": "ignore" }), loading: false });
    expect(storedFolderRoles("picked")).toEqual({});
    expect(storedFolderRoles("/a/run")).toEqual({ "data/x.jsonl": "ignore" });
  });

  it("forgets nothing while a load runs (the session has no folder then)", () => {
    const { rerender } = renderHook(({ s, loading }) => useRememberWorkspace(s, loading), {
      initialProps: { s: session("run", "/a/run", { "data/x.jsonl": "ignore" }), loading: false },
    });
    rerender({ s: { datasets: [], files: [], folder: null }, loading: true });
    expect(storedFolderRoles("/a/run")).toEqual({ "data/x.jsonl": "ignore" });
    // All roles set back to their content's: the folder has none to keep.
    rerender({ s: session("run", "/a/run", {}), loading: false });
    expect(storedFolderRoles("/a/run")).toEqual({});
  });

  it(`keeps the latest ${FOLDER_ROLES_KEPT} folders`, () => {
    const { rerender } = renderHook(({ s }) => useRememberWorkspace(s), {
      initialProps: { s: session("f0", "/f0", { "a.jsonl": "ignore" }) },
    });
    for (let i = 1; i <= FOLDER_ROLES_KEPT; i++)
      rerender({ s: session(`f${i}`, `/f${i}`, { "a.jsonl": "ignore" }) });
    expect(storedFolderRoles("/f0")).toEqual({});
    expect(storedFolderRoles("/f1")).toEqual({ "a.jsonl": "ignore" });
    expect(storedFolderRoles(`/f${FOLDER_ROLES_KEPT}`)).toEqual({ "a.jsonl": "ignore" });
  });
});
