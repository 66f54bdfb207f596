// Writing tasks: new (`/g/1:n/tasks/new`), edit (`.../1:m/edit`), done and reopened (`/complete`,
// `/reopen`, which return to the list with its filters), the trash (`/trash`, `/restore`) and
// deleting for good from it (`/delete`). Plain forms; a due time is read in the person's time zone.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { type ContentRef, formatPair, parsePair } from "../../domain/item-id.js";
import { TASK_PRIORITIES, TASK_STATUSES, isTaskPriority, isTaskStatus, taskStatusLabel } from "../../domain/task.js";
import { dueFromForm, dueToForm } from "../../domain/task-due.js";
import { clip, queryValue } from "../../http-kit/query.js";
import {
  type TaskDraft,
  type TaskFormView,
  createTask,
  deleteTask,
  readTaskForm,
  trashTask,
  updateTask,
} from "../../services/task/task-write.js";
import { errorText } from "../i18n/i18n.js";
import { mentionSource } from "../mention-html.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { withQuery } from "../paging.js";
import { itemPath } from "./item-view.js";

/** The fields of the task form, as typed. */
export interface TaskFormValues {
  readonly title: string;
  readonly body: string;
  readonly assignee: string;
  readonly dueDate: string;
  readonly dueTime: string;
  readonly zone: string;
  readonly priority: string;
  readonly status: string;
  readonly folder: string;
}

/** The filters of the task list a done/reopen button returns to. */
const LIST_FILTERS = ["state", "folder", "from", "to", "page"] as const;

/** The task-writing routes. */
export function registerTaskEditPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/tasks/new", {
    GET: async (page) => {
      const view = await readTaskForm(web, page.actor, { groupId: pathPair(page, "group") });
      return taskForm(page, view, {
        ...emptyValues(page.chrome.timeZone),
        folder: queryValue(page.query, "folder") ?? "",
      });
    },
    POST: (page) => saveTask(web, page, undefined),
  });
  registerPage(app, web, "/g/:group/tasks/:task/edit", {
    GET: async (page) => {
      const ref = taskRef(page);
      const view = await readTaskForm(web, page.actor, { groupId: ref.groupId, ref });
      const zone = page.chrome.timeZone;
      return taskForm(page, view, view.task ? valuesOf(view.task, zone) : emptyValues(zone));
    },
    POST: (page) => saveTask(web, page, taskRef(page)),
  });
  for (const [name, status] of [
    ["complete", "COMPLETED"],
    ["reopen", "NOT_STARTED"],
  ] as const) {
    registerPage(app, web, `/g/:group/tasks/:task/${name}`, {
      async POST(page) {
        const ref = taskRef(page);
        await updateTask(web, page.actor, { ref, change: { status } });
        return page.redirect(returnPath(page, ref));
      },
    });
  }
  for (const [name, trashed] of [
    ["trash", true],
    ["restore", false],
  ] as const) {
    registerPage(app, web, `/g/:group/tasks/:task/${name}`, {
      async POST(page) {
        const ref = taskRef(page);
        await trashTask(web, page.actor, { ref, trashed });
        return page.redirect(itemPath(ref));
      },
    });
  }
  registerPage(app, web, "/g/:group/tasks/:task/delete", {
    async POST(page) {
      const ref = taskRef(page);
      await deleteTask(web, page.actor, { ref });
      return page.redirect(`/g/${formatPair(ref.groupId)}/tasks?folder=TRASH`);
    },
  });
}

/** A new task's form; due times are read in the person's time zone (the account page's, else the server's). */
export const emptyValues = (zone: string): TaskFormValues => ({
  title: "",
  body: "",
  assignee: "",
  dueDate: "",
  dueTime: "",
  zone,
  priority: "B",
  status: "NOT_STARTED",
  folder: "",
});

function taskRef(page: PageRequest): ContentRef {
  return { kind: "TASK", groupId: pathPair(page, "group"), id: pathPair(page, "task") };
}

/** The list the button was pressed on, with its filters (only the list's own, re-encoded); else the task. */
function returnPath(page: PageRequest, ref: ContentRef): string {
  // The ToDo page lists assigned tasks of every group and marks them done in place.
  if (page.form.get("back") === "todo") return withQuery("/todo", { state: page.form.get("state") ?? undefined });
  if (page.form.get("back") !== "list") return itemPath(ref);
  const filters = Object.fromEntries(LIST_FILTERS.map((name) => [name, page.form.get(name) ?? undefined]));
  return withQuery(`/g/${formatPair(ref.groupId)}/tasks`, filters);
}

