import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { markFileKey, useMarks } from "./use-marks";

const alone = (id: string) => ({ id, folder_path: null });
const inFolder = (id: string, path: string) => ({ id, folder_path: path });
const SERVED = "/scratch/runs/exp7";

beforeEach(() => window.sessionStorage.clear());

describe("useMarks", () => {
  it("keeps a file's marks across a reload (a remount), by its id", () => {
    const files = [alone("a"), alone("b")];
    const first = renderHook(() => useMarks(files, null));
    act(() => first.result.current.mark("a", 3, true));
    act(() => first.result.current.mark("b", 1, true));
    act(() => first.result.current.mark("a", 7, true));
    act(() => first.result.current.mark("a", 3, false));
    expect(first.result.current.marks).toEqual([
      { dataset: "b", line: 1 },
      { dataset: "a", line: 7 },
    ]);
    first.unmount();
    const again = renderHook(() => useMarks(files, null));
    expect(again.result.current.marks).toEqual([
      { dataset: "b", line: 1 },
      { dataset: "a", line: 7 },
    ]);
  });

  it("follows a served folder's files to their new ids when it is read again, by its path and theirs", () => {
    const first = renderHook(() =>
      useMarks([inFolder("x1", "a/rollouts.jsonl"), inFolder("x2", "b/rollouts.jsonl")], SERVED),
    );
    act(() => first.result.current.mark("x2", 4, true));
    first.unmount();
    const { result, rerender } = renderHook(({ files, served }) => useMarks(files, served), {
      initialProps: { files: [] as ReturnType<typeof inFolder>[], served: null as string | null },
    });
    // Before the folder is read again nothing is shown, and nothing is lost.
    expect(result.current.marks).toEqual([]);
    rerender({
      files: [inFolder("y1", "a/rollouts.jsonl"), inFolder("y2", "b/rollouts.jsonl")],
      served: SERVED,
    });
    expect(result.current.marks).toEqual([{ dataset: "y2", line: 4 }]);
    // Another served folder with the same name and paths is another folder.
    rerender({ files: [inFolder("z2", "b/rollouts.jsonl")], served: "/scratch/runs/exp8/exp7" });
    expect(result.current.marks).toEqual([]);
  });

  it("drops the marks of a file rewritten on disk before the folder is read again; the others' stay", () => {
    const files = [inFolder("x1", "a/rollouts.jsonl"), inFolder("x2", "b/rollouts.jsonl")];
    const first = renderHook(() => useMarks(files, SERVED));
    act(() => first.result.current.mark("x1", 2, true));
    act(() => first.result.current.mark("x2", 4, true));
    act(() => first.result.current.forget(["x2"]));
    first.unmount();
    // Read again: b's line 4 is another rollout now, never marked; a's mark stays.
    const again = renderHook(() =>
      useMarks([inFolder("y1", "a/rollouts.jsonl"), inFolder("y2", "b/rollouts.jsonl")], SERVED),
    );
    expect(again.result.current.marks).toEqual([{ dataset: "y1", line: 2 }]);
  });

  it("never carries a picked folder's marks to another pick (its files' ids are new at every pick)", () => {
    expect(markFileKey(inFolder("p1", "b/rollouts.jsonl"), null)).not.toBe(
      markFileKey(inFolder("p2", "b/rollouts.jsonl"), null),
    );
  });

  it("keeps the marks of files not open now (a folder still loading) when another is marked", () => {
    const { result, rerender } = renderHook(({ files }) => useMarks(files, null), {
      initialProps: { files: [alone("a"), alone("b")] },
    });
    act(() => result.current.mark("a", 2, true));
    rerender({ files: [alone("b")] });
    act(() => result.current.mark("b", 5, true));
    rerender({ files: [alone("a"), alone("b")] });
    expect(result.current.marks).toEqual([
      { dataset: "a", line: 2 },
      { dataset: "b", line: 5 },
    ]);
  });

  it("reads stored marks that are not its own shape as none", () => {
    window.sessionStorage.setItem("rollout-inspector.marks", '{"not":"marks"}');
    const { result } = renderHook(() => useMarks([alone("a")], null));
    expect(result.current.marks).toEqual([]);
  });
});
