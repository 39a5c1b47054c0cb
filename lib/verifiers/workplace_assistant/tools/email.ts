/** EmailTool (email.py): search, read, send, delete, forward and reply over processed/emails.csv. */
import { pyLower, pySplitSpace } from "../../pyunicode";
import { newRow, type Row } from "../frame";
import { assertHashable, pyIn, pyInt, pyLowerMethod, truthy } from "../py";
import { type PdTimestamp, pandasTimestamp } from "../timestamp";
import {
  anyFalsy,
  applied,
  arg,
  deleteWhere,
  firstRecord,
  fmt,
  guarded,
  inValues,
  paginate,
  recordOf,
  refused,
  type ToolDef,
  type ToolOutcome,
  type WorkplaceState,
} from "./common";

/** email.py's HARDCODED_CURRENT_TIME, as `str(pd.Timestamp)` prints it. */
export const EMAIL_SENT_DATETIME = "2023-11-30 23:59:00";

/**
 * `f"{subject} {body} {sender}".lower()` per row. Rows are immutable and shared across replays, so the
 * text is cached per row object.
 */
const searchTextCache = new WeakMap<Row, string>();

function searchText(row: Row, subject: number, body: number, sender: number): string {
  let text = searchTextCache.get(row);
  if (text === undefined) {
    text = pyLower(`${fmt(row[subject])} ${fmt(row[body])} ${fmt(row[sender])}`);
    searchTextCache.set(row, text);
  }
  return text;
}

/** The send path shared by send, forward and reply. */
function sendEmail(state: WorkplaceState, recipient: unknown, subject: unknown, body: unknown): ToolOutcome {
  if (anyFalsy(recipient, subject, body)) return refused("Recipient, subject, or body not provided.");
  if (!pyIn("@", recipient) || !pyIn(".", recipient)) return refused("Invalid recipient email address.");
  return guarded("Error sending email", () => {
    const lowered = pyLowerMethod(recipient);
    const emails = state.emails;
    const emailId = emails.length === 0 ? "1" : String(pyInt(emails.objectMax("email_id")) + 1n);
    emails.append(newRow([emailId, "outbox", lowered, subject, EMAIL_SENT_DATETIME, body]), "ignore_index");
    return applied("Email sent successfully.");
  });
}

/** forward/reply pass a send refusal through only when it mentions "Error" or "Invalid". */
function relaySend(outcome: ToolOutcome, success: string): ToolOutcome {
  if (outcome.kind === "refused") {
    if (outcome.message.includes("Error") || outcome.message.includes("Invalid")) return outcome;
    // Gym reports success here although nothing was sent; the no-op is what matters for the state.
    return refused(`${success} (reported by Gym, but the send was refused: ${outcome.message})`);
  }
  return applied(success);
}

