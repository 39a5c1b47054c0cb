import { renderHook, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useServedFolder } from "./use-served-folder";

// The worker's session and loader, and the served folder's server, faked at their boundary.
const fake = vi.hoisted(() => ({
  session: null as { datasets: { id: string }[] } | null,
  read: vi.fn(async (): Promise<boolean> => true),
  marked: vi.fn(),
  servedTab: false,
}));
vi.mock("./data", () => ({
  useSession: () => fake.session,
  useLoad: () => ({ loadFolder: vi.fn(), error: null }),
}));
vi.mock("./served", () => ({
  readServedFolder: fake.read,
  markServed: fake.marked,
  servedFolder: () => fake.servedTab,
}));

beforeEach(() => {
  fake.session = null;
  fake.read.mockReset().mockResolvedValue(true);
  fake.marked.mockReset();
  fake.servedTab = false;
});

describe("useServedFolder", () => {
  it("reads the served folder once for a link that names its files on a fresh page, then marks the tab served", async () => {
    const { result, rerender } = renderHook(() => useServedFolder(true));
    expect(result.current.reading).toBe(true);
    await waitFor(() => expect(result.current.reading).toBe(false));
    rerender();
    expect(fake.read).toHaveBeenCalledTimes(1);
    expect(fake.marked).toHaveBeenCalledTimes(1);
    expect(result.current.error).toBeNull();
  });

  it("reads nothing for a link that names none, or in a tab that holds files (a link never replaces them)", () => {
    expect(renderHook(() => useServedFolder(false)).result.current.reading).toBe(false);
    fake.session = { datasets: [{ id: "d-1" }] };
    expect(renderHook(() => useServedFolder(true)).result.current.reading).toBe(false);
    expect(fake.read).not.toHaveBeenCalled();
    expect(fake.marked).not.toHaveBeenCalled();
  });

  it("reads the folder of a tab that shows it for an address typed there (no served file named), not once it holds files", async () => {
    fake.servedTab = true;
    // Only a page that asks for it (/compare's runs; /live never uses the folder's other files).
    expect(renderHook(() => useServedFolder(false)).result.current.reading).toBe(false);
    const { result } = renderHook(() => useServedFolder(false, true));
    expect(result.current.reading).toBe(true);
    expect(result.current.forTab).toBe(true);
    await waitFor(() => expect(result.current.reading).toBe(false));
    expect(fake.read).toHaveBeenCalledTimes(1);
    // Reached from the inspector, the worker holds the folder's files: nothing is read again.
    fake.session = { datasets: [{ id: "d-1" }] };
    expect(renderHook(() => useServedFolder(false, true)).result.current.reading).toBe(false);
    expect(fake.read).toHaveBeenCalledTimes(1);
    // A link that names a served file, on a fresh page: read for the link, not for the tab.
    fake.session = null;
    expect(renderHook(() => useServedFolder(true, true)).result.current.forTab).toBe(false);
  });

  it("says why the folder could not be read, and leaves the tab unmarked", async () => {
    fake.read.mockRejectedValue(new Error("the served folder's listing: HTTP 404"));
    const { result } = renderHook(() => useServedFolder(true));
    await waitFor(() => expect(result.current.error).toBe("the served folder's listing: HTTP 404"));
    expect(result.current.reading).toBe(false);
    expect(fake.marked).not.toHaveBeenCalled();
    // A load that failed in the worker (null): nothing marked either.
    fake.read.mockResolvedValue(false);
    const again = renderHook(() => useServedFolder(true));
    await waitFor(() => expect(again.result.current.reading).toBe(false));
    expect(fake.marked).not.toHaveBeenCalled();
  });
});
