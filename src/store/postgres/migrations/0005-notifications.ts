import type { ColumnDefinitionBuilder, Kysely, Migration } from "kysely";

// Translation of sqlite/migrations/0005-notifications.ts: ids, references and times are BIGINT,
// the id an identity column; counts, comment numbers and flags stay integer so that the shared
// queries are identical.

const id = (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity();

/** Update notifications and like notifications. */
export const notifications: Migration = {
  async up(db: Kysely<unknown>) {
    // No foreign keys on notifications: PostgreSQL checks each one with a trigger per row, which
    // made a 5,000-member fan-out three times slower (measured: about 200 ms against 60 ms).
    // Users and groups are never deleted; removing an item removes its notifications
    // (services/comment-detail.ts), and a member who leaves loses theirs (services/member-admin.ts).
    await db.schema
      .createTable("notifications")
      .addColumn("id", "bigint", id)
      .addColumn("user_id", "bigint", (c) => c.notNull())
      .addColumn("group_id", "bigint", (c) => c.notNull())
      .addColumn("item_kind", "text", (c) => c.notNull())
      .addColumn("item_id", "bigint", (c) => c.notNull())
      .addColumn("actor_id", "bigint")
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("confirmed", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("unconfirmed_comments", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("comment_number", "integer")
      .addColumn("comment_deleted", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("summary_updated_at", "bigint")
      .addColumn("summary_updator_id", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addColumn("last_access_at", "bigint")
      .addUniqueConstraint("notifications_item_user", ["item_kind", "item_id", "user_id"])
      .execute();
    await createNotificationPageIndexes(db);
    await db.schema
      .createTable("like_notifications")
      .addColumn("id", "bigint", id)
      .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("group_id", "bigint", (c) => c.notNull().references("groups.id").onDelete("cascade"))
      .addColumn("item_kind", "text", (c) => c.notNull())
      .addColumn("item_id", "bigint", (c) => c.notNull())
      .addColumn("comment_number", "integer", (c) => c.notNull())
      .addColumn("comment_id", "bigint", (c) => c.references("comments.id").onDelete("cascade"))
      .addColumn("confirmed", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addColumn("confirmed_at", "bigint")
      .addUniqueConstraint("like_notifications_item_user", ["item_kind", "item_id", "comment_number", "user_id"])
      .execute();
    await createLikeNotificationIndexes(db);
  },
};

/**
 * Newest-first pages of one user's notifications off one index; `confirmed` rides along so that
 * `unconfirmed=true` (what polling clients ask) reads the index alone. One narrow index on
 * purpose: a fan-out writes one entry per member, each into another member's part of every
 * user-ordered index, so each such index costs one scattered B-tree insert per member. Here `id`
 * is a column like any other (entries point at row versions, not ids), so it stays in the index
 * for the `updated_at, id` order; the measurements behind the choice are in
 * sqlite/migrations/0005-notifications.ts.
 */
async function createNotificationPageIndexes(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("notifications_user_page")
    .on("notifications")
    .columns(["user_id", "updated_at", "id", "confirmed"])
    .execute();
}

/** A user's like notifications newest first (with or without unconfirmed), and removal with a deleted comment. */
async function createLikeNotificationIndexes(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("like_notifications_user_page")
    .on("like_notifications")
    .columns(["user_id", "updated_at", "id", "confirmed"])
    .execute();
  await db.schema.createIndex("like_notifications_comment").on("like_notifications").column("comment_id").execute();
}
