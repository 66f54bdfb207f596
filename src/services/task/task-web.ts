// Tasks written by members in the web interface (the API reads tasks only; operators write them
// with `kairan task`). Every member of the group may add tasks, change them and mark them done;
// the author and the managers move them to the trash and back and delete them for good. The
// same text limits as everywhere (checkTaskText); the other members are notified of each change.
import { notifyMentions } from "../notification/mention.js";
import type { Actor } from "../../domain/access.js";
import type { Folder } from "../../domain/folder.js";
import type { Group, Membership } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import { ValidationError } from "../../domain/errors.js";
import {
  type Task,
  type TaskPriority,
  type TaskStatus,
  checkTaskText,
  requireMayDeleteTask,
  requireTaskTrashed,
} from "../../domain/task.js";
import type { TaskDue } from "../../domain/task-due.js";
import type { Tx } from "../../store/store.js";
import { removeBlobs, removeCommentsOf, removeItemRows } from "../comment/comment-detail.js";
import { requireFolderOf } from "../group/folder-access.js";
import { requireGroupMember } from "../group/group-access.js";
import { requireTask } from "./task.js";
import type { ServiceContext } from "../context.js";

/** Everything a task form sets. */
export interface TaskDraft {
  readonly title: string;
  readonly body: string;
  /** A user who has joined the group, or nobody. */
  readonly assigneeId: number | null;
  readonly due: TaskDue;
  readonly priority: TaskPriority;
  readonly status: TaskStatus;
  readonly folderId: number | null;
}

/** What a task form offers: the group's members to assign, its task folders, and the task when editing. */
export interface TaskFormView {
  readonly group: Group;
  readonly members: readonly { readonly userId: number; readonly name: string }[];
  readonly folders: readonly Folder[];
  readonly task: Task | undefined;
}

/** How many members and folders a form offers (more than any group here has). */
const CHOICES = 1000;

/**
 * The choices of a new task's form, or of an existing task's.
 * @throws NotFoundError GROUP_NOT_FOUND, TASK_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED; ConflictError TASK_IN_TRASH
 */
export async function readTaskForm(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; ref?: ContentRef },
): Promise<TaskFormView> {
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    const task = input.ref === undefined ? undefined : await requireTask(tx, input.ref);
    if (task) requireTaskTrashed(task, false);
    const members = await tx.memberships.listMembers(group.id, "JOIN", { offset: 0, limit: CHOICES });
    return {
      group,
      members: members.flatMap((m) => (m.userId === null ? [] : [{ userId: m.userId, name: m.name }])),
      folders: await tx.folders.list(group.id, "TASK", { offset: 0, limit: CHOICES }),
      task,
    };
  });
}

/**
 * Adds a task written by the caller.
 * @throws ValidationError TASK_TITLE_*, TASK_BODY_TOO_LONG, USER_NOT_MEMBER; NotFoundError FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function createTaskAs(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; draft: TaskDraft },
): Promise<Task> {
  const { draft } = input;
  const text = checkTaskText(draft);
  return ctx.store.transaction(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    await requirePlaces(tx, group.id, draft);
    const at = ctx.clock.now();
    const task = await tx.tasks.insert({
      groupId: group.id,
      ...text,
      authorId: actor.user.id,
      assigneeId: draft.assigneeId,
      dueAt: draft.due?.dueAt ?? null,
      allDay: draft.due?.allDay ?? false,
      priority: draft.priority,
      status: draft.status,
      folderId: draft.folderId,
      trashed: false,
      at,
    });
    await tx.notifications.fanOut({ item: refOf(task), actorId: actor.user.id, cause: { kind: "created" }, at });
    await notifyMentions(tx, { item: refOf(task), commentNumber: null, text: task.body, actorId: actor.user.id, at });
    return task;
  });
}

/**
 * Changes a task: every field of the form, or only its state (done, reopened).
 * @throws ValidationError, NotFoundError TASK_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED; ConflictError TASK_IN_TRASH
 */
