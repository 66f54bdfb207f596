import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import type { FolderFilter } from "../../domain/folder.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import type { Task, TaskFilter } from "../../domain/task.js";
import type { PageWindow } from "../../store/page-window.js";
import type { Tx } from "../../store/store.js";
import type { CommentDetail } from "../comment/comment-detail.js";
import { commentsByItem } from "../comment/embedded-comments.js";
import { requireFolderOf } from "../group/folder-access.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";
import { type ChangeCursor, showsTask } from "../../domain/changes.js";
import { type ChangeFeed, type ChangesView, latestCursor, readChanges } from "../item/changes.js";

/** What a task read returns: the group, its tasks, their comments when asked for, and what the caller confirmed. */
export interface TaskListView {
  readonly group: Group;
  readonly tasks: readonly Task[];
  /** Comments per task id, newest first; undefined when comments were not asked for. */
  readonly comments: ReadonlyMap<number, readonly CommentDetail[]> | undefined;
  /** Ids of the tasks whose latest change the caller has confirmed (`cbl:confirmed`). */
  readonly confirmed: ReadonlySet<number>;
  /** A list read's delta sync: the next cursor, and the changes of a changes-since read. */
  readonly changes?: ChangesView;
}

/**
 * A page of a group's tasks, or with `changesSince` its changes after the cursor (docs/api.md "Delta sync").
 * @throws NotFoundError GROUP_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 * @throws ValidationError, GoneError (a cursor)
 */
export async function listTasks(
  ctx: ServiceContext,
  actor: Actor,
  input: {
    groupId: number;
    folder: FolderFilter;
    filter: TaskFilter;
    page: PageWindow;
    embedComments: boolean;
    changesSince?: ChangeCursor | undefined;
  },
): Promise<TaskListView> {
  return ctx.store.read(async (tx) => {
    const feed = taskChanges(input.groupId, input.folder, input.filter);
    if (input.changesSince !== undefined) {
      const read = await readChanges(tx, actor, feed, input.changesSince, input.page.limit);
      return { ...(await viewOf(tx, actor, read.group, read.items, input.embedComments)), changes: read.changes };
    }
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    await feed.check?.(tx, group);
    const changes = await latestCursor(tx, feed.scope);
    const tasks = await tx.tasks.list(group.id, input.folder, input.filter, input.page);
    return { ...(await viewOf(tx, actor, group, tasks, input.embedComments)), changes };
  });
}

/** The task list as delta sync follows it: the group's tasks, shown as the list's filters show them. */
function taskChanges(groupId: number, folder: FolderFilter, filter: TaskFilter): ChangeFeed<Task> {
  return {
    scope: { groupId, kind: "TASK", parentId: 0 },
    async load(tx, ids) {
      const found = await Promise.all(ids.map((id) => tx.tasks.findById(id)));
      return found.filter((task) => task !== undefined && task.groupId === groupId) as Task[];
    },
    idOf: (task) => task.id,
    shows: (task) => showsTask(task, folder, filter),
    async check(tx, group) {
      if (folder.kind === "folder") await requireFolderOf(tx, group.id, folder.folderId, "TASK");
    },
  };
}

/** One task, in the same form as the list. @throws NotFoundError TASK_NOT_FOUND, ForbiddenError */
export async function getTask(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; embedComments: boolean },
): Promise<TaskListView> {
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.ref.groupId);
    return viewOf(tx, actor, group, [await requireTask(tx, input.ref)], input.embedComments);
  });
}

/** @throws NotFoundError TASK_NOT_FOUND (also when the id names another group) */
export async function requireTask(tx: Tx, ref: ContentRef): Promise<Task> {
  const task = ref.kind === "TASK" ? await tx.tasks.findById(ref.id) : undefined;
  if (!task || task.groupId !== ref.groupId) throw new NotFoundError("TASK_NOT_FOUND", "The task does not exist.");
  return task;
}

async function viewOf(
  tx: Tx,
  actor: Actor,
  group: Group,
  tasks: readonly Task[],
  embedComments: boolean,
): Promise<TaskListView> {
  const refs = tasks.map((task): ContentRef => ({ kind: "TASK", groupId: task.groupId, id: task.id }));
  return {
    group,
    tasks,
    comments: embedComments ? await commentsByItem(tx, actor.user.id, refs) : undefined,
    confirmed: await confirmedByCaller(tx, actor, refs),
  };
}

/**
 * The tasks the caller has no unconfirmed notification of: everything that changed since was
 * confirmed (or was the caller's own doing).
 */
export async function confirmedByCaller(
  tx: Tx,
  actor: Actor,
  items: readonly ContentRef[],
): Promise<ReadonlySet<number>> {
  const unconfirmed = await tx.notifications.unconfirmedOf(
    actor.user.id,
    "TASK",
    items.map((item) => item.id),
  );
  return new Set(items.filter((item) => !unconfirmed.has(item.id)).map((item) => item.id));
}
