/** Each cell of a table difference traces to the predicted call that wrote it, or to none ("never written"). */
import { describe, expect, it } from "vitest";
import { isCorrect } from "./index";

function call(name: string, args: Record<string, unknown>) {
  return { name, arguments: JSON.stringify(args) };
}

const READ = call("email_get_email_information_by_id", { email_id: "00000057", field: "body" });
const WON = call("customer_relationship_manager_update_customer", {
  customer_id: "00000095",
  field: "status",
  new_value: "Won",
});
const LOST = call("customer_relationship_manager_update_customer", {
  customer_id: "00000095",
  field: "status",
  new_value: "Lost",
});
const REPLY = call("email_reply_email", { email_id: "00000057", body: "Thanks" });
const DELETE_10 = call("email_delete_email", { email_id: "00000010" });

function table(result: ReturnType<typeof isCorrect>, name: string) {
  const found = result.details.tables.find((t) => t.table === name);
  if (!found) throw new Error(name);
  return found;
}

describe("writtenBy / removedBy", () => {
  it("a differing cell names the last call that wrote it", () => {
    const result = isCorrect([READ, WON, LOST], [WON]);
    const crm = table(result, "crm_data");
    expect(crm.differingCells).toHaveLength(1);
    expect(crm.differingCells[0]).toMatchObject({ column: "status", writtenBy: 2 });
    // Calls that only read write nothing; the update records its row.
    expect(result.details.calls[0]?.writes).toBeUndefined();
    expect(result.details.calls[1]?.writes).toEqual([
      { table: "crm_data", key: "00000095", kind: "updated" },
    ]);
  });

  it("a cell the expected state changed and no predicted call wrote is never written (null)", () => {
    const result = isCorrect([READ], [WON]);
    expect(table(result, "crm_data").differingCells[0]).toMatchObject({ column: "status", writtenBy: null });
  });

  it("a row only in the predicted state names the call that added it", () => {
    const result = isCorrect([READ, REPLY], []);
    const emails = table(result, "emails");
    expect(emails.onlyPredicted).toHaveLength(1);
    expect(emails.onlyPredicted[0]?.writtenBy).toBe(1);
    expect(result.details.calls[1]?.writes?.[0]).toMatchObject({ table: "emails", kind: "added" });
  });

  it("a row only in the expected state names the call that removed it, or none for a row never written", () => {
    const removed = table(isCorrect([DELETE_10], []), "emails");
    expect(removed.onlyExpected).toHaveLength(1);
    expect(removed.onlyExpected[0]?.removedBy).toBe(0);
    const missing = table(isCorrect([READ], [REPLY]), "emails");
    expect(missing.onlyExpected).toHaveLength(1);
    expect(missing.onlyExpected[0]?.removedBy).toBeNull();
    // The ground-truth action that would have written it.
    expect(missing.onlyExpected[0]?.expectedBy).toBe(0);
  });

  it("names the ground-truth action behind an expected value or a row the agent never removed", () => {
    const cell = table(isCorrect([READ], [READ, WON]), "crm_data").differingCells[0];
    expect(cell).toMatchObject({ writtenBy: null, expectedBy: 1 });
    const kept = table(isCorrect([READ], [DELETE_10]), "emails");
    expect(kept.onlyPredicted).toHaveLength(1);
    expect(kept.onlyPredicted[0]).toMatchObject({ writtenBy: null, expectedBy: 0 });
  });
});
