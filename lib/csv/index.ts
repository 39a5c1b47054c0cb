/**
 * CSV lines as every export of this project writes them (RFC 4180 through papaparse, CRLF line breaks), with
 * text cells a spreadsheet would run as a formula escaped: model text ends up in these cells. Its own folder,
 * below every one that writes CSV (lib/export's rows, lib/compare's pairs), so none imports another's.
 */
import Papa from "papaparse";

/**
 * What a spreadsheet runs as a formula at the start of a text cell (=, +, -, @, tab, CR): escaped with a
 * leading quote mark. Given explicitly: papaparse's default pattern ends in `.*$` without the s flag, so a
 * multi-line cell starting with "=" slips through.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV line of cells, ending in CRLF; null is an empty cell, numbers are written as numbers. */
export function csvLine(cells: readonly (string | number | null)[]): string {
  const written = cells.map((value) => (value === null ? "" : value));
  return `${Papa.unparse([written], { escapeFormulae: FORMULA_START })}\r\n`;
}
