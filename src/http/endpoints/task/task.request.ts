import { NS } from "../../../atom/namespaces.js";
import { type XmlElement, attribute, child, childText } from "../../../atom/parse.js";
import { NotFoundError, ValidationError } from "../../../domain/errors.js";
import { type PersonalTaskRef, parseItemId, parsePersonalTaskId } from "../../../domain/item-id.js";
import type { PersonalTaskDraft } from "../../../domain/personal-task.js";
import {
  ALL_DAY_MS,
  type TaskPriority,
  type TaskStatus,
  TASK_PRIORITIES,
  TASK_STATUSES,
  isTaskPriority,
  parseDue,
  taskStatusLabel,
} from "../../../domain/task.js";
import type { TaskDue } from "../../../domain/task-due.js";
import type { TodoQuery } from "../../../services/todo/todo.js";
import { readGroupParameter, readPage } from "../../../http-kit/parameters.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../../http-kit/query.js";
import { readOperation, requireSingleEntry, summaryOf } from "../../atom-request.js";
import { readTaskFilter } from "../gw-task/gw-task.request.js";
import { readChangesSince } from "../../changes-link.js";

/** A personal task write (docs/api.md "Personal ToDo"). */
export type PersonalTaskWrite =
  | { readonly op: "insert"; readonly draft: PersonalTaskDraft }
  | { readonly op: "update"; readonly ref: PersonalTaskRef; readonly draft: PersonalTaskDraft }
  | { readonly op: "delete"; readonly ref: PersonalTaskRef };

/**
 * Reads `GET /api/task/V2` parameters: the task list's term and status rules, an optional group, paging.
 * @throws ValidationError naming the parameter
 */
export function readTodoQuery(query: QueryValues, now: number): TodoQuery {
  const page = readPage(query);
  return {
    groupId: queryValue(query, "group") === undefined ? undefined : readGroupParameter(query),
    filter: readTaskFilter(query, now),
    page,
    embedComments: queryFlag(query, "embed-comment"),
    changesSince: readChangesSince(query, page),
  };
}

/**
 * Reads a personal task POST: `cbl:operation` insert (also when absent), update or delete, one entry.
 * @throws ValidationError INVALID_OPERATION, ENTRY_REQUIRED, MULTIPLE_ENTRIES, ENTRY_ID_REQUIRED, INVALID_ID,
 *   TASK_DUE_DATE_INVALID, TASK_DUE_OUT_OF_RANGE, TASK_PRIORITY_INVALID, TASK_STATUS_INVALID
 * @throws NotFoundError TASK_NOT_FOUND (an id of anything but a personal task)
 */
export function readPersonalTaskWrite(feed: XmlElement): PersonalTaskWrite {
  const operation = readOperation(feed) ?? "insert";
  if (operation !== "insert" && operation !== "update" && operation !== "delete")
    throw new ValidationError(
      "INVALID_OPERATION",
      `cbl:operation type "${clip(operation)}" is not one of insert, update, delete.`,
    );
  const entry = requireSingleEntry(feed, "task");
  if (operation === "delete") return { op: "delete", ref: readTaskRef(entry) };
  const draft = readDraft(entry);
  return operation === "insert" ? { op: "insert", draft } : { op: "update", ref: readTaskRef(entry), draft };
}

/**
 * `GET /api/task/V2?entry=<personal task id>`: the one personal task whose own feed is asked for
 * (its ETag is what a conditional write names); undefined without `entry`.
 * @throws ValidationError INVALID_ID; NotFoundError TASK_NOT_FOUND (a group task's id)
 */
export function readTodoEntry(query: QueryValues): PersonalTaskRef | undefined {
  const entry = queryValue(query, "entry");
  return entry === undefined ? undefined : readTaskId(entry, "entry");
}

/** `entry/id`: a personal task id. @throws ValidationError ENTRY_ID_REQUIRED, INVALID_ID; NotFoundError TASK_NOT_FOUND */
function readTaskRef(entry: XmlElement): PersonalTaskRef {
  const id = childText(entry, NS.atom, "id");
  if (id === undefined || id.trim() === "")
    throw new ValidationError("ENTRY_ID_REQUIRED", "entry/id (the personal task's id) is missing.");
  return readTaskId(id, "entry/id");
}

