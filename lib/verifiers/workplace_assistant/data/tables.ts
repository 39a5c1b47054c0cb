/**
 * The workplace tables as Gym's tools load them, parsed once per process (lazily) from the generated module
 * of raw CSV text. Each replay forks these base frames, which costs O(1) (see Frame.fork).
 */
import Papa from "papaparse";
import { Frame, type Row } from "../frame";
import {
  ANALYTICS_DATA_CSV,
  CALENDAR_EVENTS_CSV,
  CUSTOMER_RELATIONSHIP_MANAGER_DATA_CSV,
  EMAIL_ADDRESSES_CSV,
  EMAILS_CSV,
  PROJECT_TASKS_CSV,
} from "./csv-data.generated";

/** pandas.read_csv's default na_values (keep_default_na=True): these cells load as NaN even with dtype=str. */
const PANDAS_DEFAULT_NA = new Set([
  "",
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "None",
  "n/a",
  "nan",
  "null",
]);

export interface BaseTables {
  readonly emails: Frame;
  readonly calendar: Frame;
  readonly analytics: Frame;
  readonly projectTasks: Frame;
  readonly crm: Frame;
  /** raw/email_addresses.csv (company_directory), read with header=None. */
  readonly directory: readonly string[];
}

/** `pd.read_csv(text, dtype=str)`: every cell a string, default NA tokens as NaN. */
export function readCsvAsStrings(text: string, header: boolean): { columns: string[]; rows: Row[] } {
  const parsed = Papa.parse<string[]>(text, { delimiter: ",", header: false, skipEmptyLines: "greedy" });
  if (parsed.errors.length > 0) {
    const first = parsed.errors[0]!;
    throw new Error(`workplace CSV data: ${first.message} (row ${first.row ?? "?"})`);
  }
  const records = parsed.data;
  const columns = header ? (records[0] ?? []) : [];
  const body = header ? records.slice(1) : records;
  const rows = body.map((record) =>
    Object.freeze(record.map((cell) => (PANDAS_DEFAULT_NA.has(cell) ? Number.NaN : cell))),
  );
  return { columns, rows };
}

function frameOf(text: string): Frame {
  const { columns, rows } = readCsvAsStrings(text, true);
  return Frame.fromRows(Object.freeze(columns), rows);
}

let base: BaseTables | undefined;

/** The initial state of every table; parsed on first use and shared (never written). */
export function baseTables(): BaseTables {
  if (!base) {
    const directory = readCsvAsStrings(EMAIL_ADDRESSES_CSV, false).rows.map((row) => String(row[0]));
    const analytics = frameOf(ANALYTICS_DATA_CSV);
    // analytics.py converts user_engaged to bool at load time.
    const engaged = analytics.columnIndex("user_engaged");
    const analyticsRows = analytics.rows.map((row) => {
      const copy = row.slice();
      copy[engaged] = row[engaged] === "True";
      return Object.freeze(copy);
    });
    base = {
      emails: frameOf(EMAILS_CSV),
      calendar: frameOf(CALENDAR_EVENTS_CSV),
      analytics: Frame.fromRows(analytics.columns, analyticsRows),
      projectTasks: frameOf(PROJECT_TASKS_CSV),
      crm: frameOf(CUSTOMER_RELATIONSHIP_MANAGER_DATA_CSV),
      directory,
    };
  }
  return base;
}
