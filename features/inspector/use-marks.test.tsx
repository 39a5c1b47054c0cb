import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { markFileKey, useMarks } from "./use-marks";

const alone = (id: string) => ({ id, folder_name: null, folder_path: null });
const inFolder = (id: string, path: string) => ({ id, folder_name: "run", folder_path: path });

beforeEach(() => window.sessionStorage.clear());

describe("useMarks", () => {
  it("keeps a file's marks across a reload (a remount), by its id", () => {
    const files = [alone("a"), alone("b")];
    const first = renderHook(() => useMarks(files));
    act(() => first.result.current.mark("a", 3, true));
    act(() => first.result.current.mark("b", 1, true));
    act(() => first.result.current.mark("a", 7, true));
    act(() => first.result.current.mark("a", 3, false));
    expect(first.result.current.marks).toEqual([
      { dataset: "b", line: 1 },
      { dataset: "a", line: 7 },
    ]);
    first.unmount();
    const again = renderHook(() => useMarks(files));
    expect(again.result.current.marks).toEqual([
      { dataset: "b", line: 1 },
      { dataset: "a", line: 7 },
    ]);
  });

  it("follows a folder's files to their new ids when the folder is read again, by path", () => {
    const first = renderHook(() =>
      useMarks([inFolder("x1", "a/rollouts.jsonl"), inFolder("x2", "b/rollouts.jsonl")]),
    );
    act(() => first.result.current.mark("x2", 4, true));
    first.unmount();
    const { result, rerender } = renderHook(({ files }) => useMarks(files), {
      initialProps: { files: [] as ReturnType<typeof inFolder>[] },
    });
    // Before the folder is read again nothing is shown, and nothing is lost.
    expect(result.current.marks).toEqual([]);
    rerender({ files: [inFolder("y1", "a/rollouts.jsonl"), inFolder("y2", "b/rollouts.jsonl")] });
    expect(result.current.marks).toEqual([{ dataset: "y2", line: 4 }]);
    // Another folder with the same paths is another folder.
    expect(markFileKey({ id: "z", folder_name: "other", folder_path: "b/rollouts.jsonl" })).not.toBe(
      markFileKey(inFolder("y2", "b/rollouts.jsonl")),
    );
  });

  it("drops the marks of files no longer open at the next mark", () => {
    const { result, rerender } = renderHook(({ files }) => useMarks(files), {
      initialProps: { files: [alone("a"), alone("b")] },
    });
    act(() => result.current.mark("a", 2, true));
    rerender({ files: [alone("b")] });
    act(() => result.current.mark("b", 5, true));
    rerender({ files: [alone("a"), alone("b")] });
    expect(result.current.marks).toEqual([{ dataset: "b", line: 5 }]);
  });

  it("reads stored marks that are not its own shape as none", () => {
    window.sessionStorage.setItem("rollout-inspector.marks", '{"not":"marks"}');
    const { result } = renderHook(() => useMarks([alone("a")]));
    expect(result.current.marks).toEqual([]);
  });
});
