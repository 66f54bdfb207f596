// Writes of personal tasks (docs/api.md "Personal ToDo"): the API, the web's ToDo page and the
// command line. A personal task is its owner's alone: anyone else is told it does not exist, and
// no one is notified of its changes.
import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import type { PersonalTaskRef } from "../../domain/item-id.js";
import { type PersonalTask, type PersonalTaskDraft, checkPersonalTaskDraft } from "../../domain/personal-task.js";
import type { TaskStatus } from "../../domain/task.js";
import type { Tx } from "../../store/store.js";
import { requireUserByEmail } from "../admin-lookup.js";
import type { ServiceContext } from "../context.js";

/** A change of a personal task: every field (an update), or only its state (done, reopened). */
export type PersonalTaskChange = PersonalTaskDraft | { readonly status: TaskStatus };

/**
 * Adds a personal task owned by `ownerId` (the caller, or the user an operator names).
 * @throws ValidationError TASK_TITLE_REQUIRED, TASK_TITLE_TOO_LONG, TASK_BODY_TOO_LONG
 */
export async function createPersonalTask(
  ctx: ServiceContext,
  input: { ownerId: number; draft: PersonalTaskDraft },
): Promise<PersonalTask> {
  const draft = checkPersonalTaskDraft(input.draft);
  return ctx.store.transaction((tx) =>
    tx.personalTasks.insert({
      ownerId: input.ownerId,
      title: draft.title,
      body: draft.body,
      dueAt: draft.due?.dueAt ?? null,
      allDay: draft.due?.allDay ?? false,
      priority: draft.priority,
      status: draft.status,
      at: ctx.clock.now(),
    }),
  );
}

/**
 * Adds a personal task for the user with this e-mail address (operators: `kairan task add --user`).
 * @throws NotFoundError USER_NOT_FOUND; ValidationError TASK_TITLE_*, TASK_BODY_TOO_LONG
 */
export async function addPersonalTaskFor(
  ctx: ServiceContext,
  input: { ownerEmail: string; draft: PersonalTaskDraft },
): Promise<PersonalTask> {
  checkPersonalTaskDraft(input.draft);
  const owner = await ctx.store.read((tx) => requireUserByEmail(tx, input.ownerEmail));
  return createPersonalTask(ctx, { ownerId: owner.id, draft: input.draft });
}

/** One of the caller's personal tasks. @throws NotFoundError TASK_NOT_FOUND (also another's) */
export async function getPersonalTask(ctx: ServiceContext, actor: Actor, ref: PersonalTaskRef): Promise<PersonalTask> {
  return ctx.store.read((tx) => requireOwnTask(tx, actor.user.id, ref));
}

/**
 * Changes one of the caller's personal tasks.
 * @throws ValidationError TASK_TITLE_*, TASK_BODY_TOO_LONG; NotFoundError TASK_NOT_FOUND (also another's)
 */
export async function updatePersonalTask(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: PersonalTaskRef; change: PersonalTaskChange },
): Promise<PersonalTask> {
  const { change } = input;
  if ("title" in change) checkPersonalTaskDraft(change);
  return ctx.store.transaction(async (tx) => {
    const task = await requireOwnTask(tx, actor.user.id, input.ref);
    const at = ctx.clock.now();
    await tx.personalTasks.update(
      task.id,
      "title" in change
        ? {
            title: change.title,
            body: change.body,
            dueAt: change.due?.dueAt ?? null,
            allDay: change.due?.allDay ?? false,
            priority: change.priority,
            status: change.status,
            at,
          }
        : { status: change.status, at },
    );
    return requireOwnTask(tx, actor.user.id, input.ref);
  });
}

/** Deletes one of the caller's personal tasks for good. @throws NotFoundError TASK_NOT_FOUND (also another's) */
export async function deletePersonalTask(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: PersonalTaskRef },
): Promise<PersonalTask> {
  return ctx.store.transaction(async (tx) => {
    const task = await requireOwnTask(tx, actor.user.id, input.ref);
    await tx.personalTasks.remove(task.id);
    return task;
  });
}

/**
 * The task, when it exists, belongs to the caller and the id names its owner; otherwise it does
 * not exist for the caller (a 404 tells no one whether another's task exists).
 * @throws NotFoundError TASK_NOT_FOUND
 */
async function requireOwnTask(tx: Tx, callerId: number, ref: PersonalTaskRef): Promise<PersonalTask> {
  const task = ref.ownerId === callerId ? await tx.personalTasks.findById(ref.id) : undefined;
  if (!task || task.ownerId !== callerId) throw new NotFoundError("TASK_NOT_FOUND", "The task does not exist.");
  return task;
}
