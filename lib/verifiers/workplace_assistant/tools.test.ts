/**
 * Each of the 27 tools: its effect on the tables and its refusals (no-ops). Expected ids come from
 * gym-facts §5 (first new email "500", event "00000300", customer "00000200") or from the shipped CSV.
 */
import { describe, expect, it } from "vitest";
import { baseTables } from "./data/tables";
import type { Frame } from "./frame";
import { isNa } from "./py";
import { freshState, replay, WORKPLACE_TOOL_NAMES } from "./replay";
import { TOOLS_BY_NAME } from "./tools";

type Call = readonly [name: string, args: Record<string, unknown> | string];

function run(...calls: Call[]) {
  return replay(
    calls.map(([name, args]) => ({
      name,
      arguments: typeof args === "string" ? args : JSON.stringify(args),
    })),
  );
}

function rowById(frame: Frame, idColumn: string, id: string): Record<string, unknown> | undefined {
  const c = frame.columnIndex(idColumn);
  const pos = frame.rows.findIndex((row) => row[c] === id);
  if (pos < 0) return undefined;
  return Object.fromEntries(frame.columns.map((name, i) => [name, frame.rows[pos]![i]]));
}

function lastRow(frame: Frame): Record<string, unknown> {
  const row = frame.rows[frame.length - 1]!;
  return Object.fromEntries(frame.columns.map((name, i) => [name, row[i]]));
}

/** The table after a call that must change nothing. */
function expectUnchanged(frame: Frame, base: Frame): void {
  expect(frame.rows).toEqual(base.rows);
  expect(frame.labels).toEqual(base.labels);
}

const base = baseTables();
const EMAIL_57 = rowById(base.emails, "email_id", "00000057")!;

function nextId(frame: Frame, column: string): string {
  const c = frame.columnIndex(column);
  const max = Math.max(...frame.rows.map((row) => Number(row[c])));
  return String(max + 1).padStart(8, "0");
}

describe("tool registry", () => {
  it("has the 27 Gym tools, each name once", () => {
    expect(WORKPLACE_TOOL_NAMES).toHaveLength(27);
    expect(new Set(WORKPLACE_TOOL_NAMES).size).toBe(27);
  });
});