function readTaskId(id: string, field: string): PersonalTaskRef {
  const ref = parsePersonalTaskId(id);
  if (ref !== undefined) return ref;
  if (parseItemId(id) !== undefined)
    throw new NotFoundError("TASK_NOT_FOUND", "The task does not exist: this endpoint writes personal tasks only.");
  throw new ValidationError(
    "INVALID_ID",
    `${field} must be a personal task id such as MYPAGE,1:1,TASK,1:1 (got "${clip(id)}").`,
  );
}

/** The fields of a personal task; an update replaces them all, as the board's updates do. */
function readDraft(entry: XmlElement): PersonalTaskDraft {
  return {
    title: childText(entry, NS.atom, "title") ?? "",
    body: summaryOf(entry) ?? "",
    due: readDue(entry),
    priority: readPriority(entry),
    status: readStatus(entry),
  };
}

const FIRST_DAY = Date.UTC(1900, 0, 1);
const LAST_MOMENT = Date.UTC(2100, 11, 31, 23, 59, 59);

/**
 * `cbl:when endTime` as task entries write it: a date (all day) or a UTC date-time; `allday="true"`
 * with a date-time keeps its day. Absent: no due date.
 * @throws ValidationError TASK_DUE_DATE_INVALID, TASK_DUE_OUT_OF_RANGE
 */
function readDue(entry: XmlElement): TaskDue {
  const when = child(entry, NS.cbl, "when");
  const text = when === undefined ? undefined : attribute(when, "endTime")?.trim();
  if (when === undefined || text === undefined || text === "") return null;
  const parsed = parseDue(text);
  if (parsed === undefined)
    throw new ValidationError(
      "TASK_DUE_DATE_INVALID",
      `cbl:when endTime must be a date (2026-12-01) or a UTC date-time (2026-12-01T09:00:00Z) (got "${clip(text)}").`,
    );
  if (parsed.dueAt < FIRST_DAY || parsed.dueAt > LAST_MOMENT)
    throw new ValidationError("TASK_DUE_OUT_OF_RANGE", "The due date must lie between 1900-01-01 and 2100-12-31.");
  const allDay = parsed.allDay || (attribute(when, "allday") ?? "").trim().toLowerCase() === "true";
  return allDay ? { dueAt: Math.floor(parsed.dueAt / ALL_DAY_MS) * ALL_DAY_MS, allDay } : parsed;
}

/** `cblTsk:priority`; absent: B. @throws ValidationError TASK_PRIORITY_INVALID */
function readPriority(entry: XmlElement): TaskPriority {
  const text = childText(entry, NS.cblTsk, "priority")?.trim();
  if (text === undefined || text === "") return "B";
  if (isTaskPriority(text.toUpperCase())) return text.toUpperCase() as TaskPriority;
  throw new ValidationError(
    "TASK_PRIORITY_INVALID",
    `cblTsk:priority must be one of ${TASK_PRIORITIES.join(", ")} (got "${clip(text)}").`,
  );
}

/**
 * The state: `cblTsk:status` (a state code), else `cbl:task valueString` (a code or a label in
 * either language, so that an entry read from the feed can be sent back); absent: NOT_STARTED.
 * @throws ValidationError TASK_STATUS_INVALID
 */
function readStatus(entry: XmlElement): TaskStatus {
  const task = child(entry, NS.cbl, "task");
  const text = (childText(entry, NS.cblTsk, "status") ?? (task && attribute(task, "valueString")))?.trim();
  if (text === undefined || text === "") return "NOT_STARTED";
  const found = TASK_STATUSES.find(
    (status) =>
      status === text.toUpperCase() || taskStatusLabel(status, "ja") === text || taskStatusLabel(status, "en") === text,
  );
  if (found !== undefined) return found;
  throw new ValidationError(
    "TASK_STATUS_INVALID",
    `The state (cblTsk:status) must be one of ${TASK_STATUSES.join(", ")} (got "${clip(text)}").`,
  );
}
