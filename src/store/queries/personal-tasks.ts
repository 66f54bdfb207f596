import { type Kysely, type Updateable, sql } from "kysely";
import type { PersonalTask } from "../../domain/personal-task.js";
import { ALL_DAY_MS, type TaskFilter, type TaskPriority, type TaskStatus } from "../../domain/task.js";
import type { Database } from "../schema.js";
import type { PersonalTasksTable } from "../schema-content.js";
import type { PageWindow } from "../page-window.js";
import type { RowOf } from "./rows.js";

/** Fields of a new personal task; the store numbers it among its owner's. */
export interface NewPersonalTask {
  readonly ownerId: number;
  readonly title: string;
  readonly body: string;
  readonly dueAt: number | null;
  readonly allDay: boolean;
  readonly priority: TaskPriority;
  readonly status: TaskStatus;
  readonly at: number;
}

/** A change to a personal task: only the fields given are written. */
export type PersonalTaskChange = Partial<Omit<NewPersonalTask, "ownerId" | "at">> & { readonly at: number };

/** Which tasks a ToDo list shows: the caller's assigned group tasks (of one group, or of all joined) and own tasks. */
export interface TodoScope {
  readonly userId: number;
  /** One group's assigned tasks only (and no personal task); undefined: every joined group, and the personal tasks. */
  readonly groupId: number | undefined;
  readonly filter: TaskFilter;
}

/** One row of a ToDo page: which table and which id. */
export interface TodoRef {
  readonly source: "GROUP" | "PERSONAL";
  readonly id: number;
}

/** Personal tasks, and the ToDo list that merges them with assigned group tasks. */
export interface PersonalTaskRepo {
  insert(task: NewPersonalTask): Promise<PersonalTask>;
  findById(id: number): Promise<PersonalTask | undefined>;
  findMany(ids: readonly number[]): Promise<PersonalTask[]>;
  update(id: number, change: PersonalTaskChange): Promise<void>;
  remove(id: number): Promise<void>;
  /** A page of the ToDo list, newest first (updated, then id; group tasks before personal ones on a tie). */
  todoPage(scope: TodoScope, page: PageWindow): Promise<TodoRef[]>;
  /** How many rows the ToDo list holds over all pages. */
  todoCount(scope: TodoScope): Promise<number>;
}

function selectPersonalTasks(db: Kysely<Database>) {
  return db
    .selectFrom("personal_tasks")
    .innerJoin("users as owner", "owner.id", "personal_tasks.user_id")
    .selectAll("personal_tasks")
    .select("owner.name as owner_name");
}

