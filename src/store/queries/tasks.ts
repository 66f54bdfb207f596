import type { Kysely, Updateable } from "kysely";
import type { FolderFilter } from "../../domain/folder.js";
import { ALL_DAY_MS, type Task, type TaskFilter, type TaskPriority, type TaskStatus } from "../../domain/task.js";
import type { Database } from "../schema.js";
import type { TasksTable } from "../schema-content.js";
import type { PageWindow } from "../page-window.js";
import type { RowOf } from "./rows.js";

/** Fields of a new task; the store numbers it within its group. */
export interface NewTask {
  readonly groupId: number;
  readonly title: string;
  readonly body: string;
  readonly authorId: number;
  readonly assigneeId: number | null;
  readonly dueAt: number | null;
  readonly allDay: boolean;
  readonly priority: TaskPriority;
  readonly status: TaskStatus;
  readonly folderId: number | null;
  readonly trashed: boolean;
  readonly at: number;
  /** When it was last changed, if not at `at` (an import keeps the original's times). */
  readonly updatedAt?: number;
}

/** A change to a task: only the fields given are written. */
export type TaskChange = Partial<Omit<NewTask, "groupId" | "authorId" | "at" | "updatedAt">> & { readonly at: number };

/** Group tasks. */
export interface TaskRepo {
  /**
   * Inserts with the group's next sequence number: unique per group; one more than the highest in
   * use, so the number of the group's last task is handed out again once that task is deleted for good.
   */
  insert(task: NewTask): Promise<Task>;
  findById(id: number): Promise<Task | undefined>;
  /** The tasks of these ids that exist, in no particular order. */
  findMany(ids: readonly number[]): Promise<Task[]>;
  /** A page of a group's tasks, newest first (updated, then id). */
  list(groupId: number, folder: FolderFilter, filter: TaskFilter, page: PageWindow): Promise<Task[]>;
  update(id: number, change: TaskChange): Promise<void>;
  /** Deletes the task row (its comments and reactions are the caller's to remove first). */
  remove(id: number): Promise<void>;
}

/** Tasks with their author's, assignee's and folder's names, as every read needs them. */
function selectTasks(db: Kysely<Database>) {
  return db
    .selectFrom("tasks")
    .innerJoin("users as author", "author.id", "tasks.author_id")
    .leftJoin("users as assignee", "assignee.id", "tasks.assignee_id")
    .leftJoin("folders", "folders.id", "tasks.folder_id")
    .selectAll("tasks")
    .select(["author.name as author_name", "assignee.name as assignee_name", "folders.name as folder_name"]);
}

function toTask(row: RowOf<typeof selectTasks>): Task {
  return {
    id: row.id,
    groupId: row.group_id,
    sequence: row.sequence,
    title: row.title,
    body: row.summary,
    authorId: row.author_id,
    authorName: row.author_name,
    assigneeId: row.assignee_id,
    assigneeName: row.assignee_name,
    dueAt: row.due_at,
    allDay: row.all_day === 1,
    priority: row.priority,
    status: row.status,
    folderId: row.folder_id,
    folderName: row.folder_name,
    trashed: row.trashed === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function changedColumns(change: TaskChange): Updateable<TasksTable> {
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  const columns = {
    title: change.title,
    summary: change.body,
    assignee_id: change.assigneeId,
    due_at: change.dueAt,
    all_day: flag(change.allDay),
    priority: change.priority,
    status: change.status,
    folder_id: change.folderId,
    trashed: flag(change.trashed),
    updated_at: change.at,
  };
  // Undefined means "unchanged": drop those keys so the UPDATE touches only what was given.
  return Object.fromEntries(
    Object.entries(columns).filter(([, value]) => value !== undefined),
  ) as Updateable<TasksTable>;
}

/** Tasks queries. */
export function taskRepo(db: Kysely<Database>): TaskRepo {
  return {
    async insert(task) {
      // Inside the caller's transaction; the unique (group_id, sequence) constraint guards concurrent writers.
      const last = await db
        .selectFrom("tasks")
        .select((eb) => eb.fn.max("sequence").as("last"))
        .where("group_id", "=", task.groupId)
        .executeTakeFirst();
      const { id } = await db
        .insertInto("tasks")
        .values({
          group_id: task.groupId,
          sequence: Number(last?.last ?? 0) + 1,
          title: task.title,
          summary: task.body,
          author_id: task.authorId,
          assignee_id: task.assigneeId,
          due_at: task.dueAt,
          all_day: task.allDay ? 1 : 0,
          priority: task.priority,
          status: task.status,
          folder_id: task.folderId,
          trashed: task.trashed ? 1 : 0,
          created_at: task.at,
          updated_at: task.updatedAt ?? task.at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return toTask(await selectTasks(db).where("tasks.id", "=", id).executeTakeFirstOrThrow());
    },
    async findById(id) {
      const row = await selectTasks(db).where("tasks.id", "=", id).executeTakeFirst();
      return row && toTask(row);
    },
    async findMany(ids) {
      if (ids.length === 0) return [];
      return (
        await selectTasks(db)
          .where("tasks.id", "in", [...ids])
          .execute()
      ).map(toTask);
    },
    async list(groupId, folder, filter, page) {
      const rows = await filtered(selectTasks(db).where("tasks.group_id", "=", groupId), folder, filter)
        .orderBy("tasks.updated_at", "desc")
        .orderBy("tasks.id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toTask);
    },
    async update(id, change) {
      await db.updateTable("tasks").set(changedColumns(change)).where("id", "=", id).execute();
    },
    async remove(id) {
      await db.deleteFrom("tasks").where("id", "=", id).execute();
    },
  };
}

/** Applies the folder, status and term filters (domain/task.ts isDueWithin, in SQL). */
function filtered(query: ReturnType<typeof selectTasks>, folder: FolderFilter, filter: TaskFilter) {
  let out = query.where("tasks.trashed", "=", folder.kind === "trash" ? 1 : 0);
  if (folder.kind === "unclassified") out = out.where("tasks.folder_id", "is", null);
  if (folder.kind === "folder") out = out.where("tasks.folder_id", "=", folder.folderId);
  if (filter.notCompletedOnly) out = out.where("tasks.status", "!=", "COMPLETED");
  if (filter.status !== undefined) out = out.where("tasks.status", "=", filter.status);
  const term = filter.term;
  if (term === undefined) return out;
  // An all-day task counts for its whole day; a task without due date is in no term.
  return out
    .where("tasks.due_at", "<=", term.end)
    .where((eb) =>
      eb.or([
        eb.and([eb("tasks.all_day", "=", 0), eb("tasks.due_at", ">=", term.start)]),
        eb.and([eb("tasks.all_day", "=", 1), eb("tasks.due_at", ">", term.start - ALL_DAY_MS)]),
      ]),
    );
}
