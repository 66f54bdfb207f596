// The one place tasks are written. Members write them in the web interface (the API reads tasks
// only); operators write them with `kairan task` through task-admin.ts, which names people by
// e-mail address and then calls insertTask and applyTaskChange below. Every member of the group
// may add tasks, change them and mark them done; the author and the managers move them to the
// trash and back and delete them for good. The same text limits everywhere (checkTaskText); the
// other members are notified of each change.
import { notifyMentions } from "../notification/mention.js";
import { logAssignment } from "../mail-notify/log.js";
import type { Actor } from "../../domain/access.js";
import type { Folder } from "../../domain/folder.js";
import type { Group, Membership } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import { ValidationError } from "../../domain/errors.js";
import { taskChangeOf } from "../../domain/notification.js";
import {
  type Task,
  type TaskPriority,
  type TaskStatus,
  checkTaskText,
  requireMayDeleteTask,
  requireTaskTrashed,
} from "../../domain/task.js";
import type { TaskDue } from "../../domain/task-due.js";
import type { NewTask, TaskChange } from "../../store/queries/tasks.js";
import type { Tx } from "../../store/store.js";
import { removeBlobs, removeCommentsOf, removeItemRows } from "../comment/comment-detail.js";
import { requireFolderOf } from "../group/folder-access.js";
import { requireGroupMember } from "../group/group-access.js";
import { requireTask } from "./task.js";
import type { ServiceContext } from "../context.js";
import { queueItemDeleted } from "../webhook/enqueue.js";

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
export async function createTask(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; draft: TaskDraft },
): Promise<Task> {
  const text = checkTaskText(input.draft);
  return ctx.store.transaction(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    return insertTask(
      tx,
      { groupId: group.id, authorId: actor.user.id, draft: { ...input.draft, ...text } },
      ctx.clock.now(),
    );
  });
}

/**
 * Inserts a task whose author has joined its group (the caller checked), inside the caller's
 * transaction; the other members are notified and the members its text names are mentioned.
 * @throws ValidationError USER_NOT_MEMBER; NotFoundError FOLDER_NOT_FOUND
 */
export async function insertTask(
  tx: Tx,
  input: { groupId: number; authorId: number; draft: TaskDraft },
  at: number,
): Promise<Task> {
  const { draft, authorId } = input;
  await requirePlaces(tx, input.groupId, draft);
  const task = await recordTask(tx, {
    groupId: input.groupId,
    title: draft.title,
    body: draft.body,
    authorId,
    assigneeId: draft.assigneeId,
    dueAt: draft.due?.dueAt ?? null,
    allDay: draft.due?.allDay ?? false,
    priority: draft.priority,
    status: draft.status,
    folderId: draft.folderId,
    trashed: false,
    at,
  });
  await tx.notifications.fanOut({ item: taskRef(task), actorId: authorId, cause: { kind: "created" }, at });
  await notifyMentions(tx, { item: taskRef(task), commentNumber: null, text: task.body, actorId: authorId, at });
  await logAssignment(tx, { task: taskRef(task), assigneeId: task.assigneeId, actorId: authorId, at });
  return task;
}

/**
 * Changes a task: every field of the form, or only its state (done, reopened).
 * @throws ValidationError, NotFoundError TASK_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED; ConflictError TASK_IN_TRASH
 */
export async function updateTask(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; change: TaskDraft | { readonly status: TaskStatus } },
): Promise<Task> {
  const { change } = input;
  const text = "title" in change ? checkTaskText(change) : undefined;
  return writeTask(ctx, actor, input.ref, async (tx, task, at) => {
    requireTaskTrashed(task, false);
    if (!("title" in change)) return { status: change.status, at };
    await requirePlaces(tx, task.groupId, change);
    return {
      ...text,
      assigneeId: change.assigneeId,
      dueAt: change.due?.dueAt ?? null,
      allDay: change.due?.allDay ?? false,
      priority: change.priority,
      status: change.status,
      folderId: change.folderId,
      at,
    };
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
    return { trashed: input.trashed, at };
  });
}

