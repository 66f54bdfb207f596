import { element } from "../atom/build.js";
import { type PersonalTaskRef, formatContentId, formatPersonalTaskId, formatPair } from "../domain/item-id.js";
import type { PersonalTask } from "../domain/personal-task.js";
import type { Locale } from "../domain/task.js";
import type { TodoItem, TodoView } from "../services/todo/todo.js";
import { type Viewer, authoredHead, feedDocument, newestOf } from "./feed.js";
import type { ItemLinks } from "../domain/item-links.js";
import { taskEntry, taskEntryOf } from "./task.js";
import { changeParts, nextChangesLink } from "./changes.js";

/** The web page of a personal task (its edit form on the ToDo page). */
export function personalTaskLinks(baseUrl: string, ref: PersonalTaskRef): ItemLinks {
  const path = `/todo/${formatPair(ref.id)}`;
  return { alternate: `${baseUrl}${path}`, mobile: `${baseUrl}/m${path}` };
}

/**
 * The ToDo feed (`GET /api/task/V2`), titled like the other personal feeds; `cbl:totalCount` counts
 * the rows over all pages.
 */
export function todoFeed(
  baseUrl: string,
  viewer: Viewer,
  view: TodoView,
  locale: Locale,
  now: number,
  nextChanges?: string | undefined,
): string {
  // Delta sync keys: personal task ids, and minus group task ids (services/todo/todo.ts).
  const { tombstones, entries } = changeParts(
    view.changes,
    view.items,
    (item) => (item.kind === "group" ? -item.task.id : item.task.id),
    (item) => todoEntry(baseUrl, item, locale),
    (gone) =>
      gone.itemId < 0
        ? formatContentId({ kind: "TASK", groupId: gone.parentId, id: -gone.itemId })
        : formatPersonalTaskId({ ownerId: viewer.id, id: gone.itemId }),
  );
  return feedDocument(
    {
      title: "ToDo",
      id: `${baseUrl}/api/task/V2`,
      alternate: `${baseUrl}/todo`,
      viewer,
      updated: newestOf(
        view.items.map((item) => item.task),
        now,
      ),
      extra: element("cbl:totalCount", {}, String(view.total)) + nextChangesLink(nextChanges) + tombstones,
    },
    entries,
  );
}

/** The answer to a write of a personal task: that task's entry (a delete answers the deleted task's). */
export function personalTaskFeed(baseUrl: string, viewer: Viewer, task: PersonalTask, locale: Locale): string {
  return todoFeed(
    baseUrl,
    viewer,
    { items: [{ kind: "personal", task }], total: 1, group: undefined },
    locale,
    task.updatedAt,
  );
}

function todoEntry(baseUrl: string, item: TodoItem, locale: Locale): string {
  if (item.kind === "group") return taskEntry(baseUrl, item.group, item.task, { locale, ...item });
  return personalTaskEntry(baseUrl, item.task, locale);
}

/**
 * A personal task in the gwTask shape: categories `MYPAGE`, `TASK`, no `cbl:group`, assignee or
 * folder; always confirmed (no one is notified of it) and without comments (it takes none).
 */
export function personalTaskEntry(baseUrl: string, task: PersonalTask, locale: Locale): string {
  const ref = { ownerId: task.ownerId, id: task.id };
  const author = { title: task.title, authorName: task.ownerName, authorId: task.ownerId, updatedAt: task.updatedAt };
  return taskEntryOf({
    head: authoredHead(formatPersonalTaskId(ref), personalTaskLinks(baseUrl, ref), author, task.body),
    task,
    locale,
    place: "",
    folder: "",
    confirmed: true,
    comments: "",
  });
}