function valuesOf(task: NonNullable<TaskFormView["task"]>, zone: string): TaskFormValues {
  const due = dueToForm(task.dueAt === null ? null : { dueAt: task.dueAt, allDay: task.allDay }, zone);
  return {
    title: task.title,
    body: task.body,
    assignee: task.assigneeId === null ? "" : formatPair(task.assigneeId),
    dueDate: due.date,
    dueTime: due.time,
    zone,
    priority: task.priority,
    status: task.status,
    folder: task.folderId === null ? "" : formatPair(task.folderId),
  };
}

/** The task form's values as sent. */
export function readValues(form: URLSearchParams, zone: string): TaskFormValues {
  const field = (name: keyof TaskFormValues) => form.get(name) ?? "";
  return {
    title: field("title"),
    body: field("body"),
    assignee: field("assignee"),
    dueDate: field("dueDate"),
    dueTime: field("dueTime"),
    zone: field("zone") || zone,
    priority: field("priority"),
    status: field("status"),
    folder: field("folder"),
  };
}

/**
 * The draft a form's values describe.
 * @throws ValidationError INVALID_ASSIGNEE, TASK_PRIORITY_INVALID, TASK_STATUS_INVALID, INVALID_FOLDER and the due date's
 */
export function draftOf(values: TaskFormValues): TaskDraft {
  const assigneeId = values.assignee === "" ? null : parsePair(values.assignee);
  if (assigneeId === undefined)
    throw new ValidationError("INVALID_ASSIGNEE", `The assignee must be a member (got "${clip(values.assignee)}").`);
  if (!isTaskPriority(values.priority))
    throw new ValidationError("TASK_PRIORITY_INVALID", `The priority must be one of ${TASK_PRIORITIES.join(", ")}.`);
  if (!isTaskStatus(values.status))
    throw new ValidationError("TASK_STATUS_INVALID", `The state must be one of ${TASK_STATUSES.join(", ")}.`);
  const folderId = values.folder === "" || values.folder === "UNCLASSIFIED" ? null : parsePair(values.folder);
  if (folderId === undefined)
    throw new ValidationError("INVALID_FOLDER", "folder must be a folder id or UNCLASSIFIED.");
  const due = dueFromForm({ date: values.dueDate, time: values.dueTime, zone: values.zone });
  return { ...values, assigneeId, priority: values.priority, status: values.status, folderId, due };
}

async function saveTask(web: WebContext, page: PageRequest, ref: ContentRef | undefined) {
  const groupId = pathPair(page, "group");
  const values = readValues(page.form, page.chrome.timeZone);
  try {
    const draft = draftOf(values);
    const task =
      ref === undefined
        ? await createTask(web, page.actor, { groupId, draft })
        : await updateTask(web, page.actor, { ref, change: draft });
    return page.redirect(itemPath({ kind: "TASK", groupId, id: task.id }));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const view = await readTaskForm(web, page.actor, { groupId, ...(ref ? { ref } : {}) });
    return taskForm(page, view, values, errorText(page.chrome.lang, error.code, error.message));
  }
}

function taskForm(page: PageRequest, view: TaskFormView, values: TaskFormValues, error?: string) {
  const { chrome } = page;
  const list = `/g/${formatPair(view.group.id)}/tasks`;
  const heading = chrome.t(view.task ? "taskForm.editTitle" : "taskForm.newTitle");
  const option = (value: string, label: string, current: string) => ({ value, label, selected: value === current });
  return page.render(
    "task-form",
    {
      title: `${heading} · ${view.task?.title ?? view.group.name}`,
      heading,
      group: view.group,
      area: "tasks",
      mentionSource: mentionSource(chrome, view.group.id),
      action: chrome.u(
        view.task ? `${itemPath({ kind: "TASK", groupId: view.group.id, id: view.task.id })}/edit` : `${list}/new`,
      ),
      cancelHref: chrome.u(view.task ? itemPath({ kind: "TASK", groupId: view.group.id, id: view.task.id }) : list),
      values,
      isNew: view.task === undefined,
      assignees: [
        option("", chrome.t("tasks.nobody"), values.assignee),
        ...view.members.map((m) => option(formatPair(m.userId), m.name, values.assignee)),
      ],
      priorities: TASK_PRIORITIES.map((p) => option(p, chrome.t(`taskForm.priority${p}`), values.priority)),
      statuses: TASK_STATUSES.map((s) => option(s, taskStatusLabel(s, chrome.lang), values.status)),
      folders: [
        option("", chrome.t("topic.noFolder"), values.folder),
        ...view.folders.map((f) => option(formatPair(f.id), f.name, values.folder)),
      ],
      error,
    },
    error === undefined ? 200 : 400,
  );
}
