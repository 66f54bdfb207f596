// A group's task list (`/g/1:n/tasks`: filters by state, folder and due range) and a task's page.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { type ContentRef, formatPair } from "../../domain/item-id.js";
import {
  TASK_STATUSES,
  type Task,
  type TaskFilter,
  type Term,
  isTaskStatus,
  resolveTerm,
  taskStatusLabel,
} from "../../domain/task.js";
import { readFolderParameter } from "../../http-kit/parameters.js";
import { type QueryValues, queryValue } from "../../http-kit/query.js";
import { readTaskListPage } from "../../services/item/area-page.js";
import { readTaskPage } from "../../services/item/item-page.js";
import { isOverdue } from "../../domain/task-due.js";
import type { Chrome } from "../chrome.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { PAGE_SIZE, paged, readPageNumber, withQuery } from "../paging.js";
import { filterKey, folderLinks } from "./board.js";
import { commentFeedHref, itemFolderHref, itemPath, itemSections, requestedComments } from "./item-view.js";
import { areaHead } from "./area-head.js";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `/g/:group/tasks` and `/g/:group/tasks/:task`. */
export function registerTaskPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/tasks", { GET: (page) => taskListPage(web, page) });
  registerPage(app, web, "/g/:group/tasks/:task", { GET: (page) => taskPage(web, page) });
}

/** The filters as the form sent them. */
export interface TaskFilters {
  readonly state: string;
  readonly folder: string;
  readonly from: string;
  readonly to: string;
}

/** The list's filters as the query gives them (the page's form, and its download's link). */
export function readTaskFilters(query: QueryValues): TaskFilters {
  return {
    state: queryValue(query, "state") ?? "",
    folder: queryValue(query, "folder") ?? "",
    from: queryValue(query, "from") ?? "",
    to: queryValue(query, "to") ?? "",
  };
}

/** The store's filter of the form's state and due range. @throws ValidationError INVALID_DATE, and the term's own */
export function taskFilterOf(filters: TaskFilters, now: number): TaskFilter {
  return {
    term: dueTerm(filters, now),
    notCompletedOnly: filters.state === "NOT_COMPLETED",
    ...(isTaskStatus(filters.state) ? { status: filters.state } : {}),
  };
}

async function taskListPage(web: WebContext, page: PageRequest) {
  const groupId = pathPair(page, "group");
  const filters = readTaskFilters(page.query);
  const folder = readFolderParameter(filters.folder, "folder");
  let error: string | undefined;
  let filter: TaskFilter;
  try {
    filter = taskFilterOf(filters, web.clock.now());
  } catch (problem) {
    if (!(problem instanceof ValidationError)) throw problem;
    error = errorText(page.chrome.lang, problem.code, problem.message);
    // A refused due range lists as if none was given.
    filter = taskFilterOf({ ...filters, from: "", to: "" }, web.clock.now());
  }
  const request = readPageNumber(page.query);
  const view = await readTaskListPage(web, page.actor, { groupId, folder, filter, page: request.fetch });
  const path = `/g/${formatPair(groupId)}/tasks`;
  const feedQuery = new URLSearchParams({ group: formatPair(groupId) });
  if (filterKey(folder) !== "") feedQuery.set("task-folder", filterKey(folder));
  if (filters.state === "NOT_COMPLETED") feedQuery.set("status", "NOT_COMPLETED");
  return page.render(
    "tasks",
    {
      ...areaHead(web, page, view.group, "tasks", feedQuery),
      filters,
      error,
      states: [
        { value: "", label: page.chrome.t("tasks.anyState") },
        { value: "NOT_COMPLETED", label: page.chrome.t("tasks.notCompleted") },
        ...TASK_STATUSES.map((status) => ({ value: status, label: taskStatusLabel(status, page.chrome.lang) })),
      ],
      folderOptions: folderLinks(page.chrome, path, view.folders, filterKey(folder), {
        all: page.chrome.t("tasks.anyFolder"),
      }).map((link) => ({ value: link.key, label: link.label })),
      action: page.chrome.u(path),
      manageFoldersHref: view.mayManageFolders ? page.chrome.u(`${path}/folders`) : undefined,
      // The download keeps the filters that were understood (a refused due range shows no link).
      exportHref: error === undefined ? page.chrome.u(withQuery(`${path}/export`, { ...filters })) : undefined,
      newTaskHref: page.chrome.u(
        withQuery(`${path}/new`, { folder: folder.kind === "folder" ? filters.folder : undefined }),
      ),
      inTrash: folder.kind === "trash",
      back: { ...filters, page: request.number === 1 ? "" : String(request.number) },
      tasks: paged(
        view.tasks.map((task) => ({ ...taskRow(page.chrome, task, web.clock.now()), mark: view.unread.get(task.id) })),
        request,
        (n) => page.chrome.u(withQuery(path, { ...filters, page: n })),
      ),
      resetHref: page.chrome.u(path),
      pageSize: PAGE_SIZE,
    },
    error === undefined ? 200 : 400,
  );
}

