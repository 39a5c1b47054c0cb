import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { CompareFileSummary } from "./protocol";
import { fileSummary } from "./test-helpers";
import { useRepairForm } from "./use-repair-form";

// The worker's known servers and the repair mutation, faked at the data hooks' boundary.
const fake = vi.hoisted(() => ({ run: vi.fn() }));
vi.mock("./data", () => ({
  useServerTools: () => ({ data: [{ name: "workplace_assistant", tools: ["email_send", "calendar_get"] }] }),
  useRepair: () => ({ run: fake.run, params: null, result: null, pending: false, error: null }),
  useDownloadRepaired: () => ({ download: vi.fn(), pending: false, saved: null, error: null }),
}));

function summary(): CompareFileSummary {
  return fileSummary({ servers: ["workplace_assistant"] });
}

describe("useRepairForm", () => {
  it("offers the file's server with its tools, runs the repair with the edited list", () => {
    const file = summary();
    const { result } = renderHook(() => useRepairForm(file, null, "hermes-legacy"));
    expect(result.current.servers).toEqual([
      { name: "workplace_assistant", tools: "email_send, calendar_get" },
    ]);
    expect(result.current.canRun).toBe(true);
    act(() => result.current.setDrafts([{ name: "workplace_assistant", tools: "email_send" }]));
    act(() => result.current.run());
    expect(fake.run).toHaveBeenCalledWith({
      file,
      inputs: null,
      harness: "hermes-legacy",
      servers: [{ name: "workplace_assistant", tools: ["email_send"] }],
    });
  });

  it("cannot run while the file's inputs are still read", () => {
    const { result } = renderHook(() => useRepairForm(summary(), undefined, "hermes-legacy"));
    expect(result.current.canRun).toBe(false);
  });
});
