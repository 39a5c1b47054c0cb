/** CalendarTool (calendar.py) over processed/calendar_events.csv. */
import { newRow } from "../frame";
import { PyException, pyEq, pyInt, pyIsDigit, pyLen, pyLowerMethod, pyZfill, truthy } from "../py";
import { compareTimestamps, type PdTimestamp, pandasTimestamp, sortNewestFirst } from "../timestamp";
import {
  anyFalsy,
  applied,
  arg,
  deleteWhere,
  firstRecord,
  inValues,
  locSet,
  paginate,
  recordOf,
  refused,
  regexContains,
  type ToolDef,
  type ToolOutcome,
} from "./common";

const ID_WIDTH = 8;
const INFO_FIELDS = ["event_id", "event_name", "participant_email", "event_start", "duration"] as const;
const UPDATE_FIELDS = ["event_name", "participant_email", "event_start", "duration"] as const;

function isEventIdFormat(id: unknown): boolean {
  return typeof id === "string" && pyLen(id) === ID_WIDTH && pyIsDigit(id);
}

const BAD_ID = "Invalid event ID format. Expected 8-digit ID.";

/**
 * `try: pd.Timestamp(v) except ValueError: return msg`: a ValueError becomes the refusal; any other
 * exception (TypeError for a list, say) escapes and skips the call.
 */
function checkTimestamp(value: unknown, message: string): ToolOutcome | undefined {
  try {
    pandasTimestamp(value);
    return undefined;
  } catch (error) {
    if (error instanceof PyException && error.pyType === "ValueError") return refused(message);
    throw error;
  }
}

/** `try: int(v) <= 0 ... except ValueError`: same split as checkTimestamp. */
function checkDuration(value: unknown): ToolOutcome | undefined {
  let minutes: bigint;
  try {
    minutes = pyInt(value);
  } catch (error) {
    if (error instanceof PyException && error.pyType === "ValueError") {
      return refused("Invalid duration format. Expected a number of minutes.");
    }
    throw error;
  }
  return minutes <= 0n ? refused("Duration must be a positive number of minutes.") : undefined;
}

