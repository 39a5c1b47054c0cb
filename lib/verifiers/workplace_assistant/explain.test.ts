/** What a 0 says: table differences, errored calls, unknown names with their alias hint; the verifier's edges. */
import { describe, expect, it } from "vitest";
import { aliasFor } from "../../harness";
import { framesEqual, GymCompareError } from "./compare";
import { baseTables } from "./data/tables";
import { Frame } from "./frame";
import { isCorrect, workplaceAssistantVerifier } from "./index";

const REPLY = {
  name: "email_reply_email",
  arguments: JSON.stringify({ email_id: "00000057", body: "Thanks for the update" }),
};
const UPDATE_95 = {
  name: "customer_relationship_manager_update_customer",
  arguments: JSON.stringify({ customer_id: "00000095", field: "status", new_value: "Won" }),
};

function call(name: string, args: Record<string, unknown>) {
  return { name, arguments: JSON.stringify(args) };
}

describe("isCorrect explanations", () => {
  it("a 1 says the tables match", () => {
    const result = isCorrect([REPLY], [REPLY]);
    expect(result.correct).toBe(true);
    expect(result.explanation[0]).toMatch(/All 5 compared tables match/);
    expect(result.details.tables.every((t) => t.equal)).toBe(true);
  });

  it("a missing reply shows the row only in the expected state", () => {
    const result = isCorrect([], [REPLY]);
    expect(result.correct).toBe(false);
    const emails = result.details.tables.find((t) => t.table === "emails")!;
    expect(emails.equal).toBe(false);
    expect(emails.onlyPredicted).toEqual([]);
    expect(emails.onlyExpected).toHaveLength(1);
    expect(emails.onlyExpected[0]!.values.email_id).toBe("500");
    expect(emails.onlyExpected[0]!.values.subject).toMatch(/^RE: /);
    expect(result.explanation.join("\n")).toMatch(/emails: 1 row\(s\) only in the expected state/);
  });

  it("an extra create shows the row only in the predicted state", () => {
    const create = call("calendar_create_event", {
      event_name: "Sync",
      participant_email: "a@b.co",
      event_start: "2023-12-01 10:00:00",
      duration: "30",
    });
    const result = isCorrect([create], []);
    const calendar = result.details.tables.find((t) => t.table === "calendar_events")!;
    expect(calendar.onlyPredicted).toHaveLength(1);
    expect(calendar.onlyPredicted[0]).toMatchObject({ label: 0, values: { event_id: "00000300" } });
    expect(result.explanation.join("\n")).toMatch(/calendar_events: 1 row\(s\) only in the predicted state/);
  });

  it("a wrong value is a differing cell, compared case-sensitively for status", () => {
    const wrong = call("customer_relationship_manager_update_customer", {
      customer_id: "00000095",
      field: "status",
      new_value: "Lost",
    });
    const result = isCorrect([wrong], [UPDATE_95]);
    const crm = result.details.tables.find((t) => t.table === "crm_data")!;
    expect(crm.differingCells).toEqual([
      expect.objectContaining({ rowKey: "00000095", column: "status", predicted: "Lost", expected: "Won" }),
    ]);
    expect(result.explanation.join("\n")).toMatch(/00000095\.status: predicted "Lost", expected "Won"/);
  });

  it("an int duration lower-cases to NaN and differs from the string '30'", () => {
    const base = { event_name: "Sync", participant_email: "a@b.co", event_start: "2023-12-01 10:00:00" };
    const result = isCorrect(
      [call("calendar_create_event", { ...base, duration: 30 })],
      [call("calendar_create_event", { ...base, duration: "30" })],
    );
    expect(result.correct).toBe(false);
    const calendar = result.details.tables.find((t) => t.table === "calendar_events")!;
    expect(calendar.differingCells).toEqual([
      expect.objectContaining({ column: "duration", predicted: null, expected: "30" }),
    ]);
  });

  it("omitted optional fields (None) equal missing CSV cells (NaN)", () => {
    const add = { customer_name: "X", assigned_to_email: "raj.patel@atlas.com", status: "Lead" };
    const withNaN = {
      name: "customer_relationship_manager_add_customer",
      arguments: JSON.stringify({ ...add, customer_phone: "@" }).replace('"@"', "NaN"),
    };
    expect(isCorrect([withNaN], [call("customer_relationship_manager_add_customer", add)]).correct).toBe(
      true,
    );
  });

  it("the order of a send and a delete changes index labels, and the note says so", () => {
    const send = call("email_send_email", { recipient: "a.b@atlas.com", subject: "Hi", body: "x" });
    const del = call("email_delete_email", { email_id: "00000010" });
    const result = isCorrect([send, del], [del, send]);
    expect(result.correct).toBe(false);
    const emails = result.details.tables.find((t) => t.table === "emails")!;
    expect(emails.onlyPredicted).toEqual([]);
    expect(emails.onlyExpected).toEqual([]);
    expect(emails.differingCells).toEqual([]);
    expect(emails.notes.join("\n")).toMatch(/different pandas index labels/);
  });

  it("lists errored calls with the reason", () => {
    const bad = {
      name: "email_reply_email",
      arguments: '{"email_id": "00000057", "body": "x", "cc": "a@b.co"}',
    };
    const result = isCorrect([bad], [REPLY]);
    expect(result.details.calls[0]).toMatchObject({ index: 0, outcome: "error" });
    expect(result.explanation.join("\n")).toMatch(
      /Predicted call #0 \(email_reply_email\) raised and was skipped: TypeError: .*unexpected keyword argument 'cc'/,
    );
  });

  it("lists refused mutating calls as no-ops", () => {
    const result = isCorrect([call("email_delete_email", { email_id: "99999999" })], [REPLY]);
    expect(result.details.calls[0]).toMatchObject({ outcome: "refused", message: "Email not found." });
    expect(result.explanation.join("\n")).toMatch(
      /was refused by the tool and changed nothing: Email not found\./,
    );
  });

  it.each([
    ["mcp__workplace_assistant__email_reply_email", "claude-code"],
    ["mcp_workplace_assistant_email_reply_email", "hermes-legacy"],
    ["workplace_assistant__email_reply_email", "openclaw"],
  ] as const)("an unknown name %s gets an alias hint for email_reply_email (%s)", (name, harness) => {
    const result = isCorrect([{ ...REPLY, name }], [REPLY]);
    expect(result.correct).toBe(false);
    expect(result.details.calls[0]).toMatchObject({
      outcome: "unknown_name",
      message: `KeyError: '${name}'`,
      aliasHint: { tool: "email_reply_email", harnesses: expect.arrayContaining([harness]) },
    });
    const text = result.explanation.join("\n");
    expect(text).toContain(`Predicted call #0 (${name}): not a workplace_assistant tool, so Gym skipped it`);
    expect(text).toContain('alias of the workplace_assistant tool "email_reply_email"');
    expect(text).toMatch(/mcp_tool_call_provenance .*canonicalizing its name to "email_reply_email"/);
  });

  it.each(["hermes", "openclaw", "codex", "gemini-cli"] as const)(
    "a truncated or hashed %s alias is recognized through the harness alias map",
    (harness) => {
      const tool = "customer_relationship_manager_update_customer";
      const name = aliasFor(harness, "workplace_assistant", tool);
      expect(name).not.toContain(tool);
      const result = isCorrect([{ ...UPDATE_95, name }], [UPDATE_95]);
      expect(result.details.calls[0]!.aliasHint).toMatchObject({
        tool,
        harnesses: expect.arrayContaining([harness]),
      });
    },
  );

  it("names the harnesses that emit an alias with each harness's eras side by side", () => {
    const result = isCorrect([{ ...REPLY, name: "mcp_workplace_assistant_email_reply_email" }], [REPLY]);
    expect(result.details.calls[0]!.aliasHint?.harnesses).toEqual([
      "hermes-legacy",
      "hermes-a",
      "gemini-cli",
    ]);
    expect(result.explanation.join("\n")).toContain(
      "It is the Hermes (Gym pin, era B), Hermes (era A, 2026-03), Gemini CLI (v0.34+) alias",
    );
  });

  it("an embedded tool name without an exact alias still gets a hint", () => {
    const result = isCorrect([{ ...REPLY, name: "functions_email_reply_email" }], [REPLY]);
    expect(result.details.calls[0]!.aliasHint).toMatchObject({
      tool: "email_reply_email",
      prefix: "functions_",
    });
    expect(result.explanation.join("\n")).toContain('It likely meant "email_reply_email"');
  });

  it("an alias naming another server says so", () => {
    const result = isCorrect([{ ...REPLY, name: "mcp__github__email_reply_email" }], [REPLY]);
    expect(result.details.calls[0]!.aliasHint).toMatchObject({ tool: "email_reply_email", server: "github" });
    expect(result.explanation.join("\n")).toMatch(
      /prefix names the server "github": if the call was meant for/,
    );
  });

  it("repeated unknown names are explained once, listing every call", () => {
    const alias = { ...REPLY, name: "mcp__workplace_assistant__email_reply_email" };
    const result = isCorrect([alias, alias], [REPLY]);
    const sentences = result.explanation.filter((line) => line.includes("not a workplace_assistant tool"));
    expect(sentences).toEqual([
      expect.stringMatching(/^Predicted calls #0, #1 \(mcp__workplace_assistant__email_reply_email\)/),
    ]);
  });

  it("a name repeated 100k times is one short sentence: ten calls listed, the rest counted", () => {
    const alias = { ...REPLY, name: "mcp__workplace_assistant__email_reply_email" };
    const result = isCorrect(
      Array.from({ length: 100_000 }, () => alias),
      [REPLY],
    );
    const sentences = result.explanation.filter((line) => line.includes("not a workplace_assistant tool"));
    expect(sentences).toHaveLength(1);
    expect(sentences[0]).toMatch(/^Predicted calls #0, #1, #2, #3, #4, #5, #6, #7, #8, #9 and 99990 more \(/);
    expect(sentences[0]!.length).toBeLessThan(1_000);
    expect(result.details.calls).toHaveLength(100_000);
  });

  it("advises following a recorded provenance entry, not recording one, when the map was not followed", () => {
    const alias = "mcp_workplace_assistant_email_reply_email";
    const request = (provenance: unknown) =>
      workplaceAssistantVerifier.verify({
        id: 1,
        category: "email",
        environment_name: "workplace_assistant",
        ground_truth: [REPLY],
        response: { output: [{ type: "function_call", call_id: "c0", ...REPLY, name: alias }] },
        ...(provenance === undefined ? {} : { mcp_tool_call_provenance: provenance }),
      });
    const hint = (provenance: unknown) =>
      request(provenance).explanation.find((line) => line.includes("not a workplace_assistant tool")) ?? "";
    // No map: recording one is the advice.
    expect(hint(undefined)).toContain("recording mcp_tool_call_provenance for the call");
    // A map with the call, read without it (legacy): following it is.
    const recorded = hint({ c0: { server_name: "workplace_assistant", tool_name: "email_reply_email" } });
    expect(recorded).toContain(
      'its provenance is recorded (mcp_tool_call_provenance) but was not followed here; following it (the contract policy) runs it as "email_reply_email"',
    );
    expect(recorded).not.toContain("recording mcp_tool_call_provenance");
    // An entry of another server, or of another call, is no recording of this call's identity.
    expect(hint({ c0: { server_name: "other", tool_name: "email_reply_email" } })).toContain("recording");
    expect(hint({ c9: { server_name: "workplace_assistant", tool_name: "email_reply_email" } })).toContain(
      "recording",
    );
  });

  it("a name that embeds no tool gets no hint", () => {
    const result = isCorrect([{ ...REPLY, name: "reply" }], []);
    expect(result.correct).toBe(true);
    expect(result.details.calls[0]!.outcome).toBe("unknown_name");
    expect(result.details.calls[0]!.aliasHint).toBeUndefined();
  });
});

describe("when Gym's is_correct itself raises", () => {
  it("after deleting every event, create_event fails on max() of an empty column (NaN -> int)", () => {
    const deletes = baseTables()
      .calendar.column("event_id")
      .map((id) => call("calendar_delete_event", { event_id: id }));
    const create = call("calendar_create_event", {
      event_name: "Solo",
      participant_email: "a@b.co",
      event_start: "2023-12-01 10:00:00",
      duration: "30",
    });
    const result = isCorrect([...deletes, create], []);
    expect(result.details.calls.at(-1)).toMatchObject({
      outcome: "error",
      message: "ValueError: cannot convert float NaN to integer",
    });
  });

  it("a body column left with only an int makes .str raise: no score, and the verifier says why", () => {
    const deletes = baseTables()
      .emails.column("email_id")
      .map((id) => call("email_delete_email", { email_id: id }));
    // An empty table numbers the next email "1"; the int body is stored as given.
    const send = call("email_send_email", { recipient: "a@b.co", subject: "s", body: 5 });
    const result = isCorrect([...deletes, send], []);
    expect(result.correct).toBe(false);
    expect(result.details.gymError).toMatch(/emails\.body, which holds no string/);
    const out = workplaceAssistantVerifier.verify({
      id: 1,
      category: "email",
      environment_name: "workplace_assistant",
      ground_truth: [],
      response: {
        output: [...deletes, send].map((c, i) => ({ type: "function_call", call_id: `c${i}`, ...c })),
      },
    });
    expect(out.reward).toBe(0);
    expect(out.error).toMatch(/Can only use \.str accessor with string values/);
  });
});

describe("compare: dtypes after lower-casing", () => {
  const columns = Object.freeze(["id", "v"]);

  it("a column left with no string becomes float64 and no longer equals an object column of NaN", () => {
    // A list is neither a string nor a number: .str accepts the column and maps the list to NaN.
    const a = Frame.fromRows(columns, [Object.freeze(["1", [1]]), Object.freeze(["2", null])]);
    const b = Frame.fromRows(columns, [Object.freeze(["1", Number.NaN]), Object.freeze(["2", null])]);
    expect(framesEqual(a, b, "emails")).toBe(false);
    const c = Frame.fromRows(columns, [Object.freeze(["1", { k: 2 }]), Object.freeze(["2", null])]);
    expect(framesEqual(a, c, "emails")).toBe(true);
  });

  it("a column of only numbers makes Gym's .str accessor raise", () => {
    const a = Frame.fromRows(columns, [Object.freeze(["1", 5]), Object.freeze(["2", 6])]);
    expect(() => framesEqual(a, a, "emails")).toThrow(GymCompareError);
  });

  it("NaN equals None and NaN, and index labels must match", () => {
    const a = Frame.fromRows(columns, [Object.freeze(["1", Number.NaN]), Object.freeze(["x", "y"])]);
    const b = Frame.fromRows(columns, [Object.freeze(["1", null]), Object.freeze(["X", "Y"])]);
    expect(framesEqual(a, b, "emails")).toBe(true);
    b.filter(() => true);
    b.append(Object.freeze(["z", "z"]), "keep_index");
    a.append(Object.freeze(["z", "z"]), "ignore_index");
    expect(framesEqual(a, b, "emails")).toBe(false);
  });
});

describe("workplaceAssistantVerifier", () => {
  const task = { id: 0, category: "email", environment_name: "workplace_assistant" };
  const response = (names: readonly { name: string; arguments: string }[]) => ({
    output: [
      { type: "reasoning", id: "r", summary: [] },
      ...names.map((c, i) => ({ type: "function_call", call_id: `c${i}`, ...c })),
      { type: "message", role: "assistant", content: [] },
    ],
  });

  it("scores function_calls of response.output against ground_truth", () => {
    const out = workplaceAssistantVerifier.verify({
      ...task,
      ground_truth: [REPLY],
      response: response([REPLY]),
    });
    expect(out.reward).toBe(1);
    expect(out.error).toBeUndefined();
    const wrong = workplaceAssistantVerifier.verify({
      ...task,
      ground_truth: [REPLY],
      response: response([]),
    });
    expect(wrong.reward).toBe(0);
    expect(wrong.explanation.length).toBeGreaterThan(0);
  });

  it("a missing ground_truth gives reward 0 with an explanation and an error", () => {
    const out = workplaceAssistantVerifier.verify({ ...task, response: response([REPLY]) });
    expect(out.reward).toBe(0);
    expect(out.error).toMatch(/no ground_truth/);
    expect(out.explanation[0]).toMatch(/no ground_truth/);
  });

  it("a string ground_truth is iterated per character like Gym: every action errors, so it means 'no change'", () => {
    const out = workplaceAssistantVerifier.verify({ ...task, ground_truth: "abc", response: response([]) });
    expect(out.reward).toBe(1);
    const changed = workplaceAssistantVerifier.verify({
      ...task,
      ground_truth: "abc",
      response: response([REPLY]),
    });
    expect(changed.reward).toBe(0);
  });

  it("refuses what WorkbenchVerifyRequest would reject, without throwing", () => {
    for (const request of [
      { ...task, ground_truth: 5, response: response([]) },
      { ...task, ground_truth: [{ name: "x", arguments: { a: 1 } }], response: response([]) },
      { ground_truth: [REPLY], response: response([]) },
      { ...task, ground_truth: [REPLY] },
      {
        ...task,
        ground_truth: [REPLY],
        response: { output: [{ type: "function_call", name: 5, arguments: "{}" }] },
      },
    ]) {
      const out = workplaceAssistantVerifier.verify(request);
      expect(out.reward).toBe(0);
      expect(out.error).toBeDefined();
    }
  });

  it("declares its server and 27 tools", () => {
    expect(workplaceAssistantVerifier.server).toBe("workplace_assistant");
    expect(workplaceAssistantVerifier.tools).toHaveLength(27);
  });
});
