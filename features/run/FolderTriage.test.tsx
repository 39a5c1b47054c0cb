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

  it("offers the folder's runs of one experiment side by side, at most four pairs named", async () => {
    const half = Math.floor(rollouts.length / 2);
    const view = await wholeFolderView("run", [
      { dataset: "A", file: "a/rollouts.jsonl", source: part("a", 0, half) },
      { dataset: "B", file: "b/rollouts.jsonl", source: part("b", half, rollouts.length) },
    ]);
    const props = { view, reward: "recorded" as const, shown: "A", onFile: () => {}, stale: [] };
    const { rerender } = render(<FolderTriage {...props} />);
    expect(screen.queryByTestId("folder-comparisons")).toBeNull();
    const pair = (k: number) => ({
      a: `a${k}/rollouts.jsonl`,
      b: `b${k}/rollouts.jsonl`,
      href: `/compare?a=${k}&b=x`,
    });
    rerender(<FolderTriage {...props} comparisons={[pair(1)]} />);
    const link = screen.getByTestId("folder-compare");
    expect(link).toHaveTextContent("a1/rollouts.jsonl vs b1/rollouts.jsonl");
    expect(link).toHaveAttribute("href", "/compare?a=1&b=x");
    rerender(<FolderTriage {...props} comparisons={[1, 2, 3, 4, 5, 6].map(pair)} />);
    // Four named, the rest folded (each still a link).
    expect(screen.getAllByTestId("folder-compare")).toHaveLength(6);
    expect(screen.getByText("and 2 more")).toBeInTheDocument();
    expect(screen.getByText("and 2 more").closest("details")?.querySelectorAll("a")).toHaveLength(2);
  });

  it("a cause chosen in the folder's table lists each file's count of it, and a file opens on those rollouts", async () => {
    const half = Math.floor(rollouts.length / 2);
    const view = await wholeFolderView("run", [
      { dataset: "A", file: "a/rollouts.jsonl", source: part("a", 0, half) },
      { dataset: "B", file: "b/rollouts.jsonl", source: part("b", half, rollouts.length) },
    ]);
    const onFile = vi.fn();
    render(<FolderTriage view={view} reward="recorded" shown="A" onFile={onFile} stale={[]} />);
    const [first] = screen.getAllByTestId("folder-cause");
    if (first === undefined) throw new Error("the sample folder has no zero to break down");
    const row = first.closest("tr");
    const cause = row?.getAttribute("data-cause") ?? "";
    const total = Number(row?.getAttribute("data-count"));
    await userEvent.click(first);
    expect(first).toHaveAttribute("aria-pressed", "true");
    // Each file's count of it, adding up to the folder's.
    const counts = [...document.querySelectorAll("[data-cause-count]")].map((cell) =>
      Number(cell.getAttribute("data-cause-count")),
    );
    expect(counts).toHaveLength(2);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
    expect(screen.getByTestId("folder-cause-files")).toHaveTextContent(`${total} “`);
    // A file with rollouts of that cause opens on them; one without opens as it is (filtered, it lists none).
    const countOf = (file: string) =>
      Number(
        document
          .querySelector(`tr[data-file="${file}"] [data-cause-count]`)
          ?.getAttribute("data-cause-count"),
      );
    const files = [
      ["A", "a/rollouts.jsonl"],
      ["B", "b/rollouts.jsonl"],
    ] as const;
    const withCause = files.filter(([, file]) => countOf(file) > 0);
    const without = files.filter(([, file]) => countOf(file) === 0);
    expect(withCause.length).toBeGreaterThan(0);
    for (const [dataset, file] of withCause) {
      await userEvent.click(screen.getByRole("button", { name: file }));
      expect(onFile).toHaveBeenLastCalledWith(dataset, cause);
    }
    for (const [dataset, file] of without) {
      await userEvent.click(screen.getByRole("button", { name: file }));
      expect(onFile).toHaveBeenLastCalledWith(dataset, null);
    }
    // Chosen again: no cause, a file opens as it is.
    await userEvent.click(first);
    expect(document.querySelector("[data-cause-count]")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "a/rollouts.jsonl" }));
    expect(onFile).toHaveBeenLastCalledWith("A", null);
  });
});
