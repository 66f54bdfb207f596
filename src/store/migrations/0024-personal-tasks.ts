import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Personal tasks (docs/api.md "Personal ToDo"): a user's own ToDo items, private to them. The
 * fields of a group task without group, assignee, folder or trash; `sequence` numbers them per
 * owner as group tasks are numbered per group. No feed the feed cache keeps reads them
 * (`/api/task/V2` is built on every request), so no change trigger watches the table.
 */
export const personalTasks = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("personal_tasks")
      .addColumn("id", t.int64, t.id)
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("sequence", t.int32, (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("summary", "text", (c) => c.notNull())
      .addColumn("due_at", t.int64)
      .addColumn("all_day", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("priority", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .addUniqueConstraint("personal_tasks_user_sequence", ["user_id", "sequence"])
      .execute();
    // Newest-first pages of one owner's tasks, as the ToDo list reads them.
    await db.schema
      .createIndex("personal_tasks_user_page")
      .on("personal_tasks")
      .columns(["user_id", "updated_at", "id"])
      .execute();
    // The ToDo list also reads the tasks assigned to the caller across groups.
    await db.schema
      .createIndex("tasks_assignee_page")
      .on("tasks")
      .columns(["assignee_id", "updated_at", "id"])
      .execute();
  },
});
