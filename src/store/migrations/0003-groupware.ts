import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/** Tasks, shared-folder files and their versions; member-list paging. */
export const groupware = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("tasks")
      .addColumn("id", t.int64, t.id)
      .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
      .addColumn("sequence", t.int32, (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("summary", "text", (c) => c.notNull())
      .addColumn("author_id", t.int64, (c) => c.notNull().references("users.id"))
      .addColumn("assignee_id", t.int64, (c) => c.references("users.id").onDelete("set null"))
      .addColumn("due_at", t.int64)
      .addColumn("all_day", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("priority", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("folder_id", t.int64, (c) => c.references("folders.id").onDelete("set null"))
      .addColumn("trashed", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .addUniqueConstraint("tasks_group_sequence", ["group_id", "sequence"])
      .execute();
    // Newest-first pages, with or without a folder filter, straight off an index (as for topics).
    await db.schema
      .createIndex("tasks_group_page")
      .on("tasks")
      .columns(["group_id", "trashed", "updated_at", "id"])
      .execute();
    await db.schema
      .createIndex("tasks_group_folder_page")
      .on("tasks")
      .columns(["group_id", "folder_id", "trashed", "updated_at", "id"])
      .execute();
    await createFileTables(db, t);
    await db.schema
      .createIndex("memberships_group_page")
      .on("memberships")
      .columns(["group_id", "status", "updated_at", "id"])
      .execute();
  },
});

async function createFileTables(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("files")
    .addColumn("id", t.int64, t.id)
    .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("memo", "text", (c) => c.notNull())
    .addColumn("author_id", t.int64, (c) => c.notNull().references("users.id"))
    .addColumn("folder_id", t.int64, (c) => c.references("folders.id").onDelete("set null"))
    .addColumn("current_version", t.int32, (c) => c.notNull())
    .addColumn("trashed", t.int32, (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.int64, (c) => c.notNull())
    .addColumn("updated_at", t.int64, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("files_group_page")
    .on("files")
    .columns(["group_id", "trashed", "updated_at", "id"])
    .execute();
  await db.schema
    .createIndex("files_group_folder_page")
    .on("files")
    .columns(["group_id", "folder_id", "trashed", "updated_at", "id"])
    .execute();
  await db.schema
    .createTable("file_versions")
    .addColumn("id", t.int64, t.id)
    .addColumn("file_id", t.int64, (c) => c.notNull().references("files.id").onDelete("cascade"))
    .addColumn("version_number", t.int32, (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("size", t.int64, (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("blob_key", "text", (c) => c.notNull())
    .addColumn("width", t.int32)
    .addColumn("height", t.int32)
    .addColumn("thumbnail_key", "text")
    .addColumn("author_id", t.int64, (c) => c.notNull().references("users.id"))
    .addColumn("comment", "text", (c) => c.notNull())
    .addColumn("created_at", t.int64, (c) => c.notNull())
    // Also the index that finds a file's current version and its newest history.
    .addUniqueConstraint("file_versions_file_number", ["file_id", "version_number"])
    .execute();
}
