export {
  escapeHtml,
  REPORT_CSP,
  REPORT_MAX_ITEMS,
  REPORT_OUTCOME_CHARS,
  REPORT_UNREADABLE_MAX,
  type ReportCall,
  type ReportData,
  type ReportItem,
  type ReportRollout,
  type ReportRun,
  renderReport,
  type UnreadableLine,
} from "./report";
