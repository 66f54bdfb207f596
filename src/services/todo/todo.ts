// The caller's ToDo list (docs/api.md "Personal ToDo"): the group tasks assigned to them in the
// groups they have joined, merged with their personal tasks, newest first, one page at a time.
import type { Actor } from "../../domain/access.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import type { PersonalTask } from "../../domain/personal-task.js";
import type { Task, TaskFilter } from "../../domain/task.js";
import type { PageWindow } from "../../store/page-window.js";
import type { CommentDetail } from "../comment/comment-detail.js";
import { commentsByItem } from "../comment/embedded-comments.js";
import { requireGroupMember } from "../group/group-access.js";
import { confirmedByCaller } from "../task/task.js";
import type { ServiceContext } from "../context.js";

/** One row of the ToDo list. */
export type TodoItem =
  | {
      readonly kind: "group";
      readonly task: Task;
      readonly group: Group;
      readonly confirmed: boolean;
      /** Newest first; undefined when comments were not asked for. */
      readonly comments: readonly CommentDetail[] | undefined;
    }
  | { readonly kind: "personal"; readonly task: PersonalTask };

/** A page of the ToDo list and the number of rows over all pages. */
export interface TodoView {
  readonly items: readonly TodoItem[];
  readonly total: number;
  /** The group asked for with `group`; undefined for the whole list. */
  readonly group: Group | undefined;
}

/** What a ToDo read asks for. */
export interface TodoQuery {
  /** One group's assigned tasks only (members only; no personal task then). */
  readonly groupId: number | undefined;
  readonly filter: TaskFilter;
  readonly page: PageWindow;
  readonly embedComments: boolean;
}

/** A page of the caller's ToDo list. @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function listTodo(ctx: ServiceContext, actor: Actor, input: TodoQuery): Promise<TodoView> {
  return ctx.store.read(async (tx) => {
    const group = input.groupId === undefined ? undefined : (await requireGroupMember(tx, actor, input.groupId)).group;
    const scope = { userId: actor.user.id, groupId: input.groupId, filter: input.filter };
    const refs = await tx.personalTasks.todoPage(scope, input.page);
    const total =
      refs.length < input.page.limit && (refs.length > 0 || input.page.offset === 0)
        ? input.page.offset + refs.length
        : await tx.personalTasks.todoCount(scope);
    const idsOf = (source: "GROUP" | "PERSONAL") => refs.filter((ref) => ref.source === source).map((ref) => ref.id);
    const tasks = new Map((await tx.tasks.findMany(idsOf("GROUP"))).map((task) => [task.id, task]));
    const own = new Map((await tx.personalTasks.findMany(idsOf("PERSONAL"))).map((task) => [task.id, task]));
    const groups = new Map<number, Group>();
    for (const task of tasks.values()) {
      if (groups.has(task.groupId)) continue;
      const found = await tx.groups.findById(task.groupId);
      if (found) groups.set(found.id, found);
    }
    const contentRefs = [...tasks.values()].map((task): ContentRef => ({
      kind: "TASK",
      groupId: task.groupId,
      id: task.id,
    }));
    const comments = input.embedComments ? await commentsByItem(tx, actor.user.id, contentRefs) : undefined;
    const confirmed = await confirmedByCaller(tx, actor, contentRefs);
    const items = refs.flatMap((ref): TodoItem[] => {
      if (ref.source === "PERSONAL") {
        const task = own.get(ref.id);
        return task ? [{ kind: "personal", task }] : [];
      }
      const task = tasks.get(ref.id);
      const taskGroup = task && groups.get(task.groupId);
      if (!task || !taskGroup) return [];
      const entry = { kind: "group", task, group: taskGroup, confirmed: confirmed.has(task.id) } as const;
      return [{ ...entry, comments: comments?.get(task.id) }];
    });
    return { items, total, group };
  });
}