/** The due range of the form: whole days, checked by the API's rules (at most 365 days, 1900-2100). */
function dueTerm(filters: TaskFilters, now: number): Term | undefined {
  const day = (text: string, name: string) => {
    if (text === "") return undefined;
    const ms = DATE.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
    if (Number.isNaN(ms)) throw new ValidationError("INVALID_DATE", `${name} must be a date such as 2026-04-01.`);
    return ms;
  };
  const start = day(filters.from, "Due from");
  const end = day(filters.to, "Due until");
  // The last day counts whole; a range of one day (from = to) is allowed.
  return resolveTerm(start, end === undefined ? undefined : end + DAY_MS - 1, now);
}

function taskRow(chrome: Chrome, task: Task, now: number) {
  const path = itemPath({ kind: "TASK", groupId: task.groupId, id: task.id });
  const done = task.status === "COMPLETED";
  return {
    ...task,
    href: chrome.u(path),
    statusLabel: taskStatusLabel(task.status, chrome.lang),
    due: dueText(chrome, task),
    overdue: isOverdue(task, now),
    // Done and reopen for tasks that are not in the trash (the trash has its own buttons).
    stateAction: task.trashed ? undefined : chrome.u(`${path}/${done ? "reopen" : "complete"}`),
    stateLabel: chrome.t(done ? "tasks.reopen" : "tasks.complete"),
  };
}

/** An all-day due date as that day; a due time as a moment in the reader's zone. */
function dueText(chrome: Chrome, task: Task): string | undefined {
  if (task.dueAt === null) return undefined;
  return (task.allDay ? chrome.dayTag(task.dueAt) : chrome.timeTag(task.dueAt)).value;
}

async function taskPage(web: WebContext, page: PageRequest) {
  const ref: ContentRef = { kind: "TASK", groupId: pathPair(page, "group"), id: pathPair(page, "task") };
  const { request, window } = requestedComments(page);
  const view = await readTaskPage(web, page.actor, { ref, page: window });
  const path = itemPath(ref);
  const live = !view.task.trashed;
  const action = (name: string, allowed: boolean) => (allowed ? page.chrome.u(`${path}/${name}`) : undefined);
  return page.render("task", {
    title: `${view.task.title} · ${view.group.name}`,
    group: view.group,
    area: "tasks",
    feed: { title: view.task.title, href: commentFeedHref(web.baseUrl(), ref) },
    task: taskRow(page.chrome, view.task, web.clock.now()),
    actions: {
      edit: action("edit", live),
      trash: action("trash", live && view.mayDelete),
      restore: action("restore", !live && view.mayDelete),
      purge: action("delete", !live && view.mayDelete),
    },
    folderHref: itemFolderHref(page.chrome, ref, view.task.folderId),
    ...itemSections(page, ref, view, request),
  });
}
