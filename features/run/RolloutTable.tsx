"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useRef } from "react";
import { CountChip, formatReward } from "@/components/badges";
import { cx } from "@/components/cx";
import { afterLayout } from "@/components/virtual";
import { type RolloutIndexEntry, UNVERIFIED_LABEL } from "@/hooks/types";
import { rowLabelLine } from "@/lib/verify";
import { rewardChanged, type SortKey } from "./list";
import styles from "./RolloutTable.module.css";

/** Row height in px; fixed so the virtualizer never measures. */
export const ROW_HEIGHT = 30;
/**
 * The list's height assumed until the browser has laid it out: its least (RolloutTable.module.css keeps room
 * for 9 rows below the header), so the first layout lays out no row that is not on screen or in the overscan.
 * A window's worth (900 px, 46 rows with the overscan) was most of the 53-67 ms task that showed the first
 * rows at 2x (bench/main-thread.md); a taller list gets its other rows when its ResizeObserver reports.
 */
const INITIAL_LIST_PX = 9 * ROW_HEIGHT;

const COLUMNS: readonly { key: SortKey; label: string; title: string; className: string | undefined }[] = [
  { key: "line", label: "line", title: "line in the file", className: styles.cLine },
  { key: "task", label: "task", title: "_ng_task_index / _ng_rollout_index", className: styles.cTask },
  { key: "agent", label: "agent", title: "agent_ref.name", className: styles.cAgent },
  { key: "recorded", label: "rec.", title: "recorded reward", className: styles.cNum },
  { key: "contract", label: "contract", title: "recomputed reward, policy contract", className: styles.cNum },
  { key: "legacy", label: "legacy", title: "recomputed reward, policy legacy", className: styles.cNum },
  { key: "ambiguous", label: "A", title: "ambiguous calls", className: styles.cCount },
  { key: "mismatched", label: "M", title: "mismatched calls", className: styles.cCount },
  { key: "external", label: "E", title: "external calls", className: styles.cCount },
];

interface Props {
  rows: readonly RolloutIndexEntry[];
  selected: number | null;
  onSelect(line: number): void;
  sort: SortKey;
  desc: boolean;
  onSort(key: SortKey): void;
  /** The lines on screen, whenever they change (their rewards are computed first). */
  onVisible?(lines: readonly number[]): void;
  /** Task rows are open for the file (an unpaired line's task cell says so). */
  inputsOpen?: boolean;
  /** The task rows' file: a task named by its row there ("data/example.jsonl line 4") shows as "row 4". */
  inputsName?: string | null;
  /** What an empty list says (default: that no rollout matches the filters). */
  emptyText?: string;
}

/** What the task cell of an unpaired row without a task says while task rows are open: why, on hover. */
const NOT_PAIRED = "not paired";
const NOT_PAIRED_HELP =
  "The open task rows did not pair with this line: Gym pairs a rollout with its row by (_ng_task_index, _ng_rollout_index), which it lacks, and no row has its task input alone. Open the line for why.";

/**
 * Gym's (task, rollout) indices, else the task the rollout counts toward (lib/run rowTask); a line that paired
 * none of the open task rows says so rather than leave the cell empty.
 */
function task(entry: RolloutIndexEntry, inputsOpen: boolean): string {
  if (entry.task_index !== null) return `${entry.task_index}/${entry.rollout_index ?? "?"}`;
  if (entry.task !== null) return entry.task;
  return inputsOpen && entry.rewards === "done" && !entry.paired ? NOT_PAIRED : "—";
}

/** The task cell's hover: why an unpaired line has no task, else the whole label (none for "—"). */
function taskTitle(label: string): string | undefined {
  return label === NOT_PAIRED ? NOT_PAIRED_HELP : label === "—" ? undefined : label;
}

/**
 * The task as the narrow cell shows it: a task named by its task row ("data/example.jsonl line 4", every
 * row's alike up to the number) as "row 4"; the whole label is the cell's title.
 */
function shownTask(label: string, inputsName: string | null): string {
  const line = inputsName === null ? null : rowLabelLine(label, inputsName);
  return line === null ? label : `row ${line}`;
}