function toPersonalTask(row: RowOf<typeof selectPersonalTasks>): PersonalTask {
  return {
    id: row.id,
    ownerId: row.user_id,
    ownerName: row.owner_name,
    sequence: row.sequence,
    title: row.title,
    body: row.summary,
    dueAt: row.due_at,
    allDay: row.all_day === 1,
    priority: row.priority,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function changedColumns(change: PersonalTaskChange): Updateable<PersonalTasksTable> {
  const columns = {
    title: change.title,
    summary: change.body,
    due_at: change.dueAt,
    all_day: change.allDay === undefined ? undefined : change.allDay ? 1 : 0,
    priority: change.priority,
    status: change.status,
    updated_at: change.at,
  };
  // Undefined means "unchanged": drop those keys so the UPDATE touches only what was given.
  return Object.fromEntries(
    Object.entries(columns).filter(([, value]) => value !== undefined),
  ) as Updateable<PersonalTasksTable>;
}

/** Personal task queries. */
export function personalTaskRepo(db: Kysely<Database>): PersonalTaskRepo {
  return {
    async insert(task) {
      // Inside the caller's transaction; the unique (user_id, sequence) constraint guards concurrent writers.
      const last = await db
        .selectFrom("personal_tasks")
        .select((eb) => eb.fn.max("sequence").as("last"))
        .where("user_id", "=", task.ownerId)
        .executeTakeFirst();
      const { id } = await db
        .insertInto("personal_tasks")
        .values({
          user_id: task.ownerId,
          sequence: Number(last?.last ?? 0) + 1,
          title: task.title,
          summary: task.body,
          due_at: task.dueAt,
          all_day: task.allDay ? 1 : 0,
          priority: task.priority,
          status: task.status,
          created_at: task.at,
          updated_at: task.at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return toPersonalTask(
        await selectPersonalTasks(db).where("personal_tasks.id", "=", id).executeTakeFirstOrThrow(),
      );
    },
    async findById(id) {
      const row = await selectPersonalTasks(db).where("personal_tasks.id", "=", id).executeTakeFirst();
      return row && toPersonalTask(row);
    },
    async findMany(ids) {
      if (ids.length === 0) return [];
      const rows = await selectPersonalTasks(db)
        .where("personal_tasks.id", "in", [...ids])
        .execute();
      return rows.map(toPersonalTask);
    },
    async update(id, change) {
      await db.updateTable("personal_tasks").set(changedColumns(change)).where("id", "=", id).execute();
    },
    async remove(id) {
      await db.deleteFrom("personal_tasks").where("id", "=", id).execute();
    },
    async todoPage(scope, page) {
      const rows = await db
        .selectFrom(todoRows(db, scope).as("todo"))
        .selectAll()
        .orderBy("updated_at", "desc")
        .orderBy("id", "desc")
        .orderBy("source")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map((row) => ({ source: row.source, id: Number(row.id) }));
    },
    async todoCount(scope) {
      const row = await db
        .selectFrom(todoRows(db, scope).as("todo"))
        .select((eb) => eb.fn.countAll().as("count"))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}

/** The rows of a ToDo list: assigned group tasks not in the trash, of joined groups; then the owner's own. */
function todoRows(db: Kysely<Database>, scope: TodoScope) {
  const assigned = db
    .selectFrom("tasks")
    .select([sql<"GROUP" | "PERSONAL">`'GROUP'`.as("source"), "tasks.id as id", "tasks.updated_at as updated_at"])
    .where("tasks.assignee_id", "=", scope.userId)
    .where("tasks.trashed", "=", 0)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("memberships")
          .select("memberships.id")
          .whereRef("memberships.group_id", "=", "tasks.group_id")
          .where("memberships.user_id", "=", scope.userId)
          .where("memberships.status", "=", "JOIN"),
      ),
    )
    .where(statusAndTerm("tasks", scope.filter));
  if (scope.groupId !== undefined) return assigned.where("tasks.group_id", "=", scope.groupId);
  const personal = db
    .selectFrom("personal_tasks")
    .select([
      sql<"GROUP" | "PERSONAL">`'PERSONAL'`.as("source"),
      "personal_tasks.id as id",
      "personal_tasks.updated_at as updated_at",
    ])
    .where("personal_tasks.user_id", "=", scope.userId)
    .where(statusAndTerm("personal_tasks", scope.filter));
  return assigned.unionAll(personal);
}

/** The status and due-date filters of domain/task.ts (isDueWithin), written once for both tables. */
function statusAndTerm(table: "tasks" | "personal_tasks", filter: TaskFilter) {
  const status = sql.ref(`${table}.status`);
  const due = sql.ref(`${table}.due_at`);
  const allDay = sql.ref(`${table}.all_day`);
  const parts = [sql`1 = 1`];
  if (filter.notCompletedOnly) parts.push(sql`${status} <> 'COMPLETED'`);
  if (filter.status !== undefined) parts.push(sql`${status} = ${filter.status}`);
  const term = filter.term;
  // An all-day task counts for its whole day; a task without due date is in no term.
  if (term !== undefined)
    parts.push(
      sql`${due} <= ${term.end} and ((${allDay} = 0 and ${due} >= ${term.start}) or (${allDay} = 1 and ${due} > ${term.start - ALL_DAY_MS}))`,
    );
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}
