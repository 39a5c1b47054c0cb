/**
 * Run rows as CSV (RFC 4180, through papaparse) and as JSONL: the filtered list's export, written the same
 * way by the CLI and the browser so both downloads are the same bytes for the same filter.
 *
 * Cells that a spreadsheet would run as a formula are escaped (lib/csv csvLine): model text ends up in them.
 * Numbers are written as numbers; null is an empty cell; flags are joined by spaces.
 */
import Papa from "papaparse";
import { csvLine } from "../csv";
import { RUN_ROW_COLUMNS, type RunRow } from "../run/row";

function cell(value: RunRow[(typeof RUN_ROW_COLUMNS)[number]]): string | number {
  if (value === null) return "";
  if (Array.isArray(value)) return value.join(" ");
  return typeof value === "number" ? value : String(value);
}

/**
 * The header line, ending in CRLF (RFC 4180 line breaks, as papaparse writes them). Rows of an opened
 * folder (`withFile`) start with a `file` column: the rollouts file's path relative to the folder.
 */
export function csvHeader(withFile = false): string {
  return `${Papa.unparse([[...(withFile ? ["file"] : []), ...RUN_ROW_COLUMNS]])}\r\n`;
}

/** One row's CSV line, ending in CRLF; `file` first when the row came from a folder. */
export function csvRow(row: RunRow, file?: string): string {
  const cells = RUN_ROW_COLUMNS.map((column) => cell(row[column]));
  return csvLine(file === undefined ? cells : [file, ...cells]);
}

export function rowsCsv(rows: Iterable<RunRow>): string {
  let out = csvHeader();
  for (const row of rows) out += csvRow(row);
  return out;
}

/** One row as a JSONL line, keys in column order (`file` first when the row came from a folder). */
export function jsonlRow(row: RunRow, file?: string): string {
  const ordered: Record<string, unknown> = file === undefined ? {} : { file };
  for (const column of RUN_ROW_COLUMNS) ordered[column] = row[column];
  // A list of records has no CSV cell; a JSONL row keeps it, last.
  ordered.recorded_fields = row.recorded_fields;
  return `${JSON.stringify(ordered)}\n`;
}

export function rowsJsonl(rows: Iterable<RunRow>): string {
  let out = "";
  for (const row of rows) out += jsonlRow(row);
  return out;
}