/**
 * Deletes a task in the trash for good, with its comments, their files, likes, favorites and notifications.
 * @throws NotFoundError TASK_NOT_FOUND; ForbiddenError TASK_DELETE_FORBIDDEN; ConflictError TASK_NOT_IN_TRASH
 */
export async function deleteTask(ctx: ServiceContext, actor: Actor, input: { ref: ContentRef }): Promise<Task> {
  const { task, keys } = await ctx.store.transaction(async (tx) => {
    const { membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const found = await requireTask(tx, input.ref);
    requireMayDeleteTask(found, actor.user.id, membership);
    requireTaskTrashed(found, true);
    const removed = await removeCommentsOf(tx, input.ref);
    await removeItemRows(tx, "TASK", [found.id]);
    await tx.tasks.remove(found.id);
    await queueItemDeleted(tx, input.ref, actor.user.id, ctx.clock.now());
    return { task: found, keys: removed };
  });
  await removeBlobs(ctx.blobs, keys);
  return task;
}

/** One change of a task by a member in one transaction, checked and built by `change`. */
async function writeTask(
  ctx: ServiceContext,
  actor: Actor,
  ref: ContentRef,
  change: (tx: Tx, task: Task, at: number, membership: Membership) => Promise<TaskChange>,
): Promise<Task> {
  return ctx.store.transaction(async (tx) => {
    const { membership } = await requireGroupMember(tx, actor, ref.groupId);
    const task = await requireTask(tx, ref);
    await applyTaskChange(tx, task, await change(tx, task, ctx.clock.now(), membership), actor.user.id);
    return requireTask(tx, ref);
  });
}

/**
 * Writes a change of a task inside the caller's transaction. The members hear of it but the
 * writer (`null`: the operator, so everyone); a changed text also says so, and mentions whom it
 * newly names.
 */
export async function applyTaskChange(tx: Tx, task: Task, change: TaskChange, writerId: number | null): Promise<void> {
  await tx.tasks.update(task.id, change);
  const bodyChanged = change.body !== undefined && change.body !== task.body;
  const item = taskRef(task);
  const named = taskChangeOf(task, change);
  const cause = { kind: "updated", bodyChanged, ...(named === undefined ? {} : { change: named }) } as const;
  await tx.notifications.fanOut({ item, actorId: writerId, cause, at: change.at });
  if (change.assigneeId !== undefined && change.assigneeId !== task.assigneeId)
    await logAssignment(tx, { task: item, assigneeId: change.assigneeId, actorId: writerId, at: change.at });
  if (change.body === undefined) return;
  const written = { item, commentNumber: null, text: change.body, previousText: task.body };
  await notifyMentions(tx, { ...written, actorId: writerId, at: change.at });
}

/** @throws ValidationError USER_NOT_MEMBER; NotFoundError FOLDER_NOT_FOUND */
async function requirePlaces(tx: Tx, groupId: number, draft: TaskDraft): Promise<void> {
  if (draft.folderId !== null) await requireFolderOf(tx, groupId, draft.folderId, "TASK");
  if (draft.assigneeId !== null && !(await tx.memberships.findJoined(groupId, draft.assigneeId)))
    throw new ValidationError("USER_NOT_MEMBER", "The assignee must be a member of this group.");
}

/** The task's reference, as notifications and mentions name it. */
export function taskRef(task: Pick<Task, "groupId" | "id">): ContentRef {
  return { kind: "TASK", groupId: task.groupId, id: task.id };
}

/**
 * The one insert of tasks, inside the caller's transaction, everything checked by the caller: for
 * insertTask, and for the import, which keeps the original's author and times and tells no one.
 */
export async function recordTask(tx: Tx, task: NewTask): Promise<Task> {
  return tx.tasks.insert(task);
}
