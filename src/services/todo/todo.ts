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
import { type ChangeCursor, personalScopeOwner, showsTask } from "../../domain/changes.js";
import { isDueWithin } from "../../domain/task.js";
import type { Tx } from "../../store/store.js";
import type { TodoRef } from "../../store/queries/personal-tasks.js";
import { TODO_KIND, TODO_TASK_KIND } from "../../store/item-change-sources-0058.js";
import { type ChangeFeed, type ChangesView, latestCursor, readPersonalChanges } from "../item/changes.js";

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
  /** A list read's delta sync: the next cursor, and the changes of a changes-since read. */
  readonly changes?: ChangesView;
}

/** What a ToDo read asks for. */
export interface TodoQuery {
  /** One group's assigned tasks only (members only; no personal task then). */
  readonly groupId: number | undefined;
  readonly filter: TaskFilter;
  readonly page: PageWindow;
  readonly embedComments: boolean;
  /** A changes-since read (docs/api.md "Delta sync"). */
  readonly changesSince?: ChangeCursor | undefined;
}

/**
 * A page of the caller's ToDo list, or with `changesSince` its changes after the cursor (docs/api.md
 * "Delta sync"; the caller's own scope, docs/architecture.md). A changes-since read with `group`
 * asks for no membership: a group the caller left shows none of its tasks (tombstones).
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED; ValidationError, GoneError (a cursor)
 */
export async function listTodo(ctx: ServiceContext, actor: Actor, input: TodoQuery): Promise<TodoView> {
  return ctx.store.read(async (tx) => {
    if (input.changesSince !== undefined) {
      const feed = todoChanges(actor, input);
      const read = await readPersonalChanges(tx, feed, input.changesSince, input.page.limit);
      const items = await itemsOf(tx, actor, read.items.map(refOf), input.embedComments);
      const group = input.groupId === undefined ? undefined : await tx.groups.findById(input.groupId);
      return { items, total: items.length, group, changes: read.changes };
    }
    const group = input.groupId === undefined ? undefined : (await requireGroupMember(tx, actor, input.groupId)).group;
    const changes = await latestCursor(tx, todoScope(actor.user.id));
    const scope = { userId: actor.user.id, groupId: input.groupId, filter: input.filter };
    const refs = await tx.personalTasks.todoPage(scope, input.page);
    const total =
      refs.length < input.page.limit && (refs.length > 0 || input.page.offset === 0)
        ? input.page.offset + refs.length
        : await tx.personalTasks.todoCount(scope);
    return { items: await itemsOf(tx, actor, refs, input.embedComments), total, group, changes };
  });
}

/** The rows of a ToDo page, in the order of the refs, with what their entries show. */
async function itemsOf(tx: Tx, actor: Actor, refs: readonly TodoRef[], embedComments: boolean): Promise<TodoItem[]> {
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
  const comments = embedComments ? await commentsByItem(tx, actor.user.id, contentRefs) : undefined;
  const confirmed = await confirmedByCaller(tx, actor, contentRefs);
  return refs.flatMap((ref): TodoItem[] => {
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
}

/** The caller's ToDo scope: their personal tasks and the group tasks assigned to them. */
function todoScope(userId: number) {
  return { groupId: personalScopeOwner(userId), kind: TODO_KIND, parentId: 0, kinds: [TODO_KIND, TODO_TASK_KIND] };
}

/** A ToDo row as delta sync loads it: a personal task, or an assigned group task and whether the caller is in its group. */
type TodoChange =
  | { readonly source: "PERSONAL"; readonly task: PersonalTask }
  | { readonly source: "GROUP"; readonly task: Task; readonly joined: boolean };

function refOf(change: TodoChange): TodoRef {
  return { source: change.source, id: change.task.id };
}

/**
 * The ToDo list as delta sync follows it: keys are personal task ids and minus group task ids (the
 * two kinds' ids may be equal); shown as the list's query selects (assigned to the caller in a
 * group they are in, not in the trash, the status and term filters; with `group`, that group's only).
 */
function todoChanges(actor: Actor, input: TodoQuery): ChangeFeed<TodoChange> {
  const userId = actor.user.id;
  return {
    scope: todoScope(userId),
    keyOf: (row) => (row.kind === TODO_TASK_KIND ? -row.itemId : row.itemId),
    idOf: (change) => (change.source === "GROUP" ? -change.task.id : change.task.id),
    async load(tx, keys) {
      const own = await tx.personalTasks.findMany(keys.filter((key) => key > 0));
      const assigned = await tx.tasks.findMany(keys.filter((key) => key < 0).map((key) => -key));
      const joined = new Set((await tx.memberships.listJoinedOfUser(userId)).map((m) => m.groupId));
      return [
        ...own.filter((task) => task.ownerId === userId).map((task) => ({ source: "PERSONAL" as const, task })),
        ...assigned.map((task) => ({ source: "GROUP" as const, task, joined: joined.has(task.groupId) })),
      ];
    },
    shows(change) {
      if (change.source === "PERSONAL")
        return input.groupId === undefined && showsTaskFilter(change.task, input.filter);
      const { task } = change;
      if (!change.joined || task.assigneeId !== userId) return false;
      if (input.groupId !== undefined && task.groupId !== input.groupId) return false;
      return showsTask(task, { kind: "all" }, input.filter);
    },
  };
}

/** The status and term filters of a list, for a personal task (no folder, no trash). */
function showsTaskFilter(task: PersonalTask, filter: TaskFilter): boolean {
  if (filter.notCompletedOnly && task.status === "COMPLETED") return false;
  if (filter.status !== undefined && task.status !== filter.status) return false;
  return filter.term === undefined || isDueWithin(task, filter.term);
}
