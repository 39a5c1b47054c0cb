import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FolderTriage } from "./FolderTriage";
import { wholeFolderView } from "./run-view";
import { rollouts, runPart } from "./test-helpers";

afterEach(cleanup);

const part = (key: string, from: number, to: number) => runPart(key, from, to);

describe("FolderTriage", () => {
  it("says which files changed on disk after they were read: the sums count their rows as first read", async () => {
    const half = Math.floor(rollouts.length / 2);
    const view = await wholeFolderView("run", [
      { dataset: "A", file: "a/rollouts.jsonl", source: part("a", 0, half) },
      { dataset: "B", file: "b/rollouts.jsonl", source: part("b", half, rollouts.length) },
    ]);
    const props = { view, reward: "recorded" as const, shown: "A", onFile: () => {} };
    const { rerender } = render(<FolderTriage {...props} stale={[]} />);
    expect(screen.queryByTestId("folder-triage-stale")).toBeNull();
    rerender(<FolderTriage {...props} stale={["b/rollouts.jsonl"]} />);
    expect(screen.getByTestId("folder-triage-stale").textContent).toBe(
      "1 file changed on disk after it was read, so the sums below count its rows as first read: b/rollouts.jsonl. Read the folder again to count what it holds now.",
    );
    expect(screen.queryByTestId("folder-read-again")).toBeNull();
    // A served folder's notice reads it again.
    const readAgain = vi.fn();
    rerender(<FolderTriage {...props} stale={["b/rollouts.jsonl"]} onReadAgain={readAgain} />);
    await userEvent.click(screen.getByTestId("folder-read-again"));
    expect(readAgain).toHaveBeenCalledTimes(1);
  });
});
