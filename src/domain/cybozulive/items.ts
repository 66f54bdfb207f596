// The board and ToDo files: one row per topic or task, with its comments in the last cell.
// Rows come newest-updated first; they are returned in the file's order and sorted by the caller.
import type { TaskPriority, TaskStatus } from "../task.js";
import { type CellComment, parseCommentCell } from "./comment-cell.js";
import { type WallTime, parseWallTime } from "./dates.js";
import type { Column, Row } from "./header.js";

/** What a board row and a ToDo row share. */
export interface ItemRecord {
  /** The row's ID ("1:6305695"): the key that makes a second import find what the first made. */
  readonly sourceId: string;
  readonly title: string;
  readonly body: string;
  readonly author: string;
  readonly created: number;
  readonly updated: number;
  readonly comments: readonly CellComment[];
  readonly file: string;
  readonly line: number;
}

/** A ToDo row. */
export interface TaskRecord extends ItemRecord {
  readonly status: TaskStatus;
  readonly priority: TaskPriority;
  /** Display names, in the order the cell lists them. */
  readonly assignees: readonly string[];
  readonly due: WallTime | null;
}

const STATUSES: Readonly<Record<string, TaskStatus>> = {
  未着手: "NOT_STARTED",
  notstarted: "NOT_STARTED",
  対応中: "IN_PROGRESS",
  inprogress: "IN_PROGRESS",
  保留: "ON_HOLD",
  onhold: "ON_HOLD",
  完了: "COMPLETED",
  completed: "COMPLETED",
  complete: "COMPLETED",
  done: "COMPLETED",
};

/** A board row. @throws ImportFileError */
export function readItem(row: Row): ItemRecord {
  const sourceId = row.required("id");
  if (sourceId === "") throw row.error("id", "the ID is empty");
  const created = wallTimeOf(row, "created");
  const updatedText = row.text("updated");
  const updated = updatedText === "" ? created : wallTimeOf(row, "updated");
  const cell = row.field("comments");
  return {
    sourceId,
    title: row.required("title"),
    body: (row.field("body")?.value ?? "").replace(/\s+$/, ""),
    author: row.required("author"),
    created,
    updated: Math.max(created, updated),
    comments: cell === undefined ? [] : parseCommentCell(cell.value, { file: row.file, ...cell }),
    file: row.file,
    line: row.line,
  };
}

/** A ToDo row. @throws ImportFileError */
export function readTask(row: Row): TaskRecord {
  const item = readItem(row);
  const statusText = row.required("status");
  const status = statusText === "" ? "NOT_STARTED" : STATUSES[statusText.toLowerCase().replace(/[\s_-]/g, "")];
  if (status === undefined) throw row.error("status", `unknown status "${statusText.slice(0, 40)}"`);
  const priorityText = row.text("priority").toUpperCase();
  if (priorityText !== "" && !["S", "A", "B", "C"].includes(priorityText))
    throw row.error("priority", `unknown priority "${priorityText.slice(0, 40)}" (S, A, B or C)`);
  const dueText = row.text("due");
  return {
    ...item,
    status,
    priority: (priorityText || "B") as TaskPriority,
    assignees: row
      .text("assignees")
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
    due: dueText === "" ? null : wallTimeOrError(row, "due", dueText),
  };
}

function wallTimeOf(row: Row, column: Column): number {
  return wallTimeOrError(row, column, row.required(column)).wall;
}

function wallTimeOrError(row: Row, column: Column, text: string): WallTime {
  const when = parseWallTime(text);
  if (when === undefined) throw row.error(column, `"${text.slice(0, 40)}" is not a date such as 2018/3/1 13:48`);
  return when;
}
