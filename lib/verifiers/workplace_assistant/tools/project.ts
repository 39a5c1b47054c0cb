/** ProjectManagementTool (project_management.py) over processed/project_tasks.csv. */
import { pyLower } from "../../pyunicode";
import { type Cell, type Frame, newRow } from "../frame";
import { assertHashable, isNa, PyException, pyEq, pyInt, pyLowerMethod, pyZfill, truthy } from "../py";
import {
  anyFalsy,
  applied,
  arg,
  deleteWhere,
  firstRecord,
  inValues,
  locSet,
  recordOf,
  refused,
  regexContains,
  type ToolDef,
} from "./common";

const ID_WIDTH = 8;
/** Case-sensitive, like the compare (list_name and board are not lower-cased there). */
const LISTS = ["Backlog", "In Progress", "In Review", "Completed"] as const;
const BOARDS = ["Back end", "Front end", "Design"] as const;
/** Gym's `re.match(r"^...$", email)`: Python's `$` also matches before a final newline, so "\n?$" here. */
const EMAIL_PATTERN = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}\n?$/;

const BAD_ASSIGNEE = "Assignee email not valid. Please choose from the list of team members.";
const BAD_LIST = "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'.";
const BAD_BOARD = "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'.";

/** `value in df[column].str.lower().values` (non-strings lower-case to NaN, which equals nothing). */
function inLoweredColumn(frame: Frame, column: string, value: unknown): boolean {
  return frame.someInColumn(column, (cell) => typeof cell === "string" && pyEq(pyLower(cell), value));
}

/**
 * `df[df[column].str.contains(pattern, case=False)]`: a missing cell gives NaN in the mask, which pandas
 * refuses to index with.
 */
function containsFilter(frame: Frame, positions: number[], column: string, pattern: unknown): number[] {
  const matches = regexContains(pattern);
  const c = frame.columnIndex(column);
  return positions.filter((pos) => {
    const cell: Cell = frame.rows[pos]![c];
    if (isNa(cell) || typeof cell !== "string") {
      throw new PyException("ValueError", "Cannot mask with non-boolean array containing NA / NaN values");
    }
    return matches(cell);
  });
}

export const PROJECT_TOOLS: readonly ToolDef[] = [
  {
    name: "project_management_get_task_information_by_id",
    qualname: "ProjectManagementTool.get_task_information_by_id",
    params: [
      ["task_id", null],
      ["field", null],
    ],
    mutates: false,
    run(state, args) {
      const taskId = arg(args, "task_id");
      const field = arg(args, "field");
      if (!truthy(taskId)) return refused("Task ID not provided.");
      if (!truthy(field)) return refused("Field not provided.");
      const record = firstRecord(state.projectTasks, "task_id", taskId);
      if (!record) return refused("Task not found.");
      assertHashable(field);
      if (typeof field === "string" && Object.hasOwn(record, field))
        return applied({ [field]: record[field] });
      return refused("Field not found.");
    },
  },
  {
    name: "project_management_search_tasks",
    qualname: "ProjectManagementTool.search_tasks",
    params: [
      ["task_name", null],
      ["assigned_to_email", null],
      ["list_name", null],
      ["due_date", null],
      ["board", null],
    ],
    mutates: false,
    run(state, args) {
      const [taskName, email, listName, dueDate, board] = [
        "task_name",
        "assigned_to_email",
        "list_name",
        "due_date",
        "board",
      ].map((p) => arg(args, p));
      if (![taskName, email, listName, dueDate, board].some(truthy))
        return refused("No search parameters provided.");
      if (truthy(email)) {
        if (typeof email !== "string")
          throw new PyException("TypeError", "expected string or bytes-like object");
        if (!EMAIL_PATTERN.test(email)) return refused("Invalid email format for assigned_to_email.");
      }
      const frame = state.projectTasks;
      let positions = frame.rows.map((_, i) => i);
      if (truthy(taskName)) positions = containsFilter(frame, positions, "task_name", taskName);
      if (truthy(email)) {
        const wanted = pyLowerMethod(email);
        const c = frame.columnIndex("assigned_to_email");
        positions = positions.filter((pos) => {
          const cell = frame.rows[pos]![c];
          return typeof cell === "string" && pyLower(cell) === wanted;
        });
      }
      if (truthy(listName)) positions = containsFilter(frame, positions, "list_name", listName);
      if (truthy(dueDate)) positions = containsFilter(frame, positions, "due_date", dueDate);
      if (truthy(board)) positions = containsFilter(frame, positions, "board", board);
      return applied(positions.map((pos) => recordOf(frame, pos)));
    },
  },
  {
    name: "project_management_create_task",
    qualname: "ProjectManagementTool.create_task",
    params: [
      ["task_name", null],
      ["assigned_to_email", null],
      ["list_name", null],
      ["due_date", null],
      ["board", null],
    ],
    mutates: true,
    run(state, args) {
      const taskName = arg(args, "task_name");
      const listName = arg(args, "list_name");
      const dueDate = arg(args, "due_date");
      const board = arg(args, "board");
      let email = arg(args, "assigned_to_email");
      if (anyFalsy(taskName, email, listName, dueDate, board)) return refused("Missing task details.");
      email = pyLowerMethod(email);
      const frame = state.projectTasks;
      if (!inLoweredColumn(frame, "assigned_to_email", email)) return refused(BAD_ASSIGNEE);
      if (!LISTS.some((l) => pyEq(l, listName))) return refused(BAD_LIST);
      if (!BOARDS.some((b) => pyEq(b, board))) return refused(BAD_BOARD);
      const taskId = pyZfill(String(pyInt(frame.objectMax("task_id")) + 1n), ID_WIDTH);
      frame.append(newRow([taskId, taskName, email, listName, dueDate, board]), "ignore_index");
      return applied(taskId);
    },
  },
  {
    name: "project_management_delete_task",
    qualname: "ProjectManagementTool.delete_task",
    params: [["task_id", null]],
    mutates: true,
    run(state, args) {
      const taskId = arg(args, "task_id");
      if (!truthy(taskId)) return refused("Task ID not provided.");
      if (!inValues(taskId, state.projectTasks, "task_id")) return refused("Task not found.");
      deleteWhere(state.projectTasks, "task_id", taskId);
      return applied("Task deleted successfully.");
    },
  },
  {
    name: "project_management_update_task",
    qualname: "ProjectManagementTool.update_task",
    params: [
      ["task_id", null],
      ["field", null],
      ["new_value", null],
    ],
    mutates: true,
    run(state, args) {
      const taskId = arg(args, "task_id");
      const field = arg(args, "field");
      let newValue = arg(args, "new_value");
      if (anyFalsy(taskId, field, newValue)) return refused("Task ID, field, or new value not provided.");
      if (field === "assigned_to_email") newValue = pyLowerMethod(newValue);
      if (field === "board" && !BOARDS.some((b) => pyEq(b, newValue))) return refused(BAD_BOARD);
      if (field === "list_name" && !LISTS.some((l) => pyEq(l, newValue))) return refused(BAD_LIST);
      const frame = state.projectTasks;
      if (field === "assigned_to_email" && !inLoweredColumn(frame, "assigned_to_email", newValue)) {
        return refused(BAD_ASSIGNEE);
      }
      if (!inValues(taskId, frame, "task_id")) return refused("Task not found.");
      assertHashable(field); // `field in df.columns` hashes it
      if (typeof field !== "string" || !frame.columns.includes(field)) return refused("Field not valid.");
      locSet(frame, "task_id", taskId, field, newValue);
      return applied("Task updated successfully.");
    },
  },
];
