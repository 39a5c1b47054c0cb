/** CustomerRelationshipManagerTool (customer_relationship_manager.py) over its processed CSV. */
import { type Frame, newRow } from "../frame";
import { assertHashable, isNa, PyException, pyEq, pyInt, pyLowerMethod, pyZfill, truthy } from "../py";
import {
  anyFalsy,
  applied,
  arg,
  deleteWhere,
  inValues,
  locSet,
  paginate,
  recordOf,
  refused,
  regexContains,
  seriesCompare,
  type ToolDef,
} from "./common";

const ID_WIDTH = 8;
/** Case-sensitive, like the compare (status is not lower-cased there). Not checked by add_customer. */
const STATUSES = ["Qualified", "Won", "Lost", "Lead", "Proposal"] as const;
const PRODUCTS = ["Software", "Hardware", "Services", "Consulting", "Training"] as const;
const LOWERED_FIELDS = ["customer_email", "assigned_to_email"] as const;

const SEARCH_FILTERS = [
  "customer_name",
  "customer_email",
  "product_interest",
  "status",
  "assigned_to_email",
  "last_contact_date_min",
  "last_contact_date_max",
  "follow_up_by_min",
  "follow_up_by_max",
] as const;

function containsFilter(frame: Frame, positions: number[], column: string, pattern: unknown): number[] {
  const matches = regexContains(pattern);
  const c = frame.columnIndex(column);
  return positions.filter((pos) => {
    const cell = frame.rows[pos]![c];
    if (isNa(cell)) {
      throw new PyException("ValueError", "Cannot mask with non-boolean array containing NA / NaN values");
    }
    return matches(cell);
  });
}

/** `df[df[column] >= bound]` (or `<=`): object comparisons; a missing cell compares False. */
function rangeFilter(frame: Frame, positions: number[], column: string, bound: unknown, atLeast: boolean) {
  const c = frame.columnIndex(column);
  const mask = seriesCompare(
    positions.map((pos) => frame.rows[pos]![c]),
    atLeast ? ">=" : "<=",
    bound,
  );
  return positions.filter((_, i) => mask[i]);
}

export const CRM_TOOLS: readonly ToolDef[] = [
  {
    name: "customer_relationship_manager_search_customers",
    qualname: "CustomerRelationshipManagerTool.search_customers",
    params: [...SEARCH_FILTERS.map((p) => [p, null] as const), ["page", 1n], ["page_size", 5n]],
    mutates: false,
    run(state, args) {
      const value = (p: string) => arg(args, p);
      if (!SEARCH_FILTERS.some((p) => truthy(value(p)))) {
        return refused("No search parameters provided. Please provide at least one parameter.");
      }
      const frame = state.crm;
      let positions = frame.rows.map((_, i) => i);
      for (const column of [
        "customer_name",
        "customer_email",
        "product_interest",
        "status",
        "assigned_to_email",
      ]) {
        if (truthy(value(column))) positions = containsFilter(frame, positions, column, value(column));
      }
      for (const [param, column, atLeast] of [
        ["last_contact_date_min", "last_contact_date", true],
        ["last_contact_date_max", "last_contact_date", false],
        ["follow_up_by_min", "follow_up_by", true],
        ["follow_up_by_max", "follow_up_by", false],
      ] as const) {
        if (truthy(value(param))) positions = rangeFilter(frame, positions, column, value(param), atLeast);
      }
      const pageInfo = paginate(positions, value("page"), value("page_size"));
      if (positions.length === 0) return applied("No customers found.");
      return applied({
        customers: pageInfo.slice().map((pos) => recordOf(frame, pos)),
        pagination: {
          total_customers: positions.length,
          page: pageInfo.page,
          page_size: pageInfo.pageSize,
          total_pages: pageInfo.totalPages,
        },
      });
    },
  },
  {
    name: "customer_relationship_manager_update_customer",
    qualname: "CustomerRelationshipManagerTool.update_customer",
    params: [
      ["customer_id", null],
      ["field", null],
      ["new_value", null],
    ],
    mutates: true,
    run(state, args) {
      const customerId = arg(args, "customer_id");
      const field = arg(args, "field");
      let newValue = arg(args, "new_value");
      if (anyFalsy(customerId, field, newValue))
        return refused("Customer ID, field, or new value not provided.");
      if (field === "status" && !STATUSES.some((s) => pyEq(s, newValue))) {
        return refused(
          "Status not valid. Please choose from: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'",
        );
      }
      if (field === "product_interest" && !PRODUCTS.some((p) => pyEq(p, newValue))) {
        return refused(
          "Product interest not valid. Please choose from: 'Software', 'Hardware', 'Services', 'Consulting', 'Training'",
        );
      }
      if (LOWERED_FIELDS.some((f) => pyEq(f, field))) newValue = pyLowerMethod(newValue);
      const frame = state.crm;
      if (!inValues(customerId, frame, "customer_id")) return refused("Customer not found.");
      assertHashable(field);
      if (typeof field !== "string" || !frame.columns.includes(field)) {
        return refused(
          "Field not valid. Please choose from: 'customer_name', 'assigned_to_email', 'customer_email', 'customer_phone', 'last_contact_date', 'product_interest', 'status', 'notes', 'follow_up_by'",
        );
      }
      locSet(frame, "customer_id", customerId, field, newValue);
      return applied("Customer updated successfully.");
    },
  },
  {
    name: "customer_relationship_manager_add_customer",
    qualname: "CustomerRelationshipManagerTool.add_customer",
    params: [
      ["customer_name", null],
      ["assigned_to_email", null],
      ["status", null],
      ["customer_email", null],
      ["customer_phone", null],
      ["last_contact_date", null],
      ["product_interest", null],
      ["notes", ""],
      ["follow_up_by", null],
    ],
    mutates: true,
    run(state, args) {
      const v = (p: string) => arg(args, p);
      if (anyFalsy(v("customer_name"), v("assigned_to_email"), v("status"))) {
        return refused("Please provide all required fields: customer_name, assigned_to_email, status.");
      }
      const assigned = pyLowerMethod(v("assigned_to_email"));
      const customerEmail = truthy(v("customer_email"))
        ? pyLowerMethod(v("customer_email"))
        : v("customer_email");
      const frame = state.crm;
      const newId = pyZfill(String(pyInt(frame.objectMax("customer_id")) + 1n), ID_WIDTH);
      // Omitted optional fields are stored as None (notes defaults to ""); status is stored unchecked.
      const byColumn: Record<string, unknown> = {
        customer_id: newId,
        customer_name: v("customer_name"),
        customer_email: customerEmail,
        customer_phone: v("customer_phone"),
        last_contact_date: v("last_contact_date"),
        product_interest: v("product_interest"),
        status: v("status"),
        assigned_to_email: assigned,
        notes: v("notes"),
        follow_up_by: v("follow_up_by"),
      };
      frame.append(newRow(frame.columns.map((c) => byColumn[c])), "ignore_index");
      return applied(newId);
    },
  },
  {
    name: "customer_relationship_manager_delete_customer",
    qualname: "CustomerRelationshipManagerTool.delete_customer",
    params: [["customer_id", null]],
    mutates: true,
    run(state, args) {
      const customerId = arg(args, "customer_id");
      if (!truthy(customerId)) return refused("Customer ID not provided.");
      if (!inValues(customerId, state.crm, "customer_id")) return refused("Customer not found.");
      deleteWhere(state.crm, "customer_id", customerId);
      return applied("Customer deleted successfully.");
    },
  },
];
