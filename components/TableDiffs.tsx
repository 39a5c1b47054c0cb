import { cellText, type WorkplaceDetailsView } from "@/hooks/verifier-details";

/** Rows listed per side before "and N more". */
export const MAX_ROWS_LISTED = 8;

/** The workplace_assistant verifier's table differences: what the replayed calls changed versus the ground truth. */
export function TableDiffs({ details }: { details: WorkplaceDetailsView }) {
  const unequal = details.tables.filter((table) => !table.equal);
  const skipped = details.calls.filter((call) => call.outcome !== "applied");
  return (
    <div className="table-diffs">
      {unequal.length === 0 ? (
        <p className="muted">All {details.tables.length} compared tables match the expected state.</p>
      ) : (
        unequal.map((table) => (
          <div key={table.table} className="table-diff" data-table={table.table}>
            <div className="table-diff-name mono">{table.table}</div>
            {table.differingCells.length > 0 && (
              <table className="diff-cells">
                <thead>
                  <tr>
                    <th>row</th>
                    <th>column</th>
                    <th>predicted</th>
                    <th>expected</th>
                  </tr>
                </thead>
                <tbody>
                  {table.differingCells.slice(0, MAX_ROWS_LISTED).map((cell) => (
                    <tr key={`${cellText(cell.rowKey)}:${cell.column}`}>
                      <td className="mono">{cellText(cell.rowKey)}</td>
                      <td className="mono">{cell.column}</td>
                      <td className="mono diff-predicted">{cellText(cell.predicted)}</td>
                      <td className="mono diff-expected">{cellText(cell.expected)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {table.differingCells.length > MAX_ROWS_LISTED && (
              <p className="muted">
                and {table.differingCells.length - MAX_ROWS_LISTED} more differing cells
              </p>
            )}
            {table.onlyPredicted.length > 0 && (
              <p>
                <span className="diff-predicted">
                  {table.onlyPredicted.length} row(s) only in the predicted state
                </span>
              </p>
            )}
            {table.onlyExpected.length > 0 && (
              <p>
                <span className="diff-expected">
                  {table.onlyExpected.length} row(s) only in the expected state
                </span>
              </p>
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
        <ul className="skipped-calls">
          {skipped.map((call) => (
            <li key={call.index}>
              call #{call.index} <span className="mono">{call.name}</span>: {call.outcome}
              {call.message ? ` — ${call.message}` : ""}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