export const EMAIL_TOOLS: readonly ToolDef[] = [
  {
    name: "email_get_email_information_by_id",
    qualname: "EmailTool.get_email_information_by_id",
    params: [
      ["email_id", null],
      ["field", null],
    ],
    mutates: false,
    run(state, args) {
      const emailId = arg(args, "email_id");
      const field = arg(args, "field");
      if (!truthy(emailId)) return refused("Email ID not provided.");
      if (!truthy(field)) return refused("Field not provided.");
      return guarded("Error retrieving email information", () => {
        const record = firstRecord(state.emails, "email_id", emailId);
        if (!record) return refused("Email not found.");
        if (typeof field === "string" && Object.hasOwn(record, field))
          return applied({ [field]: record[field] });
        assertHashable(field); // `field in dict` raises TypeError for a list or dict
        return refused(
          `Field '${fmt(field)}' not found. Available fields: ${Object.keys(record).join(", ")}`,
        );
      });
    },
  },
  {
    name: "email_search_emails",
    qualname: "EmailTool.search_emails",
    params: [
      ["query", ""],
      ["date_min", null],
      ["date_max", null],
      ["page", 1n],
      ["page_size", 5n],
    ],
    mutates: false,
    run(state, args) {
      return guarded("Error searching emails", () => {
        const words = pySplitSpace(pyLowerMethod(arg(args, "query")));
        const frame = state.emails;
        const [subject, body, sender, sent] = ["subject", "body", "sender/recipient", "sent_datetime"].map(
          (c) => frame.columnIndex(c),
        ) as [number, number, number, number];
        let found: { pos: number; at: PdTimestamp }[] = [];
        frame.rows.forEach((row, pos) => {
          const text = searchText(row, subject, body, sender);
          if (words.every((w) => text.includes(w))) found.push({ pos, at: pandasTimestamp(row[sent]) });
        });
        // Gym sorts with an unstable quicksort; ties may come out in another order there.
        found.sort((a, b) => b.at.ms - a.at.ms);
        const dateMin = arg(args, "date_min");
        const dateMax = arg(args, "date_max");
        // `[e for e in emails if Timestamp(e).date() >= Timestamp(date_min).date()]`: date_min is parsed once
        // per email, so not at all when there is none; NaT's date compares False.
        if (truthy(dateMin) && found.length > 0) {
          const min = pandasTimestamp(dateMin).day;
          found = found.filter((e) => e.at.day >= min);
        }
        if (truthy(dateMax) && found.length > 0) {
          const max = pandasTimestamp(dateMax).day;
          found = found.filter((e) => e.at.day <= max);
        }
        const pageInfo = paginate(found, arg(args, "page"), arg(args, "page_size"));
        if (found.length === 0) return applied("No emails found.");
        return applied({
          emails: pageInfo.slice().map((e) => recordOf(frame, e.pos)),
          pagination: {
            total_emails: found.length,
            page: pageInfo.page,
            page_size: pageInfo.pageSize,
            total_pages: pageInfo.totalPages,
          },
        });
      });
    },
  },
  {
    name: "email_send_email",
    qualname: "EmailTool.send_email",
    params: [
      ["recipient", null],
      ["subject", null],
      ["body", null],
    ],
    mutates: true,
    run(state, args) {
      return sendEmail(state, arg(args, "recipient"), arg(args, "subject"), arg(args, "body"));
    },
  },
  {
    name: "email_delete_email",
    qualname: "EmailTool.delete_email",
    params: [["email_id", null]],
    mutates: true,
    run(state, args) {
      const emailId = arg(args, "email_id");
      if (!truthy(emailId)) return refused("Email ID not provided.");
      return guarded("Error deleting email", () => {
        if (!inValues(emailId, state.emails, "email_id")) return refused("Email not found.");
        deleteWhere(state.emails, "email_id", emailId);
        return applied("Email deleted successfully.");
      });
    },
  },
  {
    name: "email_forward_email",
    qualname: "EmailTool.forward_email",
    params: [
      ["email_id", null],
      ["recipient", null],
    ],
    mutates: true,
    run(state, args) {
      const emailId = arg(args, "email_id");
      const recipient = arg(args, "recipient");
      if (anyFalsy(emailId, recipient)) return refused("Email ID or recipient not provided.");
      if (!pyIn("@", recipient) || !pyIn(".", recipient)) return refused("Invalid recipient email address.");
      return guarded("Error forwarding email", () => {
        if (!inValues(emailId, state.emails, "email_id")) return refused("Email not found.");
        const lowered = pyLowerMethod(recipient);
        const email = firstRecord(state.emails, "email_id", emailId)!;
        return relaySend(
          sendEmail(state, lowered, `FW: ${fmt(email.subject)}`, email.body),
          "Email forwarded successfully.",
        );
      });
    },
  },
  {
    name: "email_reply_email",
    qualname: "EmailTool.reply_email",
    params: [
      ["email_id", null],
      ["body", null],
    ],
    mutates: true,
    run(state, args) {
      const emailId = arg(args, "email_id");
      const body = arg(args, "body");
      if (anyFalsy(emailId, body)) return refused("Email ID or body not provided.");
      return guarded("Error replying to email", () => {
        if (!inValues(emailId, state.emails, "email_id")) return refused("Email not found.");
        const email = firstRecord(state.emails, "email_id", emailId)!;
        return relaySend(
          sendEmail(state, email["sender/recipient"], `RE: ${fmt(email.subject)}`, body),
          "Email replied successfully.",
        );
      });
    },
  },
];
