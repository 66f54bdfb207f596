// The signed-in person's ToDo (`/todo`): the tasks assigned to them in their groups (each linking
// to its page in its group) and their personal tasks, which they add, change, mark done and delete
// here (`/todo/new`, `/todo/1:n`, `/todo/1:n/complete|reopen|delete`). Plain forms.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { type PersonalTaskRef, formatPair } from "../../domain/item-id.js";
import type { PersonalTask, PersonalTaskDraft } from "../../domain/personal-task.js";
import { TASK_PRIORITIES, TASK_STATUSES, taskStatusLabel } from "../../domain/task.js";
import { dueToForm, isOverdue } from "../../domain/task-due.js";
import { queryValue } from "../../http-kit/query.js";
import {
  createPersonalTask,
  deletePersonalTask,
  getPersonalTask,
  updatePersonalTask,
} from "../../services/todo/personal-task.js";
import { type TodoItem, listTodo } from "../../services/todo/todo.js";
import type { Chrome } from "../chrome.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { paged, readPageNumber, withQuery } from "../paging.js";
import { itemPath } from "./item-view.js";
import { type TaskFormValues, draftOf, emptyValues, readValues } from "./task-edit.js";

/** `/todo` and the writes of personal tasks. */
export function registerTodoPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/todo", { GET: (page) => todoPage(web, page) });
  registerPage(app, web, "/todo/new", {
    GET: async (page) => todoForm(page, undefined, emptyValues(page.chrome.timeZone)),
    POST: (page) => saveTask(web, page, undefined),
  });
  registerPage(app, web, "/todo/:task", {
    GET: async (page) => {
      const task = await getPersonalTask(web, page.actor, refOf(page));
      return todoForm(page, task, valuesOf(task, page.chrome.timeZone));
    },
    POST: (page) => saveTask(web, page, refOf(page)),
  });
  for (const [name, status] of [
    ["complete", "COMPLETED"],
    ["reopen", "NOT_STARTED"],
  ] as const) {
    registerPage(app, web, `/todo/:task/${name}`, {
      async POST(page) {
        await updatePersonalTask(web, page.actor, { ref: refOf(page), change: { status } });
        return page.redirect(listPath(page.form.get("state") ?? ""));
      },
    });
  }
  registerPage(app, web, "/todo/:task/delete", {
    async POST(page) {
      await deletePersonalTask(web, page.actor, { ref: refOf(page) });
      return page.redirect(listPath(page.form.get("state") ?? ""));
    },
  });
}

/** A personal task of the signed-in person (anyone else's is not found). */
function refOf(page: PageRequest): PersonalTaskRef {
  return { ownerId: page.actor.user.id, id: pathPair(page, "task") };
}

/** The list with its one filter: `state=open` hides what is done. */
function listPath(state: string): string {
  return withQuery("/todo", { state: state === "open" ? "open" : undefined });
}

async function todoPage(web: WebContext, page: PageRequest) {
  const { chrome } = page;
  const state = queryValue(page.query, "state") === "open" ? "open" : "";
  const request = readPageNumber(page.query);
  const view = await listTodo(web, page.actor, {
    groupId: undefined,
    filter: { term: undefined, notCompletedOnly: state === "open" },
    page: request.fetch,
    embedComments: false,
  });
  const now = web.clock.now();
  return page.render("todo", {
    title: chrome.t("todo.title"),
    section: "todo",
    feed: { title: chrome.t("todo.title"), href: `${web.baseUrl()}/api/task/V2` },
    state,
    states: [
      { value: "", label: chrome.t("todo.all") },
      { value: "open", label: chrome.t("todo.open") },
    ],
    action: chrome.u("/todo"),
    addAction: chrome.u("/todo/new"),
    zone: chrome.timeZone,
    priorities: TASK_PRIORITIES.map((p) => ({
      value: p,
      label: chrome.t(`taskForm.priority${p}`),
      selected: p === "B",
    })),
    tasks: paged(
      view.items.map((item) => todoRow(chrome, item, now)),
      request,
      (n) => chrome.u(withQuery("/todo", { state: state || undefined, page: n })),
    ),
  });
}

function todoRow(chrome: Chrome, item: TodoItem, now: number) {
  const { task } = item;
  const done = task.status === "COMPLETED";
  const path =
    item.kind === "personal"
      ? `/todo/${formatPair(task.id)}`
      : itemPath({ kind: "TASK", groupId: item.task.groupId, id: task.id });
  return {
    title: task.title,
    href: chrome.u(path),
    where: item.kind === "group" ? item.group.name : chrome.t("todo.personal"),
    personal: item.kind === "personal",
    status: task.status,
    statusLabel: taskStatusLabel(task.status, chrome.lang),
    due: task.dueAt === null ? undefined : (task.allDay ? chrome.dayTag(task.dueAt) : chrome.timeTag(task.dueAt)).value,
    overdue: isOverdue(task, now),
    priority: task.priority,
    // A group task's own done and reopen routes bring the person back here (`back=todo`).
    stateAction: chrome.u(`${path}/${done ? "reopen" : "complete"}`),
    stateLabel: chrome.t(done ? "tasks.reopen" : "tasks.complete"),
    deleteAction: item.kind === "personal" ? chrome.u(`${path}/delete`) : undefined,
  };
}

function valuesOf(task: PersonalTask, zone: string): TaskFormValues {
  const due = dueToForm(task.dueAt === null ? null : { dueAt: task.dueAt, allDay: task.allDay }, zone);
  return {
    ...emptyValues(zone),
    title: task.title,
    body: task.body,
    dueDate: due.date,
    dueTime: due.time,
    priority: task.priority,
    status: task.status,
  };
}

async function saveTask(web: WebContext, page: PageRequest, ref: PersonalTaskRef | undefined) {
  const values = readValues(page.form, page.chrome.timeZone);
  try {
    // The form has no assignee or folder: the task form's reading of the rest is the same.
    const { title, body, due, priority, status } = draftOf({
      ...values,
      assignee: "",
      folder: "",
      status: values.status || "NOT_STARTED",
      priority: values.priority || "B",
    });
    const draft: PersonalTaskDraft = { title, body, due, priority, status };
    if (ref === undefined) await createPersonalTask(web, { ownerId: page.actor.user.id, draft });
    else await updatePersonalTask(web, page.actor, { ref, change: draft });
    return page.redirect("/todo");
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const task = ref === undefined ? undefined : await getPersonalTask(web, page.actor, ref);
    return todoForm(page, task, values, errorText(page.chrome.lang, error.code, error.message));
  }
}

function todoForm(page: PageRequest, task: PersonalTask | undefined, values: TaskFormValues, error?: string) {
  const { chrome } = page;
  const heading = chrome.t(task ? "todo.editTitle" : "todo.newTitle");
  const option = (value: string, label: string, current: string) => ({ value, label, selected: value === current });
  return page.render(
    "task-form",
    {
      title: task ? `${heading} · ${task.title}` : heading,
      heading,
      section: "todo",
      action: chrome.u(task ? `/todo/${formatPair(task.id)}` : "/todo/new"),
      cancelHref: chrome.u("/todo"),
      values,
      isNew: task === undefined,
      priorities: TASK_PRIORITIES.map((p) => option(p, chrome.t(`taskForm.priority${p}`), values.priority)),
      statuses: TASK_STATUSES.map((s) => option(s, taskStatusLabel(s, chrome.lang), values.status || "NOT_STARTED")),
      error,
    },
    error === undefined ? 200 : 400,
  );
}
