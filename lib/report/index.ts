export {
  escapeHtml,
  REPORT_CSP,
  REPORT_MAX_ITEMS,
  REPORT_OUTCOME_CHARS,
  type ReportCall,
  type ReportData,
  type ReportItem,
  type ReportRollout,
  type ReportRun,
  renderReport,
} from "./report";
