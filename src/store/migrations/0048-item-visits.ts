import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * What each reader has seen (issue #31, "Unread, right"): `item_visits` holds one row per reader
 * per item they opened, upserted on the page view (never one row per member on a write, so posting
 * costs what it did); `group_reads` one row per reader per group, "mark all read": everything
 * older counts as seen. The lists compare their items' and comments' times with these.
 */
export const itemVisits = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("item_visits")
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("item_kind", "text", (c) => c.notNull())
      .addColumn("item_id", t.int64, (c) => c.notNull())
      .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
      .addColumn("seen_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("item_visits_pk", ["user_id", "item_kind", "item_id"])
      .execute();
    // Removal of a deleted item's rows.
    await db.schema.createIndex("item_visits_item").on("item_visits").columns(["item_kind", "item_id"]).execute();
    await db.schema
      .createTable("group_reads")
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
      .addColumn("read_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("group_reads_pk", ["user_id", "group_id"])
      .execute();
  },
});
