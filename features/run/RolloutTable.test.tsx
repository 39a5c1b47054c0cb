/**
 * The rollout list: one row per entry with its rewards (pending, unverified, changed), a click or Enter
 * selects it, a header sorts, the pending rows on screen are reported, and only a window of a long list is
 * in the DOM. Entries are the worker's own (analyzeRollout) on a bundled sample. jsdom lays nothing out:
 * the list keeps the height it assumes before its ResizeObserver reports (components/virtual.ts).
 */
import { readFileSync } from "node:fs";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type RolloutIndexEntry, UNVERIFIED_LABEL } from "@/hooks/types";
import { asRollout } from "@/lib/schemas/test-helpers";
import { analyzeRollout } from "@/worker/core";
import type { SortKey } from "./list";
import { ROW_HEIGHT, RolloutTable } from "./RolloutTable";
import styles from "./RolloutTable.module.css";

const EDGE_LINES = readFileSync("public/samples/workplace-edge-cases.jsonl", "utf8").split("\n");

/** The list entry of line `line` (1-based) of the edge-case sample, as the rewards pass leaves it. */
function entry(line: number, overrides: Partial<RolloutIndexEntry> = {}): RolloutIndexEntry {
  const rollout = asRollout(JSON.parse(EDGE_LINES[line - 1] ?? ""));
  const analyzed = analyzeRollout(line, rollout, {
    input: undefined,
    override: null,
    sample: null,
    harness: null,
  });
  return { ...analyzed, ...overrides };
}

/** An entry before its rewards are computed (the data service marks a recomputation this way). */
const pending = (line: number): RolloutIndexEntry => ({
  ...entry(line),
  contract: null,
  legacy: null,
  rewards: "pending",
});

type Props = Parameters<typeof RolloutTable>[0];

function renderTable(rows: readonly RolloutIndexEntry[], props: Partial<Props> = {}) {
  const onSelect = vi.fn<(line: number) => void>();
  const onSort = vi.fn<(key: SortKey) => void>();
  const onVisible = vi.fn<(lines: readonly number[]) => void>();
  const all: Props = {
    rows,
    selected: null,
    onSelect,
    sort: "line",
    desc: false,
    onSort,
    onVisible,
    ...props,
  };
  const view = render(<RolloutTable {...all} />);
  return {
    onSelect,
    onSort,
    onVisible,
    rerender: (next: Partial<Props>) => view.rerender(<RolloutTable {...all} {...next} />),
  };
}

/** The row of `line` and its cells' text, in column order. */
function row(line: number) {
  const element = document.querySelector<HTMLElement>(`.${styles.rbody} [data-line="${line}"]`);
  if (element === null) throw new Error(`row ${line} is not in the DOM`);
  return { element, cells: [...element.querySelectorAll(`.${styles.cell}`)].map((cell) => cell.textContent) };
}

const renderedLines = () =>
  [...document.querySelectorAll<HTMLElement>(`.${styles.rbody} [data-line]`)].map((element) =>
    Number(element.dataset.line),
  );

