import { renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { DatasetSummary } from "@/hooks/types";
import { NO_HARNESS, parseHarnessChoice } from "@/lib/harness";
import { datasetSummary } from "./test-helpers";
import { useReanalysis } from "./use-reanalysis";

// The data layer's re-analysis mutation, faked at the hook boundary.
const worker = vi.hoisted(() => ({ reanalyze: vi.fn(async () => undefined), pending: false }));
vi.mock("@/hooks/data", () => ({ useReanalyze: () => worker }));

interface Props {
  dataset: DatasetSummary | null;
  server: string | null;
  harness: string;
  loading: boolean;
}

const SHOWN = datasetSummary({ id: "d1", server_override: null, harness: "" });

function renderReanalysis(initial: Partial<Props> = {}) {
  const props: Props = { dataset: SHOWN, server: null, harness: "", loading: false, ...initial };
  return renderHook((p: Props) => useReanalysis(p), { initialProps: props });
}

beforeEach(() => {
  worker.reanalyze.mockClear();
  worker.pending = false;
});

describe("useReanalysis", () => {
  it("leaves a file analysed under the URL's choice alone", () => {
    const { result } = renderReanalysis();
    expect(worker.reanalyze).not.toHaveBeenCalled();
    expect(result.current.harnessChoice).toEqual(NO_HARNESS);
  });

  it("recomputes the shown file's rewards when the harness choice changes, with the parsed choice", () => {
    const { rerender, result } = renderReanalysis();
    const harness = "claude-code,hermes_agent=hermes-legacy";
    rerender({ dataset: SHOWN, server: null, harness, loading: false });
    const parsed = parseHarnessChoice(harness);
    expect(parsed.ok).toBe(true);
    const choice = parsed.ok ? parsed.choice : NO_HARNESS;
    expect(worker.reanalyze).toHaveBeenCalledExactlyOnceWith("d1", null, choice);
    expect(result.current.harnessChoice).toEqual(choice);
  });

  it("recomputes when the verifying server changes", () => {
    const { rerender } = renderReanalysis();
    rerender({ dataset: SHOWN, server: "workplace_assistant", harness: "", loading: false });
    expect(worker.reanalyze).toHaveBeenCalledExactlyOnceWith("d1", "workplace_assistant", NO_HARNESS);
  });

  it("waits while files load or another re-analysis runs, then recomputes", () => {
    const changed = { dataset: SHOWN, server: null, harness: "hermes-legacy" };
    const { rerender } = renderReanalysis({ ...changed, loading: true });
    expect(worker.reanalyze).not.toHaveBeenCalled();
    worker.pending = true;
    rerender({ ...changed, loading: false });
    expect(worker.reanalyze).not.toHaveBeenCalled();
    worker.pending = false;
    rerender({ ...changed, loading: false });
    expect(worker.reanalyze).toHaveBeenCalledTimes(1);
  });

  it("does nothing without a shown file", () => {
    renderReanalysis({ dataset: null, harness: "hermes-legacy" });
    expect(worker.reanalyze).not.toHaveBeenCalled();
  });
});
