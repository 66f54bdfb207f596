// A user's own ToDo items (docs/api.md "Personal ToDo"): the fields of a group task without group,
// assignee, folder or trash, visible to their owner only. The owner is their author.
import { NotFoundError, ValidationError } from "./errors.js";
import { parsePersonalTaskId } from "./item-id.js";
import type { TaskDue } from "./task-due.js";
import { type TaskPriority, type TaskStatus, checkTaskText } from "./task.js";

/** A personal task; `sequence` numbers it among its owner's tasks (`cbl:task sequence`). */
export interface PersonalTask {
  readonly id: number;
  readonly ownerId: number;
  readonly ownerName: string;
  readonly sequence: number;
  readonly title: string;
  readonly body: string;
  readonly dueAt: number | null;
  readonly allDay: boolean;
  readonly priority: TaskPriority;
  readonly status: TaskStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Everything a personal task's write sets (an update replaces them all, as for topics). */
export interface PersonalTaskDraft {
  readonly title: string;
  readonly body: string;
  readonly due: TaskDue;
  readonly priority: TaskPriority;
  readonly status: TaskStatus;
}

/**
 * Checks a draft with the limits of group tasks.
 * @throws ValidationError TASK_TITLE_REQUIRED, TASK_TITLE_TOO_LONG, TASK_BODY_TOO_LONG
 */
export function checkPersonalTaskDraft(draft: PersonalTaskDraft): PersonalTaskDraft {
  checkTaskText(draft);
  return draft;
}

/**
 * Personal tasks carry no comments, likes or favorites, and no one but their owner may learn that
 * one exists: for an id of a personal task, the owner is told the item does not take `what`, and
 * anyone else that there is no such task. Other ids pass.
 * @throws ValidationError PERSONAL_TASK_NOT_SUPPORTED; NotFoundError TASK_NOT_FOUND
 */
export function refusePersonalTaskId(text: string, callerId: number, what: string): void {
  const ref = parsePersonalTaskId(text);
  if (ref === undefined) return;
  if (ref.ownerId !== callerId) throw new NotFoundError("TASK_NOT_FOUND", "The task does not exist.");
  throw new ValidationError("PERSONAL_TASK_NOT_SUPPORTED", `Personal tasks take no ${what}: they are private.`);
}