export const CALENDAR_TOOLS: readonly ToolDef[] = [
  {
    name: "calendar_get_event_information_by_id",
    qualname: "CalendarTool.get_event_information_by_id",
    params: [
      ["event_id", null],
      ["field", null],
    ],
    mutates: false,
    run(state, args) {
      const eventId = arg(args, "event_id");
      const field = arg(args, "field");
      if (!truthy(eventId)) return refused("Event ID not provided.");
      if (!truthy(field)) return refused("Field not provided.");
      if (!isEventIdFormat(eventId)) return refused(BAD_ID);
      if (!INFO_FIELDS.some((f) => pyEq(f, field))) {
        return refused(`Invalid field. Available fields are: ${INFO_FIELDS.join(", ")}`);
      }
      const record = firstRecord(state.calendar, "event_id", eventId);
      if (!record) return refused("Event not found.");
      return applied({ [String(field)]: record[String(field)] });
    },
  },
  {
    name: "calendar_search_events",
    qualname: "CalendarTool.search_events",
    params: [
      ["query", ""],
      ["time_min", null],
      ["time_max", null],
      ["page", 1n],
      ["page_size", 5n],
    ],
    mutates: false,
    run(state, args) {
      const timeMinArg = arg(args, "time_min");
      const timeMaxArg = arg(args, "time_max");
      let timeMin: PdTimestamp | undefined;
      let timeMax: PdTimestamp | undefined;
      if (truthy(timeMinArg)) {
        const bad = checkTimestamp(timeMinArg, "Invalid time_min format. Expected YYYY-MM-DD HH:MM:SS.");
        if (bad) return bad;
        timeMin = pandasTimestamp(timeMinArg);
      }
      if (truthy(timeMaxArg)) {
        const bad = checkTimestamp(timeMaxArg, "Invalid time_max format. Expected YYYY-MM-DD HH:MM:SS.");
        if (bad) return bad;
        timeMax = pandasTimestamp(timeMaxArg);
      }
      const frame = state.calendar;
      const matches = regexContains(arg(args, "query"));
      const name = frame.columnIndex("event_name");
      const email = frame.columnIndex("participant_email");
      const start = frame.columnIndex("event_start");
      let events = frame.rows
        .map((row, pos) => ({ row, pos }))
        .filter(({ row }) => matches(row[name]) || matches(row[email]))
        .map(({ row, pos }) => ({ pos, at: pandasTimestamp(row[start]) }));
      // `pd.Timestamp(start) >= time_min`: False against NaT, TypeError between naive and aware.
      if (timeMin !== undefined) events = events.filter((e) => compareTimestamps(e.at, timeMin) >= 0);
      if (timeMax !== undefined) events = events.filter((e) => compareTimestamps(e.at, timeMax) <= 0);
      if (events.length === 0) return applied("No events found.");
      sortNewestFirst(events, (e) => e.at);
      const pageInfo = paginate(events, arg(args, "page"), arg(args, "page_size"));
      return applied({
        events: pageInfo.slice().map((e) => recordOf(frame, e.pos)),
        pagination: {
          total_events: events.length,
          page: pageInfo.page,
          page_size: pageInfo.pageSize,
          total_pages: pageInfo.totalPages,
        },
      });
    },
  },
  {
    name: "calendar_create_event",
    qualname: "CalendarTool.create_event",
    params: [
      ["event_name", null],
      ["participant_email", null],
      ["event_start", null],
      ["duration", null],
    ],
    mutates: true,
    run(state, args) {
      const eventName = arg(args, "event_name");
      const participant = arg(args, "participant_email");
      const eventStart = arg(args, "event_start");
      const duration = arg(args, "duration");
      if (!truthy(eventName)) return refused("Event name not provided.");
      if (!truthy(participant)) return refused("Participant email not provided.");
      if (!truthy(eventStart)) return refused("Event start not provided.");
      if (!truthy(duration)) return refused("Event duration not provided.");
      const badStart = checkTimestamp(
        eventStart,
        "Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.",
      );
      if (badStart) return badStart;
      const badDuration = checkDuration(duration);
      if (badDuration) return badDuration;
      const email = pyLowerMethod(participant);
      const frame = state.calendar;
      const eventId = pyZfill(String(pyInt(frame.objectMax("event_id")) + 1n), ID_WIDTH);
      // pd.concat without ignore_index: the new row keeps its own label 0, duplicating the first row's.
      // The arguments are stored as given, so an int duration stays an int (and later lower-cases to NaN).
      frame.append(newRow([eventId, eventName, email, eventStart, duration]), "keep_index");
      return applied(eventId);
    },
  },
  {
    name: "calendar_delete_event",
    qualname: "CalendarTool.delete_event",
    params: [["event_id", null]],
    mutates: true,
    run(state, args) {
      const eventId = arg(args, "event_id");
      if (!truthy(eventId)) return refused("Event ID not provided.");
      if (!isEventIdFormat(eventId)) return refused(BAD_ID);
      if (!inValues(eventId, state.calendar, "event_id")) return refused("Event not found.");
      deleteWhere(state.calendar, "event_id", eventId);
      return applied("Event deleted successfully.");
    },
  },
  {
    name: "calendar_update_event",
    qualname: "CalendarTool.update_event",
    params: [
      ["event_id", null],
      ["field", null],
      ["new_value", null],
    ],
    mutates: true,
    run(state, args) {
      const eventId = arg(args, "event_id");
      const field = arg(args, "field");
      let newValue = arg(args, "new_value");
      if (anyFalsy(eventId, field, newValue)) return refused("Event ID, field, or new value not provided.");
      if (!isEventIdFormat(eventId)) return refused(BAD_ID);
      if (typeof field !== "string" || !(UPDATE_FIELDS as readonly string[]).includes(field)) {
        return refused(`Invalid field. Available fields are: ${UPDATE_FIELDS.join(", ")}`);
      }
      if (field === "event_start") {
        const bad = checkTimestamp(newValue, "Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.");
        if (bad) return bad;
      } else if (field === "duration") {
        const bad = checkDuration(newValue);
        if (bad) return bad;
      }
      if (!inValues(eventId, state.calendar, "event_id")) return refused("Event not found.");
      if (field === "participant_email") newValue = pyLowerMethod(newValue);
      locSet(state.calendar, "event_id", eventId, field, newValue);
      return applied("Event updated successfully.");
    },
  },
];
