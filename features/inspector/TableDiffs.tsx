import { cx } from "@/components/cx";
import type { ListedTableDiff, ListedWorkplaceDetails } from "@/hooks/types";
import { formatCount } from "@/lib/run";
import styles from "./TableDiffs.module.css";

type RowView = ListedTableDiff["onlyPredicted"][number];

/** A table cell as one line of text; missing values (NaN, None) arrive as null. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "∅";
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? String(value);
}

/** Rows present on one side only, with their values (the first lib/verify LISTED_TABLE_ROWS of `total`). */
/** The two sides of a table difference, coloured apart. */
const SIDE_CLASS = { predicted: styles.diffPredicted, expected: styles.diffExpected };

function RowList({
  rows,
  total,
  side,
}: {
  rows: readonly RowView[];
  total: number;
  side: "predicted" | "expected";
}) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row.values)))];
  return (
    <div className="diff-rows" data-side={side}>
      <p>
        <span className={SIDE_CLASS[side]}>
          {formatCount(total)} row{total === 1 ? "" : "s"} only in the {side} state
        </span>
      </p>
      <div className={styles.diffRowsScroll}>
        <table className={cx(styles.diffCells, styles.diffRowTable)}>
          <thead>
            <tr>
              <th>row</th>
              {columns.map((column) => (
                <th key={column}>{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label} className={SIDE_CLASS[side]} data-row={row.label}>
                <td className="mono">{row.label}</td>
                {columns.map((column) => (
                  <td key={column} className="mono">
                    {cellText(row.values[column])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > rows.length && <p className="muted">and {formatCount(total - rows.length)} more rows</p>}
    </div>
  );
}

/** The workplace_assistant verifier's table differences: what the replayed calls changed versus the ground truth. */
export function TableDiffs({ details }: { details: ListedWorkplaceDetails }) {
  const unequal = details.tables.filter((table) => !table.equal);
  const skipped = details.skipped;
  return (
    <div className={styles.tableDiffs}>
      {unequal.length === 0 ? (
        <p className="muted">All {details.tables.length} compared tables match the expected state.</p>
      ) : (
        unequal.map((table) => (
          <div key={table.table} className="table-diff" data-table={table.table}>
            <div className={cx(styles.tableDiffName, "mono")}>{table.table}</div>
            {table.differingCells.length > 0 && (
              <table className={styles.diffCells}>
                <thead>
                  <tr>
                    <th>row</th>
                    <th>column</th>
                    <th>predicted</th>
                    <th>expected</th>
                  </tr>
                </thead>
                <tbody>
                  {table.differingCells.map((cell) => (
                    <tr key={`${cellText(cell.rowKey)}:${cell.column}`}>
                      <td className="mono">{cellText(cell.rowKey)}</td>
                      <td className="mono">{cell.column}</td>
                      <td className={cx("mono", styles.diffPredicted)}>{cellText(cell.predicted)}</td>
                      <td className={cx("mono", styles.diffExpected)}>{cellText(cell.expected)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {table.totals.differingCells > table.differingCells.length && (
              <p className="muted">
                and {formatCount(table.totals.differingCells - table.differingCells.length)} more differing
                cells
              </p>
            )}
            {table.totals.onlyPredicted > 0 && (
              <RowList rows={table.onlyPredicted} total={table.totals.onlyPredicted} side="predicted" />
            )}
            {table.totals.onlyExpected > 0 && (
              <RowList rows={table.onlyExpected} total={table.totals.onlyExpected} side="expected" />
            )}
            {table.notes.map((note) => (
              <p key={note} className="muted">
                {note}
              </p>
            ))}
          </div>
        ))
      )}
      {skipped.length > 0 && (
        <ul className={styles.skippedCalls}>
          {skipped.map((call) => (
            <li key={call.index}>
              call #{call.index} <span className="mono">{call.name}</span>: {call.outcome}
              {call.message ? ` — ${call.message}` : ""}
            </li>
          ))}
        </ul>
      )}
      {details.skippedTotal > skipped.length && (
        <p className="muted" data-testid="skipped-more">
          and {formatCount(details.skippedTotal - skipped.length)} more of the{" "}
          {formatCount(details.callsTotal)} calls did not apply (cli export --what verify lists them all)
        </p>
      )}
    </div>
  );
}