export const RolloutTable = memo(function RolloutTable({
  rows,
  selected,
  onSelect,
  sort,
  desc,
  onSort,
  onVisible,
  inputsOpen = false,
  inputsName = null,
  emptyText,
}: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
    ...afterLayout<HTMLDivElement>(INITIAL_LIST_PX),
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    if (!onVisible || last < first) return;
    const lines: number[] = [];
    for (let i = first; i <= last; i++) {
      const row = rows[i];
      if (row && row.rewards === "pending") lines.push(row.line);
    }
    if (lines.length > 0) onVisible(lines);
  }, [first, last, rows, onVisible]);
  const selectedIndex = selected === null ? -1 : rows.findIndex((row) => row.line === selected);
  useEffect(() => {
    if (selectedIndex < 0) return;
    // A row already on screen stays put without asking the browser: scrollToIndex reads the scroller's
    // extent, a forced layout of the page (most of a 45 ms task when the first rollout opens on 300 MB).
    const row = virtualizer.measurementsCache[selectedIndex];
    const top = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    if (row && row.start >= top && row.end <= top + height) return;
    virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
  }, [selectedIndex, virtualizer]);

  return (
    <div className={styles.rtable} data-testid="rollout-table" data-rows={rows.length}>
      <div className={cx(styles.rrow, styles.rhead)}>
        {COLUMNS.map((column) => (
          <button
            type="button"
            key={column.key}
            className={cx(styles.cell, column.className, sort === column.key && styles.sorted)}
            title={`${column.title} — sort`}
            // The visible label first (speech control), then what a one-letter column counts ("A": ambiguous calls).
            aria-label={`${column.label}: sort by ${column.title}${sort === column.key ? (desc ? ", descending" : ", ascending") : ""}`}
            aria-pressed={sort === column.key}
            data-sort={column.key}
            onClick={() => onSort(column.key)}
          >
            {column.label}
            {sort === column.key ? (desc ? " ↓" : " ↑") : ""}
          </button>
        ))}
      </div>
      <div className={styles.rbody} ref={scroller} data-testid="rollout-scroller">
        {rows.length === 0 && (
          <div className={styles.emptyRows}>{emptyText ?? "No rollout matches these filters."}</div>
        )}
        <div className={styles.rspace} style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const entry = rows[item.index];
            if (!entry) return null;
            const isSelected = entry.line === selected;
            const changed = rewardChanged(entry);
            const label = task(entry, inputsOpen);
            return (
              <button
                type="button"
                key={entry.line}
                aria-current={isSelected}
                className={cx(styles.rrow, isSelected && styles.selected)}
                style={{ transform: `translateY(${item.start}px)` }}
                data-line={entry.line}
                data-reward={entry.contract ?? undefined}
                data-unverified-reason={entry.unverified ?? undefined}
                data-server={entry.server ?? undefined}
                data-server-source={entry.server_source}
                // One tab stop for the list: rows are reached with j/k.
                tabIndex={isSelected ? 0 : -1}
                onClick={() => onSelect(entry.line)}
              >
                <span className={cx(styles.cell, styles.cLine)}>{entry.line}</span>
                <span className={cx(styles.cell, styles.cTask)} title={taskTitle(label)} data-task={label}>
                  {shownTask(label, inputsName)}
                </span>
                <span className={cx(styles.cell, styles.cAgent)} title={entry.agent ?? undefined}>
                  {entry.agent ?? "—"}
                </span>
                <span className={cx(styles.cell, styles.cNum)}>{formatReward(entry.recorded)}</span>
                <span
                  className={cx(
                    styles.cell,
                    styles.cNum,
                    changed && styles.rewardChanged,
                    entry.unverified && styles.unverified,
                  )}
                  title={
                    entry.rewards === "pending"
                      ? "computing…"
                      : entry.unverified
                        ? `${UNVERIFIED_LABEL[entry.unverified]}: not recomputed (open the line for why)`
                        : (entry.error ?? (changed ? "differs from the recorded reward" : undefined))
                  }
                  data-rewards={entry.rewards}
                >
                  {entry.rewards === "pending"
                    ? "…"
                    : entry.unverified
                      ? UNVERIFIED_LABEL[entry.unverified]
                      : formatReward(entry.contract)}
                </span>
                <span
                  className={cx(styles.cell, styles.cNum, entry.legacy_unverified && styles.unverified)}
                  data-col="legacy"
                  title={
                    entry.rewards !== "pending" && entry.legacy_unverified
                      ? `${UNVERIFIED_LABEL[entry.legacy_unverified]}: not recomputed under legacy (open the line for why)`
                      : undefined
                  }
                >
                  {entry.rewards === "pending"
                    ? "…"
                    : entry.legacy_unverified
                      ? UNVERIFIED_LABEL[entry.legacy_unverified]
                      : formatReward(entry.legacy)}
                </span>
                <span className={cx(styles.cell, styles.cCount)}>
                  {entry.counts === null ? (
                    "…"
                  ) : (
                    <CountChip highlight="ambiguous" count={entry.counts.ambiguous} />
                  )}
                </span>
                <span className={cx(styles.cell, styles.cCount)}>
                  {entry.counts === null ? (
                    "…"
                  ) : (
                    <CountChip highlight="mismatched" count={entry.counts.mismatched} />
                  )}
                </span>
                <span className={cx(styles.cell, styles.cCount)}>
                  {entry.counts === null ? (
                    "…"
                  ) : (
                    <CountChip highlight="external" count={entry.counts.external} />
                  )}
                </span>
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
});
