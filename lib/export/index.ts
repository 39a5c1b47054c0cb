export { csvHeader, csvRow, jsonlRow, rowsCsv, rowsJsonl } from "./csv";
export {
  concatBytes,
  type EditResult,
  editTopLevel,
  formatNumberLike,
  rawValueOf,
  serializeValue,
  type TopLevelEdit,
} from "./edit";
export {
  contentRange,
  MAX_EXPORT_LINE_BYTES,
  readSourceLines,
  type SourceLine,
  splitSourceLines,
} from "./lines";
export {
  emptyRepairSummary,
  formatRepairSummary,
  type RepairLineReport,
  type RepairSummary,
  repairJsonl,
  repairOperation,
} from "./repair";
export { type MemberSpan, type ObjectSpans, type ScanResult, scanObjectLine } from "./spans";
export { KEEP, type LineOperation, type WrittenLine, writeJsonl, writeJsonlSync, writeLine } from "./write";
