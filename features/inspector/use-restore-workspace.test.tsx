import { renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SERVED_FILE_ROUTE } from "@/hooks/served";
import type { SessionSummary } from "@/hooks/types";
import { useRestoreWorkspace } from "./use-restore-workspace";

// The tab's kept file ids, at the data layer's boundary (sessionStorage behind it).
const kept = vi.hoisted(() => ({
  ids: [] as string[],
  folder: null as string | null,
  roles: {} as Record<string, Record<string, string>>,
}));
vi.mock("@/hooks/data", () => ({
  storedWorkspace: () => kept.ids,
  storedFolder: () => kept.folder,
  storedFolderRoles: (name: string) => kept.roles[name] ?? {},
  useRememberWorkspace: () => undefined,
}));

function fakeLoader() {
  return { loadFolder: vi.fn(async () => null), restore: vi.fn(async () => null), loading: false };
}

const SESSION: SessionSummary = { datasets: [], files: [], folder: null };

beforeEach(() => {
  kept.ids = ["kept-1", "kept-2"];
  kept.folder = null;
  kept.roles = {};
  window.sessionStorage.clear();
  window.history.replaceState(null, "", "/");
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("useRestoreWorkspace", () => {
  it("reopens the tab's kept files once, and marks their rows as restoring until files are opened by hand", async () => {
    const loader = fakeLoader();
    const { result, rerender } = renderHook(({ session }) => useRestoreWorkspace(session, null, loader), {
      initialProps: { session: null as SessionSummary | null },
    });
    expect(loader.restore).toHaveBeenCalledExactlyOnceWith(["kept-1", "kept-2"]);
    expect(loader.loadFolder).not.toHaveBeenCalled();
    expect(result.current.restoring).toBe(true);
    rerender({ session: SESSION });
    expect(loader.restore).toHaveBeenCalledTimes(1);
    result.current.endRestoring();
    await waitFor(() => expect(result.current.restoring).toBe(false));
  });

  it("names the folder the tab had open, opens nothing in its place, and forgets it once anything is opened", async () => {
    kept.ids = [];
    kept.folder = "xlam_fc";
    const loader = fakeLoader();
    const { result } = renderHook(() => useRestoreWorkspace(null, null, loader));
    expect(loader.restore).not.toHaveBeenCalled();
    expect(loader.loadFolder).not.toHaveBeenCalled();
    await waitFor(() => expect(result.current.lostFolder).toBe("xlam_fc"));
    expect(result.current.restoring).toBe(false);
    result.current.endRestoring();
    await waitFor(() => expect(result.current.lostFolder).toBeNull());
  });

  it("opens nothing when a link names a sample (the sample is opened instead)", () => {
    const loader = fakeLoader();
    const { result } = renderHook(() => useRestoreWorkspace(null, "workplace-edge-cases.jsonl", loader));
    expect(loader.restore).not.toHaveBeenCalled();
    expect(result.current.restoring).toBe(false);
  });

  it("opens nothing when the worker already holds a session (client-side navigation back to the page)", () => {
    const loader = fakeLoader();
    renderHook(() => useRestoreWorkspace(SESSION, null, loader));
    expect(loader.restore).not.toHaveBeenCalled();
  });

  it("opens a served folder as a folder (every file, read from the server, with the roles chosen in it before) instead of the tab's kept files", async () => {
    window.history.replaceState(null, "", "/?served=1");
    // Kept by the folder's path where it is served (another run's folder of the same name is another folder).
    kept.roles = { "/data/runs/run": { "data/inputs.jsonl": "ignore" }, run: { "rollouts.jsonl": "ignore" } };
    const listing = {
      name: "run",
      root: "/data/runs/run",
      files: [
        { path: "rollouts.jsonl", bytes: 10, modified: 5, role: "rollouts", reason: "" },
        // An older server's listing without times.
        { path: "data/inputs.jsonl", bytes: 11, role: "inputs", reason: "" },
        { path: "configs/env.yaml", bytes: 12, role: "config", reason: "" },
      ],
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify(listing))),
    );
    const loader = fakeLoader();
    renderHook(() => useRestoreWorkspace(null, null, loader));
    await waitFor(() => expect(loader.loadFolder).toHaveBeenCalledTimes(1));
    expect(loader.loadFolder.mock.calls[0]).toEqual([
      "run",
      [
        { path: "rollouts.jsonl", url: `${SERVED_FILE_ROUTE}?path=rollouts.jsonl`, bytes: 10, modified: 5 },
        {
          path: "data/inputs.jsonl",
          url: `${SERVED_FILE_ROUTE}?path=data%2Finputs.jsonl`,
          bytes: 11,
          modified: null,
        },
        {
          path: "configs/env.yaml",
          url: `${SERVED_FILE_ROUTE}?path=configs%2Fenv.yaml`,
          bytes: 12,
          modified: null,
        },
      ],
      { "data/inputs.jsonl": "ignore" },
      "/data/runs/run",
    ]);
    expect(loader.restore).not.toHaveBeenCalled();
  });

  it("says why a served folder could not be read", async () => {
    window.history.replaceState(null, "", "/?served=1");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("", { status: 503 })),
    );
    const loader = fakeLoader();
    const { result } = renderHook(() => useRestoreWorkspace(null, null, loader));
    await waitFor(() => expect(result.current.servedError).toContain("HTTP 503"));
    expect(loader.loadFolder).not.toHaveBeenCalled();
  });
});