export async function updateTaskAs(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; change: TaskDraft | { readonly status: TaskStatus } },
): Promise<Task> {
  const { change } = input;
  const text = "title" in change ? checkTaskText(change) : undefined;
  return writeTask(ctx, actor, input.ref, async (tx, task, at) => {
    requireTaskTrashed(task, false);
    if (!("title" in change)) return tx.tasks.update(task.id, { status: change.status, at });
    await requirePlaces(tx, task.groupId, change);
    await tx.tasks.update(task.id, {
      ...text,
      assigneeId: change.assigneeId,
      dueAt: change.due?.dueAt ?? null,
      allDay: change.due?.allDay ?? false,
      priority: change.priority,
      status: change.status,
      folderId: change.folderId,
      at,
    });
    if (text !== undefined) {
      const written = { item: refOf(task), commentNumber: null, text: text.body, previousText: task.body };
      await notifyMentions(tx, { ...written, actorId: actor.user.id, at });
    }
    return text?.body !== task.body;
  });
}

/**
 * Moves a task to the trash or back out (its author and the managers).
 * @throws NotFoundError TASK_NOT_FOUND; ForbiddenError TASK_DELETE_FORBIDDEN; ConflictError TASK_IN_TRASH, TASK_NOT_IN_TRASH
 */
export async function trashTask(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; trashed: boolean },
): Promise<Task> {
  return writeTask(ctx, actor, input.ref, async (tx, task, at, membership) => {
    requireMayDeleteTask(task, actor.user.id, membership);
    requireTaskTrashed(task, !input.trashed);
    await tx.tasks.update(task.id, { trashed: input.trashed, at });
  });
}

/**
 * Deletes a task in the trash for good, with its comments, their files, likes, favorites and notifications.
 * @throws NotFoundError TASK_NOT_FOUND; ForbiddenError TASK_DELETE_FORBIDDEN; ConflictError TASK_NOT_IN_TRASH
 */
export async function deleteTaskForGood(ctx: ServiceContext, actor: Actor, input: { ref: ContentRef }): Promise<Task> {
  const { task, keys } = await ctx.store.transaction(async (tx) => {
    const { membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const found = await requireTask(tx, input.ref);
    requireMayDeleteTask(found, actor.user.id, membership);
    requireTaskTrashed(found, true);
    const removed = await removeCommentsOf(tx, input.ref);
    await removeItemRows(tx, "TASK", [found.id]);
    await tx.tasks.remove(found.id);
    return { task: found, keys: removed };
  });
  await removeBlobs(ctx.blobs, keys);
  return task;
}

/** One change of a task in one transaction; the other members are notified (a changed text says so). */
async function writeTask(
  ctx: ServiceContext,
  actor: Actor,
  ref: ContentRef,
  write: (tx: Tx, task: Task, at: number, membership: Membership) => Promise<boolean | void>,
): Promise<Task> {
  return ctx.store.transaction(async (tx) => {
    const { membership } = await requireGroupMember(tx, actor, ref.groupId);
    const task = await requireTask(tx, ref);
    const at = ctx.clock.now();
    const bodyChanged = (await write(tx, task, at, membership)) === true;
    const cause = { kind: "updated", bodyChanged } as const;
    await tx.notifications.fanOut({ item: refOf(task), actorId: actor.user.id, cause, at });
    return requireTask(tx, ref);
  });
}

/** @throws ValidationError USER_NOT_MEMBER; NotFoundError FOLDER_NOT_FOUND */
async function requirePlaces(tx: Tx, groupId: number, draft: TaskDraft): Promise<void> {
  if (draft.folderId !== null) await requireFolderOf(tx, groupId, draft.folderId, "TASK");
  if (draft.assigneeId !== null && !(await tx.memberships.findJoined(groupId, draft.assigneeId)))
    throw new ValidationError("USER_NOT_MEMBER", "The assignee must be a member of this group.");
}

function refOf(task: Task): ContentRef {
  return { kind: "TASK", groupId: task.groupId, id: task.id };
}
