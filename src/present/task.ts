import { element, utcDate, utcTimestamp } from "../atom/build.js";
import type { Group } from "../domain/group.js";
import { type ContentRef, formatContentId, formatGroupId, formatPair } from "../domain/item-id.js";
import { type Locale, type Task, taskStatusLabel } from "../domain/task.js";
import type { TaskListView } from "../services/task/task.js";
import type { CommentDetail } from "../services/comment/comment-detail.js";
import { embeddedCommentsElement } from "./embedded-comments.js";
import { type EntryHead, type Viewer, feedDocument, newestOf, authoredHead, itemEntry } from "./feed.js";
import { areaLinks, contentLinks } from "../domain/item-links.js";
import { groupElement } from "./topic.js";
import { changeParts, nextChangesLink } from "./changes.js";

/** The task-list feed (`GET /api/gwTask/V2`): a page of tasks, or one task. */
export function taskFeed(
  baseUrl: string,
  viewer: Viewer,
  view: TaskListView,
  locale: Locale,
  now: number,
  nextChanges?: string | undefined,
): string {
  const { tombstones, entries } = changeParts(
    view.changes,
    view.tasks,
    (task) => task.id,
    (task) =>
      taskEntry(baseUrl, view.group, task, {
        locale,
        confirmed: view.confirmed.has(task.id),
        comments: view.comments?.get(task.id),
      }),
    (gone) => formatContentId({ kind: "TASK", groupId: view.group.id, id: gone.itemId }),
  );
  return feedDocument(
    {
      title: view.group.name,
      id: formatGroupId(view.group.id),
      alternate: areaLinks(baseUrl, view.group.id, "TASK").alternate,
      viewer,
      updated: newestOf(view.tasks, now),
      extra: nextChangesLink(nextChanges) + tombstones,
    },
    entries,
  );
}

/** A task entry: common fields in the order of docs/api.md "Answers", then the task's own. */
export function taskEntry(
  baseUrl: string,
  group: Group,
  task: Task,
  options: { locale: Locale; confirmed: boolean; comments: readonly CommentDetail[] | undefined },
): string {
  const ref: ContentRef = { kind: "TASK", groupId: task.groupId, id: task.id };
  const id = formatContentId(ref);
  return taskEntryOf({
    head: authoredHead(id, contentLinks(baseUrl, ref), task, task.body),
    task,
    locale: options.locale,
    place:
      groupElement(group) +
      (task.assigneeId === null
        ? ""
        : element("cbl:who", { valueString: task.assigneeName ?? "", id: formatPair(task.assigneeId) })),
    folder:
      task.folderId === null
        ? ""
        : element("cblTsk:folder", { valueString: task.folderName ?? "", id: formatPair(task.folderId) }),
    confirmed: options.confirmed,
    comments:
      options.comments === undefined
        ? ""
        : embeddedCommentsElement(baseUrl, { id, title: task.title, updatedAt: task.updatedAt }, options.comments),
  });
}

/** What every task entry, a group's or a personal one, is made of. */
export interface TaskEntryParts {
  readonly head: EntryHead;
  readonly task: Pick<Task, "sequence" | "status" | "dueAt" | "allDay" | "priority">;
  readonly locale: Locale;
  /** `cbl:group` and `cbl:who` (group tasks only), serialised. */
  readonly place: string;
  /** `cblTsk:folder`, serialised; empty when in no folder. */
  readonly folder: string;
  readonly confirmed: boolean;
  /** The embedded comments, serialised; empty when not asked for. */
  readonly comments: string;
}

/** A task entry in the gwTask shape (docs/api.md "Tasks"), its fields in their order. */
export function taskEntryOf(parts: TaskEntryParts): string {
  const { task } = parts;
  return itemEntry(
    parts.head,
    element("cbl:task", { sequence: task.sequence, valueString: taskStatusLabel(task.status, parts.locale) }) +
      parts.place +
      whenElement(task) +
      parts.folder +
      element("cblTsk:priority", {}, task.priority) +
      element("cbl:confirmed", {}, String(parts.confirmed)) +
      parts.comments,
  );
}

/** `cbl:when endTime` (then `allday`, only on all-day tasks); absent without a due date. */
function whenElement(task: Pick<Task, "dueAt" | "allDay">): string {
  if (task.dueAt === null) return "";
  return task.allDay
    ? element("cbl:when", { endTime: utcDate(task.dueAt), allday: "true" })
    : element("cbl:when", { endTime: utcTimestamp(task.dueAt) });
}
