/**
 * AnalyticsTool (analytics.py) over processed/analytics_data.csv, plus CompanyDirectoryTool
 * (company_directory.py) over raw/email_addresses.csv. Only create_plot writes a compared table.
 */
import type { Cell, Row } from "../frame";
import { PyException, pyEq, pyLowerMethod, truthy } from "../py";
import {
  applied,
  arg,
  fmt,
  matchingPositions,
  recordOf,
  refused,
  regexContains,
  seriesCompare,
  type ToolDef,
  type WorkplaceState,
} from "./common";

const PLOT_VALUES = [
  "total_visits",
  "session_duration_seconds",
  "user_engaged",
  "visits_direct",
  "visits_referral",
  "visits_search_engine",
  "visits_social_media",
] as const;
const PLOT_TYPES = ["bar", "line", "scatter", "histogram"] as const;

/** `data[data["date_of_visit"] >= time_min]` then `<= time_max` (string comparisons in Python). */
function visitsBetween(state: WorkplaceState, timeMin: unknown, timeMax: unknown): Row[] {
  const date = state.analytics.columnIndex("date_of_visit");
  let rows = state.analytics.rows.slice();
  const keep = (op: ">=" | "<=", bound: unknown) => {
    const mask = seriesCompare(
      rows.map((row) => row[date]),
      op,
      bound,
    );
    rows = rows.filter((_, i) => mask[i]);
  };
  if (truthy(timeMin)) keep(">=", timeMin);
  if (truthy(timeMax)) keep("<=", timeMax);
  return rows;
}

/** `groupby("date_of_visit")` with a per-group reducer; keys come out sorted like pandas'. */
function perDate(state: WorkplaceState, rows: readonly Row[], reduce: (group: readonly Row[]) => number) {
  const date = state.analytics.columnIndex("date_of_visit");
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = String(row[date]);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const out: Record<string, number> = {};
  for (const key of [...groups.keys()].sort()) out[key] = reduce(groups.get(key)!);
  return out;
}

function toFloat(cell: Cell): number {
  const n = typeof cell === "string" ? Number(cell.trim()) : Number(cell);
  if (typeof cell === "string" && (cell.trim() === "" || Number.isNaN(n))) {
    throw new PyException("ValueError", `could not convert string to float: '${cell}'`);
  }
  return n;
}

export const ANALYTICS_TOOLS: readonly ToolDef[] = [
  {
    name: "analytics_engaged_users_count",
    qualname: "AnalyticsTool.engaged_users_count",
    params: [
      ["time_min", null],
      ["time_max", null],
    ],
    mutates: false,
    run(state, args) {
      const rows = visitsBetween(state, arg(args, "time_min"), arg(args, "time_max"));
      const engaged = state.analytics.columnIndex("user_engaged");
      return applied(perDate(state, rows, (g) => g.filter((row) => truthy(row[engaged])).length));
    },
  },
  {
    name: "analytics_get_visitor_information_by_id",
    qualname: "AnalyticsTool.get_visitor_information_by_id",
    params: [["visitor_id", null]],
    mutates: false,
    run(state, args) {
      const visitorId = arg(args, "visitor_id");
      if (!truthy(visitorId)) return refused("Visitor ID not provided.");
      const frame = state.analytics;
      const records = matchingPositions(frame, "visitor_id", visitorId).map((pos) => recordOf(frame, pos));
      return records.length > 0 ? applied(records) : refused("Visitor not found.");
    },
  },
  {
    name: "analytics_create_plot",
    qualname: "AnalyticsTool.create_plot",
    params: [
      ["time_min", null],
      ["time_max", null],
      ["value_to_plot", null],
      ["plot_type", null],
    ],
    mutates: true,
    run(state, args) {
      const timeMin = arg(args, "time_min");
      const timeMax = arg(args, "time_max");
      const value = arg(args, "value_to_plot");
      const plotType = arg(args, "plot_type");
      if (!truthy(timeMin)) return refused("Start date not provided.");
      if (!truthy(timeMax)) return refused("End date not provided.");
      if (!PLOT_VALUES.some((v) => pyEq(v, value))) {
        return refused(`Value to plot must be one of ${PLOT_VALUES.map((v) => `'${v}'`).join(", ")}`);
      }
      // Case-sensitive: "BAR" is refused.
      if (!PLOT_TYPES.some((t) => pyEq(t, plotType))) {
        return refused("Plot type must be one of 'bar', 'line', 'scatter', or 'histogram'");
      }
      const filePath = `plots/${fmt(timeMin)}_${fmt(timeMax)}_${fmt(value)}_${fmt(plotType)}.png`;
      // `_plots_data.loc[len(_plots_data)] = [file_path]`: setting with enlargement, label = current length.
      state.plots.append(Object.freeze([filePath]), state.plots.length);
      return applied(filePath);
    },
  },
  {
    name: "analytics_traffic_source_count",
    qualname: "AnalyticsTool.traffic_source_count",
    params: [
      ["time_min", null],
      ["time_max", null],
      ["traffic_source", null],
    ],
    mutates: false,
    run(state, args) {
      const rows = visitsBetween(state, arg(args, "time_min"), arg(args, "time_max"));
      const source = arg(args, "traffic_source");
      const c = state.analytics.columnIndex("traffic_source");
      if (truthy(source))
        return applied(perDate(state, rows, (g) => g.filter((row) => pyEq(row[c], source)).length));
      return applied(perDate(state, rows, (g) => g.length));
    },
  },
  {
    name: "analytics_total_visits_count",
    qualname: "AnalyticsTool.total_visits_count",
    params: [
      ["time_min", null],
      ["time_max", null],
    ],
    mutates: false,
    run(state, args) {
      const rows = visitsBetween(state, arg(args, "time_min"), arg(args, "time_max"));
      return applied(perDate(state, rows, (g) => g.length));
    },
  },
  {
    name: "analytics_get_average_session_duration",
    qualname: "AnalyticsTool.get_average_session_duration",
    params: [
      ["time_min", null],
      ["time_max", null],
    ],
    mutates: false,
    run(state, args) {
      const rows = visitsBetween(state, arg(args, "time_min"), arg(args, "time_max"));
      const c = state.analytics.columnIndex("session_duration_seconds");
      return applied(
        perDate(state, rows, (g) => g.reduce((sum, row) => sum + toFloat(row[c]), 0) / g.length),
      );
    },
  },
];

export const DIRECTORY_TOOLS: readonly ToolDef[] = [
  {
    name: "company_directory_find_email_address",
    qualname: "CompanyDirectoryTool.find_email_address",
    params: [["name", ""]],
    mutates: false,
    run(state, args) {
      const name = arg(args, "name");
      if (name === "") return refused("Name not provided.");
      const matches = regexContains(pyLowerMethod(name));
      return applied(state.directory.filter((address) => matches(address)));
    },
  },
];
