import { act, renderHook, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { CompareFileSummary } from "./protocol";
import { type CompareState, DEFAULT_COMPARE_STATE } from "./state";
import type { CompareUpdate } from "./url";
import { useComparePage } from "./use-compare-page";

// The page's data hooks and its URL state, faked at their boundary: the worker opens each File as the
// summary named after it.
const fake = vi.hoisted(() => ({
  url: { state: undefined as CompareState | undefined },
  summaries: new Map<string, { id: string; name: string; kind: "rollouts" | "inputs" }>(),
}));
vi.mock("./data", () => ({
  useOpenCompareFile: () => ({
    open: async (file: File) => fake.summaries.get(file.name) ?? null,
    pending: false,
    error: null,
  }),
}));
vi.mock("@/hooks/data", () => ({
  useSamples: () => ({ data: [] }),
  useSession: () => null,
}));
vi.mock("./url", () => ({
  useCompareState: () => [
    urlState(),
    (update: CompareUpdate) => {
      const patch = typeof update === "function" ? update(urlState()) : update;
      fake.url.state = { ...urlState(), ...patch };
    },
  ],
}));

function urlState(): CompareState {
  return fake.url.state ?? DEFAULT_COMPARE_STATE;
}

function file(name: string, kind: "rollouts" | "inputs", id = `id-${name}`): File {
  fake.summaries.set(name, { id, name, kind } satisfies Pick<CompareFileSummary, "id" | "name" | "kind">);
  return new File(["{}\n"], name);
}

beforeEach(() => {
  fake.url.state = DEFAULT_COMPARE_STATE;
  fake.summaries.clear();
});

describe("useComparePage", () => {
  it("two runs and an inputs file dropped on the runs tab become A and B, both verified with the inputs", async () => {
    const { result } = renderHook(() => useComparePage());
    await act(() =>
      result.current.onDrop([
        file("a.jsonl", "rollouts"),
        file("b.jsonl", "rollouts"),
        file("i.jsonl", "inputs"),
      ]),
    );
    expect(urlState()).toMatchObject({
      a: "id-a.jsonl",
      b: "id-b.jsonl",
      ai: "id-i.jsonl",
      bi: "id-i.jsonl",
    });
  });

  it("opened files are offered by the pickers, rollouts and inputs apart, and carry their companion inputs", async () => {
    const { result } = renderHook(() => useComparePage());
    await act(async () => {
      await result.current.openFiles([file("r.jsonl", "rollouts"), file("ri.jsonl", "inputs")]);
    });
    await waitFor(() => expect(result.current.choices.map((c) => c.name)).toEqual(["id-r.jsonl"]));
    expect(result.current.inputChoices.map((c) => c.name)).toEqual(["id-ri.jsonl"]);
    expect(result.current.inputsFor("id-r.jsonl", null)).toBe("id-ri.jsonl");
    expect(result.current.inputsFor("id-other", null)).toBeNull();
  });

  it("a file dropped on the what-if tab becomes its file; a file the worker refuses changes nothing", async () => {
    fake.url.state = { ...DEFAULT_COMPARE_STATE, tab: "whatif", line: 4 };
    const { result } = renderHook(() => useComparePage());
    await act(() => result.current.onDrop([new File(["x"], "refused.csv")]));
    expect(urlState()).toMatchObject({ sample: null, line: 4 });
    await act(() => result.current.onDrop([file("w.jsonl", "rollouts")]));
    expect(urlState()).toMatchObject({ sample: "id-w.jsonl", line: null });
  });
});