describe("email tools", () => {
  it("send_email appends an outbox row with the unpadded next id and lower-cased recipient", () => {
    const { state, calls } = run([
      "email_send_email",
      { recipient: "Kofi.Mensah@Atlas.com", subject: "Hi", body: "B" },
    ]);
    expect(calls[0]!.outcome).toBe("applied");
    expect(state.emails.length).toBe(base.emails.length + 1);
    expect(lastRow(state.emails)).toEqual({
      email_id: "500",
      "inbox/outbox": "outbox",
      "sender/recipient": "kofi.mensah@atlas.com",
      subject: "Hi",
      sent_datetime: "2023-11-30 23:59:00",
      body: "B",
    });
    expect(state.emails.hasRangeIndex).toBe(true);
  });

  it("send_email numbers a second email after the first ('500' > '00000499' as strings)", () => {
    const { state } = run(
      ["email_send_email", { recipient: "a@b.co", subject: "1", body: "x" }],
      ["email_send_email", { recipient: "a@b.co", subject: "2", body: "x" }],
    );
    expect(lastRow(state.emails).email_id).toBe("501");
  });

  it("send_email refuses missing fields and recipients without '@' or '.'", () => {
    const { state, calls } = run(
      ["email_send_email", { recipient: "a@b.co", subject: "s" }],
      ["email_send_email", { recipient: "ab.co", subject: "s", body: "b" }],
      ["email_send_email", { recipient: "a@bco", subject: "s", body: "b" }],
      ["email_send_email", { recipient: "a@b.co", subject: "", body: "b" }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["refused", "refused", "refused", "refused"]);
    expect(calls[0]!.message).toBe("Recipient, subject, or body not provided.");
    expect(calls[1]!.message).toBe("Invalid recipient email address.");
    expectUnchanged(state.emails, base.emails);
  });

  it("send_email with a numeric recipient raises TypeError outside the tool's try (call skipped)", () => {
    const { state, calls } = run(["email_send_email", { recipient: 5, subject: "s", body: "b" }]);
    expect(calls[0]!.outcome).toBe("error");
    expect(calls[0]!.message).toMatch(/^TypeError: argument of type 'int' is not iterable/);
    expectUnchanged(state.emails, base.emails);
  });

  it("delete_email removes the row and leaves a gap in the index labels", () => {
    const c = base.emails.columnIndex("email_id");
    const pos = base.emails.rows.findIndex((row) => row[c] === "00000010");
    const { state, calls } = run(["email_delete_email", { email_id: "00000010" }]);
    expect(calls[0]!.outcome).toBe("applied");
    expect(rowById(state.emails, "email_id", "00000010")).toBeUndefined();
    expect(state.emails.length).toBe(base.emails.length - 1);
    expect(state.emails.labels).not.toContain(pos);
    expect(state.emails.labels).toContain(pos + 1);
  });

  it("delete_email refuses an unknown or empty id", () => {
    const { state, calls } = run(
      ["email_delete_email", { email_id: "99999999" }],
      ["email_delete_email", {}],
    );
    expect(calls.map((c) => c.message)).toEqual(["Email not found.", "Email ID not provided."]);
    expectUnchanged(state.emails, base.emails);
  });

  it("forward_email sends 'FW: <subject>' with the original body to the lower-cased recipient", () => {
    const { state, calls } = run([
      "email_forward_email",
      { email_id: "00000057", recipient: "Sam@Atlas.com" },
    ]);
    expect(calls[0]!.outcome).toBe("applied");
    const sent = lastRow(state.emails);
    expect(sent["sender/recipient"]).toBe("sam@atlas.com");
    expect(sent.subject).toBe(`FW: ${String(EMAIL_57.subject)}`);
    expect(sent.body).toBe(EMAIL_57.body);
  });

  it("forward_email refuses an unknown email and a bad recipient", () => {
    const { state, calls } = run(
      ["email_forward_email", { email_id: "99999999", recipient: "a@b.co" }],
      ["email_forward_email", { email_id: "00000057", recipient: "nobody" }],
    );
    expect(calls.map((c) => c.message)).toEqual(["Email not found.", "Invalid recipient email address."]);
    expectUnchanged(state.emails, base.emails);
  });

  it("reply_email sends 'RE: <subject>' to the original correspondent", () => {
    const { state } = run(["email_reply_email", { email_id: "00000057", body: "Thanks" }]);
    const sent = lastRow(state.emails);
    expect(sent["sender/recipient"]).toBe(EMAIL_57["sender/recipient"]);
    expect(sent.subject).toBe(`RE: ${String(EMAIL_57.subject)}`);
    expect(sent.body).toBe("Thanks");
    expect(sent.email_id).toBe("500");
  });

  it("reply_email refuses a missing body or unknown email", () => {
    const { state, calls } = run(
      ["email_reply_email", { email_id: "00000057" }],
      ["email_reply_email", { email_id: "12345678", body: "x" }],
    );
    expect(calls.map((c) => c.message)).toEqual(["Email ID or body not provided.", "Email not found."]);
    expectUnchanged(state.emails, base.emails);
  });

  it("get_email_information_by_id reads one field and changes nothing", () => {
    const { state, calls } = run(
      ["email_get_email_information_by_id", { email_id: "00000057", field: "subject" }],
      ["email_get_email_information_by_id", { email_id: "00000057", field: "nope" }],
      ["email_get_email_information_by_id", { email_id: "00000057" }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["applied", "refused", "refused"]);
    expect(calls[1]!.message).toMatch(/^Field 'nope' not found/);
    expectUnchanged(state.emails, base.emails);
  });

  it("search_emails answers reads and turns bad paging into an 'Error searching emails' refusal", () => {
    const { state, calls } = run(
      ["email_search_emails", { query: "budget" }],
      ["email_search_emails", { query: "budget", page_size: 0 }],
      ["email_search_emails", { query: null }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["applied", "refused", "refused"]);
    expect(calls[1]!.message).toMatch(/^Error searching emails: /);
    expectUnchanged(state.emails, base.emails);
  });
});

describe("calendar tools", () => {
  const event = {
    event_name: "Sync",
    participant_email: "A.B@atlas.com",
    event_start: "2023-12-01 10:00:00",
  };

  it("create_event appends id 00000300 under a duplicate index label 0 and stores arguments as given", () => {
    const { state, calls } = run(["calendar_create_event", { ...event, duration: 30 }]);
    expect(calls[0]!.outcome).toBe("applied");
    expect(lastRow(state.calendar)).toEqual({
      event_id: "00000300",
      event_name: "Sync",
      participant_email: "a.b@atlas.com",
      event_start: "2023-12-01 10:00:00",
      duration: 30n,
    });
    expect(state.calendar.label(state.calendar.length - 1)).toBe(0);
    expect(state.calendar.label(0)).toBe(0);
  });

  it("create_event refuses a bad start, a non-numeric or non-positive duration, and missing fields", () => {
    const { state, calls } = run(
      ["calendar_create_event", { ...event, event_start: "not a date", duration: "30" }],
      ["calendar_create_event", { ...event, duration: "thirty" }],
      ["calendar_create_event", { ...event, duration: "-5" }],
      ["calendar_create_event", JSON.stringify({ ...event, duration: "@" }).replace('"@"', "NaN")],
      ["calendar_create_event", { event_name: "x" }],
    );
    expect(calls.map((c) => c.message)).toEqual([
      "Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.",
      "Invalid duration format. Expected a number of minutes.",
      "Duration must be a positive number of minutes.",
      "Invalid duration format. Expected a number of minutes.",
      "Participant email not provided.",
    ]);
    expectUnchanged(state.calendar, base.calendar);
  });

  it("create_event with a list duration raises TypeError (not caught by `except ValueError`)", () => {
    const { state, calls } = run(["calendar_create_event", { ...event, duration: [30] }]);
    expect(calls[0]!.outcome).toBe("error");
    expectUnchanged(state.calendar, base.calendar);
  });

  it("a new row holding an int past float's range raises OverflowError as pandas' DataFrame does", () => {
    // pandas 2.3.3: pd.DataFrame({"c": [2**1024 - 2**970]}) raises "int too large to convert to float";
    // one less builds an object column. An int duration passes int(); the long text fails there first.
    const edge = 2n ** 1024n - 2n ** 970n;
    const withDuration = (literal: string) =>
      `{"event_name": "x", "participant_email": "a@b.co", "event_start": "2023-12-01 10:00:00", "duration": ${literal}}`;
    const { state, calls } = run(
      ["calendar_create_event", withDuration(String(edge))],
      ["calendar_create_event", withDuration(`"30", "event_name": ${-edge}`)],
      ["calendar_create_event", withDuration(`"${"1".repeat(4301)}"`)],
      ["calendar_create_event", withDuration(String(edge - 1n))],
    );
    expect(calls.map((c) => c.message ?? c.outcome)).toEqual([
      "OverflowError: int too large to convert to float",
      "OverflowError: int too large to convert to float",
      "Invalid duration format. Expected a number of minutes.",
      "applied",
    ]);
    expect(lastRow(state.calendar).duration).toBe(edge - 1n);
  });

  it("delete_event removes an 8-digit id and refuses other formats or unknown ids", () => {
    const { state, calls } = run(
      ["calendar_delete_event", { event_id: "13" }],
      ["calendar_delete_event", { event_id: "99999999" }],
      ["calendar_delete_event", { event_id: "00000013" }],
    );
    expect(calls.map((c) => c.message ?? c.outcome)).toEqual([
      "Invalid event ID format. Expected 8-digit ID.",
      "Event not found.",
      "applied",
    ]);
    expect(rowById(state.calendar, "event_id", "00000013")).toBeUndefined();
    expect(state.calendar.labels[0]).toBe(1);
  });

  it("update_event sets the field (lower-casing emails) in place", () => {
    const { state } = run(
      ["calendar_update_event", { event_id: "00000252", field: "event_name", new_value: "Risk Forum" }],
      [
        "calendar_update_event",
        { event_id: "00000252", field: "participant_email", new_value: "X.Y@Atlas.com" },
      ],
    );
    const row = rowById(state.calendar, "event_id", "00000252")!;
    expect(row.event_name).toBe("Risk Forum");
    expect(row.participant_email).toBe("x.y@atlas.com");
    expect(state.calendar.labels).toEqual(base.calendar.labels);
  });

  it("update_event refuses unknown fields, bad values and unknown events", () => {
    const { state, calls } = run(
      ["calendar_update_event", { event_id: "00000252", field: "event_id", new_value: "1" }],
      ["calendar_update_event", { event_id: "00000252", field: "duration", new_value: "0" }],
      ["calendar_update_event", { event_id: "00000252", field: "event_start", new_value: "soon" }],
      ["calendar_update_event", { event_id: "99999999", field: "event_name", new_value: "x" }],
      ["calendar_update_event", { event_id: "00000252", field: "event_name" }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["refused", "refused", "refused", "refused", "refused"]);
    expect(calls[3]!.message).toBe("Event not found.");
    expectUnchanged(state.calendar, base.calendar);
  });

  it("update_event unpacks a one-element list over the one matched row, as .loc does", () => {
    const { state, calls } = run([
      "calendar_update_event",
      { event_id: "00000252", field: "event_name", new_value: ["Listed"] },
    ]);
    expect(calls[0]!.outcome).toBe("applied");
    expect(rowById(state.calendar, "event_id", "00000252")!.event_name).toBe("Listed");
  });

  it("get_event_information_by_id and search_events read without changing anything", () => {
    const { state, calls } = run(
      ["calendar_get_event_information_by_id", { event_id: "00000013", field: "event_name" }],
      ["calendar_get_event_information_by_id", { event_id: "00000013", field: "body" }],
      ["calendar_search_events", { query: "sync", time_min: "2023-11-01 00:00:00" }],
      ["calendar_search_events", { time_min: "whenever" }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["applied", "refused", "applied", "refused"]);
    expectUnchanged(state.calendar, base.calendar);
  });
});

describe("analytics and directory tools", () => {
  const plot = { time_min: "2023-11-01", time_max: "2023-11-30", value_to_plot: "total_visits" };

  it("create_plot appends the file path at label len(df)", () => {
    const { state } = run(
      ["analytics_create_plot", { ...plot, plot_type: "bar" }],
      ["analytics_create_plot", { ...plot, plot_type: "line" }],
    );
    expect(state.plots.rows).toEqual([
      ["plots/2023-11-01_2023-11-30_total_visits_bar.png"],
      ["plots/2023-11-01_2023-11-30_total_visits_line.png"],
    ]);
    expect(state.plots.labels).toEqual([0, 1]);
  });

  it("create_plot refuses case variants of plot_type, unknown values and missing dates", () => {
    const { state, calls } = run(
      ["analytics_create_plot", { ...plot, plot_type: "BAR" }],
      ["analytics_create_plot", { ...plot, value_to_plot: "visits", plot_type: "bar" }],
      ["analytics_create_plot", { time_max: "2023-11-30", value_to_plot: "total_visits", plot_type: "bar" }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["refused", "refused", "refused"]);
    expect(calls[2]!.message).toBe("Start date not provided.");
    expect(state.plots.length).toBe(0);
  });

  it("the read-only analytics tools answer per date and change no compared table", () => {
    const range = { time_min: "2023-11-01", time_max: "2023-11-30" };
    const { state, calls } = run(
      ["analytics_total_visits_count", range],
      ["analytics_engaged_users_count", range],
      ["analytics_traffic_source_count", { ...range, traffic_source: "direct" }],
      ["analytics_get_average_session_duration", range],
      ["analytics_get_visitor_information_by_id", { visitor_id: "0860" }],
      ["analytics_get_visitor_information_by_id", { visitor_id: "nobody" }],
    );
    expect(calls.map((c) => c.outcome)).toEqual([
      "applied",
      "applied",
      "applied",
      "applied",
      "applied",
      "refused",
    ]);
    expect(state.plots.length).toBe(0);
  });

  it("company_directory_find_email_address searches names; an empty name is refused, None raises", () => {
    const { calls } = run(
      ["company_directory_find_email_address", { name: "KOFI" }],
      ["company_directory_find_email_address", { name: "" }],
      ["company_directory_find_email_address", { name: null }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["applied", "refused", "error"]);
  });

  it("analytics totals count the visits of each date in range", () => {
    const date = base.analytics.columnIndex("date_of_visit");
    const visits = base.analytics.rows.filter((row) => row[date] === "2023-11-22").length;
    const outcome = TOOLS_BY_NAME.get("analytics_total_visits_count")!.run(
      freshState(),
      new Map([
        ["time_min", "2023-11-22"],
        ["time_max", "2023-11-22"],
      ]),
    );
    expect(visits).toBeGreaterThan(0);
    expect(outcome).toEqual({ kind: "applied", result: { "2023-11-22": visits } });
  });

  it("the directory lists the matching addresses", () => {
    const outcome = TOOLS_BY_NAME.get("company_directory_find_email_address")!.run(
      freshState(),
      new Map([["name", "Kofi"]]),
    );
    expect(outcome).toEqual({ kind: "applied", result: base.directory.filter((a) => a.includes("kofi")) });
    expect(base.directory.some((a) => a.includes("kofi"))).toBe(true);
  });
});

describe("project management tools", () => {
  const task = {
    task_name: "T",
    assigned_to_email: "Leila.Azizi@atlas.com",
    list_name: "Backlog",
    due_date: "2023-12-05",
    board: "Design",
  };

  it("create_task appends the next zero-padded id with the lower-cased assignee (ignore_index)", () => {
    const { state, calls } = run(["project_management_create_task", task]);
    expect(calls[0]!.outcome).toBe("applied");
    expect(lastRow(state.projectTasks)).toEqual({
      ...task,
      task_id: nextId(base.projectTasks, "task_id"),
      assigned_to_email: "leila.azizi@atlas.com",
    });
    expect(state.projectTasks.hasRangeIndex).toBe(true);
  });

  it("create_task refuses unknown assignees and case variants of list_name and board", () => {
    const { state, calls } = run(
      ["project_management_create_task", { ...task, assigned_to_email: "nobody@atlas.com" }],
      ["project_management_create_task", { ...task, list_name: "backlog" }],
      ["project_management_create_task", { ...task, board: "design" }],
      ["project_management_create_task", { ...task, due_date: "" }],
    );
    expect(calls.map((c) => c.message)).toEqual([
      "Assignee email not valid. Please choose from the list of team members.",
      "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'.",
      "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'.",
      "Missing task details.",
    ]);
    expectUnchanged(state.projectTasks, base.projectTasks);
  });

  it("delete_task removes the task; unknown ids are refused", () => {
    const { state, calls } = run(
      ["project_management_delete_task", { task_id: "00000149" }],
      ["project_management_delete_task", { task_id: "00000149" }],
    );
    expect(calls.map((c) => c.message ?? c.outcome)).toEqual(["applied", "Task not found."]);
    expect(rowById(state.projectTasks, "task_id", "00000149")).toBeUndefined();
    expect(state.projectTasks.labels[0]).toBe(1);
  });

  it("update_task validates board, list and assignee, and allows any existing column", () => {
    const { state, calls } = run(
      ["project_management_update_task", { task_id: "00000149", field: "board", new_value: "back end" }],
      ["project_management_update_task", { task_id: "00000149", field: "list_name", new_value: "Done" }],
      [
        "project_management_update_task",
        { task_id: "00000149", field: "assigned_to_email", new_value: "x@y.co" },
      ],
      ["project_management_update_task", { task_id: "00000149", field: "owner", new_value: "x" }],
      ["project_management_update_task", { task_id: "00000149", field: "list_name", new_value: "Completed" }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["refused", "refused", "refused", "refused", "applied"]);
    expect(calls[3]!.message).toBe("Field not valid.");
    expect(rowById(state.projectTasks, "task_id", "00000149")!.list_name).toBe("Completed");
  });

  it("get_task_information_by_id and search_tasks read without changing anything", () => {
    const { state, calls } = run(
      ["project_management_get_task_information_by_id", { task_id: "00000149", field: "board" }],
      ["project_management_get_task_information_by_id", { task_id: "00000149", field: "nope" }],
      ["project_management_search_tasks", { board: "design" }],
      ["project_management_search_tasks", {}],
      ["project_management_search_tasks", { assigned_to_email: "not-an-email" }],
      // Python's re.match(r"...$") accepts one final newline (the search then finds nothing), not two.
      ["project_management_search_tasks", { assigned_to_email: "raj.patel@atlas.com\n" }],
      ["project_management_search_tasks", { assigned_to_email: "raj.patel@atlas.com\n\n" }],
    );
    expect(calls.map((c) => c.outcome)).toEqual([
      "applied",
      "refused",
      "applied",
      "refused",
      "refused",
      "applied",
      "refused",
    ]);
    expectUnchanged(state.projectTasks, base.projectTasks);
  });
});

describe("customer relationship manager tools", () => {
  it("add_customer appends id 00000200 with None for omitted fields, '' notes, and unchecked status", () => {
    const { state, calls } = run([
      "customer_relationship_manager_add_customer",
      {
        customer_name: "X Y",
        assigned_to_email: "Raj.Patel@atlas.com",
        status: "whatever",
        customer_email: "X@Y.com",
      },
    ]);
    expect(calls[0]!.outcome).toBe("applied");
    const row = lastRow(state.crm);
    expect(row).toEqual({
      customer_id: "00000200",
      assigned_to_email: "raj.patel@atlas.com",
      customer_name: "X Y",
      customer_email: "x@y.com",
      customer_phone: null,
      last_contact_date: null,
      product_interest: null,
      status: "whatever",
      follow_up_by: null,
      notes: "",
    });
  });

  it("add_customer refuses when a required field is missing", () => {
    const { state, calls } = run([
      "customer_relationship_manager_add_customer",
      { customer_name: "X", assigned_to_email: "raj.patel@atlas.com" },
    ]);
    expect(calls[0]!.message).toBe(
      "Please provide all required fields: customer_name, assigned_to_email, status.",
    );
    expectUnchanged(state.crm, base.crm);
  });

  it("update_customer sets a field, lower-casing email fields", () => {
    const { state } = run(
      [
        "customer_relationship_manager_update_customer",
        { customer_id: "00000095", field: "assigned_to_email", new_value: "Raj.Patel@Atlas.com" },
      ],
      [
        "customer_relationship_manager_update_customer",
        { customer_id: "00000095", field: "status", new_value: "Won" },
      ],
    );
    const row = rowById(state.crm, "customer_id", "00000095")!;
    expect(row.assigned_to_email).toBe("raj.patel@atlas.com");
    expect(row.status).toBe("Won");
  });

  it("update_customer refuses invalid status/product values (case-sensitive), fields and ids", () => {
    const { state, calls } = run(
      [
        "customer_relationship_manager_update_customer",
        { customer_id: "00000095", field: "status", new_value: "won" },
      ],
      [
        "customer_relationship_manager_update_customer",
        { customer_id: "00000095", field: "product_interest", new_value: "Food" },
      ],
      [
        "customer_relationship_manager_update_customer",
        { customer_id: "00000095", field: "vip", new_value: "yes" },
      ],
      [
        "customer_relationship_manager_update_customer",
        { customer_id: "99999999", field: "notes", new_value: "x" },
      ],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["refused", "refused", "refused", "refused"]);
    expect(calls[3]!.message).toBe("Customer not found.");
    expectUnchanged(state.crm, base.crm);
  });

  it("delete_customer removes the row (index gap); unknown ids are refused", () => {
    const { state, calls } = run(
      ["customer_relationship_manager_delete_customer", { customer_id: "00000189" }],
      ["customer_relationship_manager_delete_customer", { customer_id: "00000189" }],
    );
    expect(calls.map((c) => c.message ?? c.outcome)).toEqual(["applied", "Customer not found."]);
    expect(state.crm.labels[0]).toBe(1);
  });

  it("search_customers needs a filter and reads without changing anything", () => {
    const { state, calls } = run(
      ["customer_relationship_manager_search_customers", { status: "Lost" }],
      ["customer_relationship_manager_search_customers", {}],
      ["customer_relationship_manager_search_customers", { follow_up_by_min: "2023-12-20" }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["applied", "refused", "applied"]);
    expectUnchanged(state.crm, base.crm);
  });
});

describe("Python call semantics", () => {
  it("an unexpected keyword raises TypeError and skips the call", () => {
    const { state, calls } = run(["email_reply_email", { email_id: "00000057", body: "x", cc: "a@b.co" }]);
    expect(calls[0]).toMatchObject({
      outcome: "error",
      message: "TypeError: EmailTool.reply_email() got an unexpected keyword argument 'cc'",
    });
    expectUnchanged(state.emails, base.emails);
  });

  it("arguments that are not a JSON object are skipped", () => {
    const { calls } = run(
      ["email_reply_email", "null"],
      ["email_reply_email", "[1]"],
      ["email_reply_email", "{not json"],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["error", "error", "error"]);
    expect(calls[0]!.message).toMatch(/argument after \*\* must be a mapping, not NoneType/);
    expect(calls[2]!.message).toMatch(/^JSONDecodeError/);
  });

  it("None arguments are passed through, not dropped (the directory's name=None raises)", () => {
    const { calls } = run(["company_directory_find_email_address", { name: null }]);
    expect(calls[0]!.message).toMatch(/^AttributeError: 'NoneType' object has no attribute 'lower'/);
  });

  it("json.loads leniency: NaN is accepted and duplicate keys resolve last-wins", () => {
    const { state, calls } = run(
      ["email_reply_email", '{"email_id": "00000001", "email_id": "00000057", "body": "x"}'],
      [
        "calendar_create_event",
        '{"event_name": "a", "participant_email": "a@b.co", "event_start": "2023-12-01", "duration": NaN}',
      ],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["applied", "refused"]);
    expect(lastRow(state.emails)["sender/recipient"]).toBe(EMAIL_57["sender/recipient"]);
  });

  it("list ids follow numpy/pandas: one element matches then fails the row compare; other lengths fail", () => {
    const { state, calls } = run(
      ["customer_relationship_manager_delete_customer", { customer_id: ["00000189"] }],
      ["customer_relationship_manager_delete_customer", { customer_id: ["a", "b"] }],
      ["email_delete_email", { email_id: ["00000057"] }],
    );
    expect(calls.map((c) => c.outcome)).toEqual(["error", "error", "refused"]);
    expect(calls[0]!.message).toMatch(/^ValueError: \('Lengths must match to compare'/);
    expect(calls[2]!.message).toMatch(/^Error deleting email: /);
    expectUnchanged(state.crm, base.crm);
    expectUnchanged(state.emails, base.emails);
  });

  it("a dict new_value is aligned on the index by .loc, leaving NaN", () => {
    const { state, calls } = run([
      "calendar_update_event",
      { event_id: "00000252", field: "event_name", new_value: { name: "x" } },
    ]);
    expect(calls[0]!.outcome).toBe("applied");
    expect(isNa(rowById(state.calendar, "event_id", "00000252")!.event_name)).toBe(true);
  });

  it("a non-string new_value is stored as given; blank CSV cells load as NaN", () => {
    const { state } = run([
      "customer_relationship_manager_update_customer",
      { customer_id: "00000095", field: "notes", new_value: 12 },
    ]);
    expect(rowById(state.crm, "customer_id", "00000095")!.notes).toBe(12n);
    const phone = rowById(base.crm, "customer_id", "00000189")!.customer_phone;
    expect(isNa(phone)).toBe(true);
  });
});
