import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/** Update notifications and like notifications. */
export const notifications = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    // No foreign keys on notifications: PostgreSQL checks each one with a trigger per row, which
    // made a 5,000-member fan-out three times slower (measured: about 200 ms against 60 ms).
    // Users and groups are never deleted; removing an item removes its notifications
    // (services/comment/comment-detail.ts), and a member who leaves loses theirs (services/member/member-admin.ts).
    await db.schema
      .createTable("notifications")
      .addColumn("id", t.int64, t.id)
      .addColumn("user_id", t.int64, (c) => c.notNull())
      .addColumn("group_id", t.int64, (c) => c.notNull())
      .addColumn("item_kind", "text", (c) => c.notNull())
      .addColumn("item_id", t.int64, (c) => c.notNull())
      .addColumn("actor_id", t.int64)
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("confirmed", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("unconfirmed_comments", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("comment_number", t.int32)
      .addColumn("comment_deleted", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("summary_updated_at", t.int64)
      .addColumn("summary_updator_id", t.int64)
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .addColumn("last_access_at", t.int64)
      // The upsert's conflict target, item first: it also finds an item's rows when the item is deleted.
      .addUniqueConstraint("notifications_item_user", ["item_kind", "item_id", "user_id"])
      .execute();
    await createNotificationPageIndexes(db);
    await db.schema
      .createTable("like_notifications")
      .addColumn("id", t.int64, t.id)
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
      .addColumn("item_kind", "text", (c) => c.notNull())
      .addColumn("item_id", t.int64, (c) => c.notNull())
      .addColumn("comment_number", t.int32, (c) => c.notNull())
      .addColumn("comment_id", t.int64, (c) => c.references("comments.id").onDelete("cascade"))
      .addColumn("confirmed", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .addColumn("confirmed_at", t.int64)
      .addUniqueConstraint("like_notifications_item_user", ["item_kind", "item_id", "comment_number", "user_id"])
      .execute();
    await createLikeNotificationIndexes(db);
  },
});

/**
 * Newest-first pages of one user's notifications off one index; `confirmed` rides along so that
 * `unconfirmed=true` (what polling clients ask) reads the index alone. One narrow index on
 * purpose: a fan-out writes one entry per member, each into another member's part of every
 * user-ordered index, so each such index costs one scattered B-tree insert per member, and once
 * the members hold many notifications a fan-out rewrites nearly every leaf page of it (one WAL
 * frame each: sqlite/open.ts, NEW_DATABASE_PAGE_SIZE). Category and group filters read the rows.
 * Measured in bench/fanout.ts's steady state (5,000 members holding 100 notifications each),
 * timing the fan-out statement and its commit alone on a quiet machine (medians):
 * - this index: about 4,800 pages written per fan-out with 4 KB pages (42 ms), 1,200 with 16 KB
 *   pages (28 ms). Earlier: one also carrying kind and group cost about a third more, four
 *   indexes (one per filter) far more.
 * - without `id`, which is the rowid that SQLite appends to every index entry anyway (so it is
 *   stored twice): 17 % fewer pages (3,950 and 34 ms; 990 and 23 ms), but the `updated_at, id`
 *   order then needs a sort step, and `start-index=99980` took twice as long (22 -> 45 ms). Kept
 *   (on PostgreSQL `id` is a column like any other, as index entries point at row versions).
 * - a WITHOUT ROWID table keyed by the upsert's (kind, item, user): no separate unique index, but
 *   this index then carries kind and item instead of the rowid: as many pages, no faster (43 ms;
 *   31 with 16 KB pages). Keyed by (user, kind, item): every row goes into its member's part of
 *   the table, 11,000 pages and 187 ms.
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
