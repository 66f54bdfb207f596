// The operator's task commands (`kairan task ...`): people named by e-mail address, then the same
// writes as the web's (task-write.ts), with no acting member to leave out of a change's notices.
import type { ContentRef } from "../../domain/item-id.js";
import { type Task, type TaskPriority, type TaskStatus, checkTaskText } from "../../domain/task.js";
import type { TaskChange } from "../../store/queries/tasks.js";
import type { Tx } from "../../store/store.js";
import { requireGroup, requireMemberByEmail } from "../admin-lookup.js";
import { requireFolderOf } from "../group/folder-access.js";
import { requireTask } from "./task.js";
import { applyTaskChange, insertTask } from "./task-write.js";
import type { ServiceContext } from "../context.js";

/** A due date as an operator gives it: `null` clears it. */
export type Due = { readonly dueAt: number; readonly allDay: boolean } | null;

/** Where `task move` puts a task. */
export type TaskPlace =
  | { readonly kind: "folder"; readonly folderId: number }
  | { readonly kind: "unclassified" }
  | { readonly kind: "trash" };

/**
 * Adds a task; author and assignee must be members. The other members are notified.
 * @throws ValidationError TASK_TITLE_*, TASK_BODY_TOO_LONG, USER_NOT_MEMBER; NotFoundError GROUP_NOT_FOUND, USER_NOT_FOUND, FOLDER_NOT_FOUND
 */
export async function createTaskAsOperator(
  ctx: ServiceContext,
  input: {
    groupId: number;
    title: string;
    body: string;
    authorEmail: string;
    assigneeEmail?: string | undefined;
    due: Due;
    priority: TaskPriority;
    status: TaskStatus;
    folderId: number | null;
  },
): Promise<Task> {
  const text = checkTaskText(input);
  return ctx.store.transaction(async (tx) => {
    await requireGroup(tx, input.groupId);
    const author = await requireMemberByEmail(tx, input.groupId, input.authorEmail);
    const assigneeId = (await assigneeOf(tx, input.groupId, input.assigneeEmail)) ?? null;
    const draft = { ...input, title: text.title, body: text.body, assigneeId };
    return insertTask(tx, { groupId: input.groupId, authorId: author.user.id, draft }, ctx.clock.now());
  });
}

/**
 * Changes the fields given; an empty assignee e-mail clears the assignee. Every member is notified.
 * @throws ValidationError, NotFoundError TASK_NOT_FOUND, USER_NOT_FOUND
 */
export async function updateTaskAsOperator(
  ctx: ServiceContext,
  input: {
    ref: ContentRef;
    title?: string;
    body?: string;
    assigneeEmail?: string;
    due?: Due;
    priority?: TaskPriority;
    status?: TaskStatus;
  },
): Promise<Task> {
  return ctx.store.transaction(async (tx) => {
    const task = await requireTask(tx, input.ref);
    const text = checkTaskText({ title: input.title ?? task.title, body: input.body ?? task.body });
    const change: TaskChange = {
      ...text,
      assigneeId:
        input.assigneeEmail === undefined
          ? undefined
          : ((await assigneeOf(tx, task.groupId, input.assigneeEmail)) ?? null),
      dueAt: input.due === undefined ? undefined : (input.due?.dueAt ?? null),
      allDay: input.due === undefined ? undefined : (input.due?.allDay ?? false),
      priority: input.priority,
      status: input.status,
      at: ctx.clock.now(),
    };
    await applyTaskChange(tx, task, change, null);
    return requireTask(tx, input.ref);
  });
}

/** Moves a task to a folder, out of every folder, or to the trash. @throws NotFoundError TASK_NOT_FOUND, FOLDER_NOT_FOUND */
export async function moveTaskAsOperator(
  ctx: ServiceContext,
  input: { ref: ContentRef; place: TaskPlace },
): Promise<Task> {
  return ctx.store.transaction(async (tx) => {
    const task = await requireTask(tx, input.ref);
    const { place } = input;
    if (place.kind === "folder") await requireFolderOf(tx, task.groupId, place.folderId, "TASK");
    const change: TaskChange =
      place.kind === "trash"
        ? { trashed: true, at: ctx.clock.now() }
        : { trashed: false, folderId: place.kind === "folder" ? place.folderId : null, at: ctx.clock.now() };
    await applyTaskChange(tx, task, change, null);
    return requireTask(tx, input.ref);
  });
}

async function assigneeOf(tx: Tx, groupId: number, email: string | undefined): Promise<number | undefined> {
  if (email === undefined || email === "") return undefined;
  return (await requireMemberByEmail(tx, groupId, email)).user.id;
}
