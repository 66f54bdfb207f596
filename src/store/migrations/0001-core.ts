import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/** Users, applications, tokens, groups, memberships, folders, topics, comments, leases. */
export const core = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("users")
      .addColumn("id", t.int64, t.id)
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("family_kana", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("given_kana", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("applications")
      .addColumn("id", t.int64, t.id)
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("consumer_key", "text", (c) => c.notNull().unique())
      .addColumn("consumer_secret", "text", (c) => c.notNull())
      .addColumn("access_level", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("tokens")
      .addColumn("id", t.int64, t.id)
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("app_id", t.int64, (c) => c.notNull().references("applications.id").onDelete("cascade"))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("label", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("revoked_at", t.int64)
      .execute();
    await createGroupTables(db, t);
    await createBoardTables(db, t);
  },
});

async function createGroupTables(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("groups")
    .addColumn("id", t.int64, t.id)
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", t.int64, (c) => c.notNull())
    .addColumn("updated_at", t.int64, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("memberships")
    .addColumn("id", t.int64, t.id)
    .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("user_id", t.int64, (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("manager", t.int32, (c) => c.notNull().defaultTo(0))
    .addColumn("notify", t.int32, (c) => c.notNull().defaultTo(1))
    .addColumn("invite_email", "text")
    .addColumn("invite_label", "text")
    .addColumn("invite_expires_at", t.int64)
    .addColumn("created_at", t.int64, (c) => c.notNull())
    .addColumn("updated_at", t.int64, (c) => c.notNull())
    .addUniqueConstraint("memberships_group_user", ["group_id", "user_id"])
    .execute();
  await db.schema.createIndex("memberships_user").on("memberships").columns(["user_id", "status"]).execute();
  await db.schema
    .createTable("folders")
    .addColumn("id", t.int64, t.id)
    .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("area", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", t.int64, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("folders_group_area").on("folders").columns(["group_id", "area", "id"]).execute();
}

async function createBoardTables(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("topics")
    .addColumn("id", t.int64, t.id)
    .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("author_id", t.int64, (c) => c.notNull().references("users.id"))
    .addColumn("folder_id", t.int64, (c) => c.references("folders.id").onDelete("set null"))
    .addColumn("allow_edit", t.int32, (c) => c.notNull().defaultTo(0))
    .addColumn("fast_notify", t.int32, (c) => c.notNull().defaultTo(0))
    .addColumn("trashed", t.int32, (c) => c.notNull().defaultTo(0))
    .addColumn("published_at", t.int64, (c) => c.notNull())
    .addColumn("updated_at", t.int64, (c) => c.notNull())
    .execute();
  // Newest-first pages of a group's board, with or without a folder filter, straight off an index.
  await db.schema
    .createIndex("topics_group_page")
    .on("topics")
    .columns(["group_id", "trashed", "updated_at", "id"])
    .execute();
  await db.schema
    .createIndex("topics_group_folder_page")
    .on("topics")
    .columns(["group_id", "folder_id", "trashed", "updated_at", "id"])
    .execute();
  await db.schema
    .createTable("comments")
    .addColumn("id", t.int64, t.id)
    .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("parent_kind", "text", (c) => c.notNull())
    .addColumn("parent_id", t.int64, (c) => c.notNull())
    .addColumn("number", t.int32, (c) => c.notNull())
    .addColumn("author_id", t.int64, (c) => c.notNull().references("users.id"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("reply_to", t.int32)
    .addColumn("created_at", t.int64, (c) => c.notNull())
    .addUniqueConstraint("comments_parent_number", ["parent_kind", "parent_id", "number"])
    .execute();
  await db.schema
    .createTable("comment_counters")
    .addColumn("parent_kind", "text", (c) => c.notNull())
    .addColumn("parent_id", t.int64, (c) => c.notNull())
    .addColumn("last_number", t.int32, (c) => c.notNull())
    .addPrimaryKeyConstraint("comment_counters_pk", ["parent_kind", "parent_id"])
    .execute();
  await db.schema
    .createTable("topic_leases")
    .addColumn("topic_id", t.int64, (c) => c.primaryKey())
    .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("since", t.int64, (c) => c.notNull())
    .addColumn("until", t.int64, (c) => c.notNull())
    .execute();
}