describe("RolloutTable", () => {
  it("shows a row's line, task, agent, the three rewards and its call counts", () => {
    const three = entry(3);
    expect(three).toMatchObject({ recorded: 1, contract: 0, legacy: 1 });
    renderTable([three]);
    expect(row(3).cells).toEqual(["3", "2/7", three.agent, "1.0", "0.0", "1.0", "2", "·", "·"]);
  });

  it("the task cell: Gym's indices, else the task the row counts toward, else why an unpaired line has none", () => {
    const bare = entry(3, { task_index: null, rollout_index: null, task: null, paired: false });
    renderTable([entry(3, { task_index: null, task: "data/example.jsonl line 4" }), { ...bare, line: 9 }]);
    expect(row(3).cells[1]).toBe("data/example.jsonl line 4");
    // Named by a row of the open task rows' file: "row 4" in the narrow cell, the whole label on hover.
    cleanup();
    renderTable([entry(3, { task_index: null, task: "data/example.jsonl line 4" })], {
      inputsOpen: true,
      inputsName: "data/example.jsonl",
    });
    expect(row(3).cells[1]).toBe("row 4");
    expect(row(3).element.querySelector("[data-task]")).toHaveAttribute("title", "data/example.jsonl line 4");
    expect(row(3).element.querySelector("[data-task]")).toHaveAttribute(
      "data-task",
      "data/example.jsonl line 4",
    );
    cleanup();
    renderTable([entry(3, { task_index: null, task: "data/example.jsonl line 4" }), { ...bare, line: 9 }]);
    // No task rows open: nothing to pair with, an empty cell.
    expect(row(9).cells[1]).toBe("—");
    cleanup();
    renderTable([{ ...bare, line: 9 }], { inputsOpen: true });
    expect(row(9).cells[1]).toBe("not paired");
    expect(row(9).element.querySelector("[data-task]")).toHaveAttribute(
      "title",
      expect.stringContaining("(_ng_task_index, _ng_rollout_index)"),
    );
  });

  it("marks a recomputed reward that differs from the recorded one", () => {
    renderTable([entry(3), entry(1)]);
    const changed = (line: number) => row(line).element.querySelectorAll(`.${styles.rewardChanged}`).length;
    expect(changed(3)).toBe(1);
    expect(changed(1)).toBe(0);
  });

  it("says why a rollout has no recomputed reward", () => {
    const refused = entry(5);
    expect(refused.unverified).toBe("gym_refuses");
    renderTable([refused]);
    expect(row(5).cells.slice(3, 6)).toEqual(["1.0", UNVERIFIED_LABEL.gym_refuses, "1.0"]);
    // The cell may be cut short: its title says it whole, and where to read why.
    expect(row(5).element.querySelector("[data-rewards]")).toHaveAttribute(
      "title",
      `${UNVERIFIED_LABEL.gym_refuses}: not recomputed (open the line for why)`,
    );
    cleanup();
    // Neither policy verified it: both cells say why, not one a bare dash.
    renderTable([
      entry(6, {
        unverified: "missing_field",
        legacy_unverified: "missing_field",
        contract: null,
        legacy: null,
      }),
    ]);
    expect(row(6).cells.slice(4, 6)).toEqual([
      UNVERIFIED_LABEL.missing_field,
      UNVERIFIED_LABEL.missing_field,
    ]);
    expect(row(6).element.querySelector("[data-col='legacy']")).toHaveAttribute(
      "title",
      `${UNVERIFIED_LABEL.missing_field}: not recomputed under legacy (open the line for why)`,
    );
  });

  it("shows … for rewards still being computed, and reports the pending rows on screen", () => {
    const { onVisible } = renderTable([entry(1), pending(2), entry(3), pending(4)]);
    expect(row(2).cells.slice(3, 6)).toEqual(["0.0", "…", "…"]);
    expect(onVisible).toHaveBeenLastCalledWith([2, 4]);
  });

  it("reports nothing when every row on screen has its rewards", () => {
    const { onVisible } = renderTable([entry(1), entry(2)]);
    expect(onVisible).not.toHaveBeenCalled();
  });

  it("a click or Enter on a row selects its line", async () => {
    const { onSelect } = renderTable([entry(1), entry(2), entry(3)]);
    await userEvent.click(row(2).element);
    expect(onSelect).toHaveBeenLastCalledWith(2);
    row(3).element.focus();
    await userEvent.keyboard("{Enter}");
    expect(onSelect).toHaveBeenLastCalledWith(3);
  });

  it("the selected row is current and the list's one tab stop", () => {
    renderTable([entry(1), entry(2), entry(3)], { selected: 2 });
    expect(row(2).element).toHaveAttribute("aria-current", "true");
    expect(row(2).element).toHaveAttribute("tabindex", "0");
    for (const line of [1, 3]) {
      expect(row(line).element).toHaveAttribute("aria-current", "false");
      expect(row(line).element).toHaveAttribute("tabindex", "-1");
    }
  });

  it("a header sorts by its column; the sorted one says which way", async () => {
    const { onSort, rerender } = renderTable([entry(1)], { sort: "contract", desc: true });
    const header = document.querySelector<HTMLElement>(`.${styles.rhead}`)!;
    // Each header is named by what it counts, not its one-letter label ("A"), and says its direction.
    const contract = within(header).getByRole("button", {
      name: "contract: sort by recomputed reward, policy contract, descending",
    });
    expect(contract).toHaveTextContent("contract ↓");
    expect(contract).toHaveAttribute("aria-pressed", "true");
    expect(within(header).getByRole("button", { name: "rec.: sort by recorded reward" })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
    await userEvent.click(within(header).getByRole("button", { name: "A: sort by ambiguous calls" }));
    expect(onSort).toHaveBeenLastCalledWith("ambiguous");
    rerender({ sort: "contract", desc: false });
    expect(contract).toHaveTextContent("contract ↑");
    expect(contract).toHaveAccessibleName("contract: sort by recomputed reward, policy contract, ascending");
  });

  it("says so when no rollout matches", () => {
    renderTable([]);
    expect(screen.getByText("No rollout matches these filters.")).toBeInTheDocument();
    expect(renderedLines()).toEqual([]);
  });

  it("shows an agent name from the file as text, never as markup", () => {
    const payload = '<img src=x onerror="window.__xss=1">';
    renderTable([entry(1, { agent: payload })]);
    expect(document.querySelector("img")).toBeNull();
    expect(row(1).cells[2]).toBe(payload);
  });

  describe("a long list", () => {
    // A copy of one entry per line: what matters is how many rows there are.
    const template = entry(1);
    const many = (count: number) => Array.from({ length: count }, (_, i) => ({ ...template, line: i + 1 }));

    // jsdom has no element scrollTo: here it moves scrollTop and fires scroll, as a browser's does.
    beforeEach(() => {
      HTMLElement.prototype.scrollTo = function (this: HTMLElement, options?: ScrollToOptions | number) {
        if (typeof options === "object" && options.top !== undefined) this.scrollTop = options.top;
        this.dispatchEvent(new Event("scroll"));
      };
    });
    afterEach(() => {
      Reflect.deleteProperty(HTMLElement.prototype, "scrollTo");
    });

    it("puts only the rows on screen (and a few around them) in the DOM, in a space as tall as all of them", () => {
      renderTable(many(5_000));
      const lines = renderedLines();
      expect(lines[0]).toBe(1);
      expect(lines.length).toBeGreaterThan(10);
      expect(lines.length).toBeLessThan(100);
      expect(document.querySelector<HTMLElement>(`.${styles.rspace}`)?.style.height).toBe(
        `${5_000 * ROW_HEIGHT}px`,
      );
    });

    it("scrolling shows the rows further down", () => {
      renderTable(many(5_000));
      const scroller = screen.getByTestId("rollout-scroller");
      act(() => {
        scroller.scrollTop = 3_000 * ROW_HEIGHT;
        fireEvent.scroll(scroller);
      });
      expect(renderedLines()).toContain(3_001);
      expect(renderedLines()).not.toContain(1);
    });

    it("a row selected off screen (j/k, a link) is brought into view", async () => {
      const { rerender } = renderTable(many(5_000));
      // The scroller's extent, which jsdom does not compute: the list scrolls no further than it.
      const scroller = screen.getByTestId("rollout-scroller");
      Object.defineProperties(scroller, {
        clientHeight: { get: () => 900 },
        scrollHeight: {
          get: () => Number.parseFloat((scroller.firstElementChild as HTMLElement).style.height),
        },
      });
      expect(renderedLines()).not.toContain(4_000);
      rerender({ selected: 4_000 });
      // The first scroll write waits for the next animation frame (components/virtual.ts scrollAfterLayout).
      await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      expect(renderedLines()).toContain(4_000);
      expect(row(4_000).element).toHaveAttribute("aria-current", "true");
    });
  });
});
