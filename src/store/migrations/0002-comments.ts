import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/** Comment attachments, likes, favorites and comment confirmations. */
export const comments = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("attachments")
      .addColumn("id", t.int64, t.id)
      .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
      .addColumn("comment_id", t.int64, (c) => c.notNull().references("comments.id").onDelete("cascade"))
      .addColumn("position", t.int32, (c) => c.notNull())
      .addColumn("file_name", "text", (c) => c.notNull())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addColumn("size", t.int64, (c) => c.notNull())
      .addColumn("blob_key", "text", (c) => c.notNull().unique())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addUniqueConstraint("attachments_comment_position", ["comment_id", "position"])
      .execute();
    for (const table of ["likes", "favorites"] as const) {
      await db.schema
        .createTable(table)
        .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("item_kind", "text", (c) => c.notNull())
        .addColumn("item_id", t.int64, (c) => c.notNull())
        .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
        .addColumn("created_at", t.int64, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ["user_id", "item_kind", "item_id"])
        .execute();
      // Who liked an item, and removal of an item's rows when it is deleted.
      await db.schema.createIndex(`${table}_item`).on(table).columns(["item_kind", "item_id"]).execute();
    }
    // A user's favorites newest first.
    await db.schema.createIndex("favorites_user_page").on("favorites").columns(["user_id", "created_at"]).execute();
    await db.schema
      .createTable("comment_reads")
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("parent_kind", "text", (c) => c.notNull())
      .addColumn("parent_id", t.int64, (c) => c.notNull())
      .addColumn("confirmed_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("comment_reads_pk", ["user_id", "parent_kind", "parent_id"])
      .execute();
  },
});
