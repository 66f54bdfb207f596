// Personal tasks of a seed file (docs/operations.md "Seed files"): each user's own ToDo items,
// with the fields and limits of group tasks but no group, assignee or folder.
import { z } from "zod";
import { DomainError } from "../domain/errors.js";
import { formatPersonalTaskId } from "../domain/item-id.js";
import { ALL_DAY_MS, TASK_PRIORITIES, TASK_STATUSES, checkTaskText, parseDue } from "../domain/task.js";
import type { Tx } from "../store/store.js";

/** One task of the seed's `personalTasks`. */
export const seedPersonalTask = z.strictObject({
  ref: z.string().min(1, "must not be empty"),
  owner: z.string().min(1, "must not be empty"),
  title: z.string().trim().min(1, "must not be empty"),
  summary: z.string().default(""),
  due: z
    .string()
    .refine((value) => parseDue(value) !== undefined, "not a date (YYYY-MM-DD) or UTC date-time (2026-12-01T09:00:00Z)")
    .optional(),
  allDay: z.boolean().optional(),
  priority: z.enum(TASK_PRIORITIES, { message: `must be one of ${TASK_PRIORITIES.join(", ")}` }).default("B"),
  status: z.enum(TASK_STATUSES, { message: `must be one of ${TASK_STATUSES.join(", ")}` }).default("NOT_STARTED"),
});

type SeedPersonalTask = z.infer<typeof seedPersonalTask>;

/** What is wrong with the tasks' owners and texts (each with its path); [] when nothing. */
export function personalTaskProblems(tasks: readonly SeedPersonalTask[], users: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const [i, task] of tasks.entries()) {
    const at = `personalTasks[${i}]`;
    if (!users.has(task.owner)) problems.push(`${at}.owner: no user with ref "${task.owner}"`);
    try {
      checkTaskText({ title: task.title, body: task.summary });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push(`${at}: ${error.message}`);
    }
  }
  return problems;
}

/** Writes the tasks; each ref maps to its id (`MYPAGE,1:<owner>,TASK,1:n`). */
export async function loadPersonalTasks(
  tx: Tx,
  tasks: readonly SeedPersonalTask[],
  userIds: ReadonlyMap<string, number>,
  now: number,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const task of tasks) {
    const due = task.due === undefined ? undefined : parseDue(task.due);
    const allDay = due !== undefined && (task.allDay ?? due.allDay);
    const created = await tx.personalTasks.insert({
      ownerId: userIds.get(task.owner) ?? 0,
      title: task.title,
      body: task.summary,
      dueAt: due === undefined ? null : allDay ? Math.floor(due.dueAt / ALL_DAY_MS) * ALL_DAY_MS : due.dueAt,
      allDay,
      priority: task.priority,
      status: task.status,
      at: now,
    });
    out[task.ref] = formatPersonalTaskId({ ownerId: created.ownerId, id: created.id });
  }
  return out;
}
