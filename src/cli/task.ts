import { formatContentId, formatPair, formatPersonalTaskId, parsePair } from "../domain/item-id.js";
import type { ServiceContext } from "../services/context.js";
import { addPersonalTaskFor } from "../services/todo/personal-task.js";
import { type Task, isTaskPriority, isTaskStatus, parseDue } from "../domain/task.js";
import {
  type Due,
  type TaskPlace,
  createTaskAsOperator,
  moveTaskAsOperator,
  updateTaskAsOperator,
} from "../services/task/task-admin.js";
import {
  type CommandGroup,
  type Values,
  commandGroup,
  folderOption,
  groupOption,
  itemOption,
  optional,
  required,
} from "./admin.js";
import { UsageError } from "./options.js";

function shown(action: string, task: Task) {
  return {
    [action]: "task",
    id: formatContentId({ kind: "TASK", groupId: task.groupId, id: task.id }),
    sequence: task.sequence,
    title: task.title,
    status: task.status,
    priority: task.priority,
    due:
      task.dueAt === null
        ? null
        : new Date(task.dueAt).toISOString().slice(0, task.allDay ? 10 : 19) + (task.allDay ? "" : "Z"),
    folder: task.folderId === null ? null : formatPair(task.folderId),
    trashed: task.trashed,
  };
}

function dueOption(values: Values): Due | undefined {
  const text = optional(values, "due");
  if (text === undefined) return undefined;
  if (text === "") return null;
  const due = parseDue(text);
  if (!due)
    throw new UsageError(
      `--due must be a date (2026-12-01) or a UTC date-time (2026-12-01T09:00:00Z) (got "${text.slice(0, 40)}")`,
    );
  return due;
}

function enumOption<T extends string>(
  values: Values,
  name: string,
  is: (text: string) => text is T,
  allowed: string,
): T | undefined {
  const text = optional(values, name);
  if (text === undefined) return undefined;
  if (!is(text)) throw new UsageError(`--${name} must be one of ${allowed} (got "${text.slice(0, 40)}")`);
  return text;
}

const FIELDS = {
  title: { type: "string" },
  summary: { type: "string" },
  assignee: { type: "string" },
  due: { type: "string" },
  priority: { type: "string" },
  status: { type: "string" },
} as const;
const PRIORITIES = "S, A, B, C";
const STATUSES = "NOT_STARTED, IN_PROGRESS, ON_HOLD, COMPLETED";

/** `kairan task add|update|complete|move`. */
export const TASK_COMMAND: CommandGroup = commandGroup("task", "add and change the tasks of a group", {
  add: {
    summary: "add a task to a group, or (with --user instead of --group) a user's personal task",
    usage: `--group ID --title TEXT --author EMAIL [--summary TEXT] [--assignee EMAIL] [--due DATE|DATETIME] [--priority ${PRIORITIES}] [--status ...] [--folder ID] | --user EMAIL --title TEXT [--summary TEXT] [--due ...] [--priority ...] [--status ...]`,
    options: {
      ...FIELDS,
      group: { type: "string" },
      author: { type: "string" },
      folder: { type: "string" },
      user: { type: "string" },
    },
    async run(values, _p, context) {
      if (optional(values, "user") !== undefined) return addPersonal(values, context);
      const input = {
        groupId: groupOption(values),
        title: required(values, "title"),
        body: optional(values, "summary") ?? "",
        authorEmail: required(values, "author"),
        assigneeEmail: optional(values, "assignee"),
        due: dueOption(values) ?? null,
        priority: enumOption(values, "priority", isTaskPriority, PRIORITIES) ?? "B",
        status: enumOption(values, "status", isTaskStatus, STATUSES) ?? "NOT_STARTED",
        folderId: folderOption(values),
      };
      return shown("added", await createTaskAsOperator(context, input));
    },
  },
  update: {
    summary: "change the fields given (--assignee '' and --due '' clear them)",
    usage: `--task ID [--title TEXT] [--summary TEXT] [--assignee EMAIL] [--due DATE|DATETIME] [--priority ${PRIORITIES}] [--status ${STATUSES}]`,
    options: { ...FIELDS, task: { type: "string" } },
    async run(values, _p, context) {
      const input = {
        ref: itemOption(values, "task", "TASK"),
        title: optional(values, "title"),
        body: optional(values, "summary"),
        assigneeEmail: optional(values, "assignee"),
        due: dueOption(values),
        priority: enumOption(values, "priority", isTaskPriority, PRIORITIES),
        status: enumOption(values, "status", isTaskStatus, STATUSES),
      };
      return shown("updated", await updateTaskAsOperator(context, input));
    },
  },
  complete: {
    summary: "mark a task completed",
    usage: "--task ID",
    options: { task: { type: "string" } },
    async run(values, _p, context) {
      return shown(
        "completed",
        await updateTaskAsOperator(context, { ref: itemOption(values, "task", "TASK"), status: "COMPLETED" }),
      );
    },
  },
  move: {
    summary: "move a task to a folder, out of every folder (UNCLASSIFIED), or to the TRASH",
    usage: "--task ID --folder ID|UNCLASSIFIED|TRASH",
    options: { task: { type: "string" }, folder: { type: "string" } },
    async run(values, _p, context) {
      return shown(
        "moved",
        await moveTaskAsOperator(context, { ref: itemOption(values, "task", "TASK"), place: placeOption(values) }),
      );
    },
  },
});

/** `task add --user EMAIL`: a personal task, which has no group, author, assignee or folder of its own. */
async function addPersonal(values: Values, context: ServiceContext) {
  for (const name of ["group", "author", "assignee", "folder"])
    if (optional(values, name) !== undefined)
      throw new UsageError(`--${name} does not go with --user (a personal task belongs to its user alone)`);
  const task = await addPersonalTaskFor(context, {
    ownerEmail: required(values, "user"),
    draft: {
      title: required(values, "title"),
      body: optional(values, "summary") ?? "",
      due: dueOption(values) ?? null,
      priority: enumOption(values, "priority", isTaskPriority, PRIORITIES) ?? "B",
      status: enumOption(values, "status", isTaskStatus, STATUSES) ?? "NOT_STARTED",
    },
  });
  return {
    added: "personal task",
    id: formatPersonalTaskId({ ownerId: task.ownerId, id: task.id }),
    sequence: task.sequence,
    title: task.title,
    status: task.status,
    priority: task.priority,
    due:
      task.dueAt === null
        ? null
        : new Date(task.dueAt).toISOString().slice(0, task.allDay ? 10 : 19) + (task.allDay ? "" : "Z"),
  };
}

function placeOption(values: Values): TaskPlace {
  const text = required(values, "folder");
  if (text.toUpperCase() === "UNCLASSIFIED") return { kind: "unclassified" };
  if (text.toUpperCase() === "TRASH") return { kind: "trash" };
  const folderId = parsePair(text);
  if (folderId === undefined)
    throw new UsageError(`--folder must be a folder id, UNCLASSIFIED or TRASH (got "${text.slice(0, 40)}")`);
  return { kind: "folder", folderId };
}
