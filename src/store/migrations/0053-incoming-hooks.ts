import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Incoming webhooks (docs/api.md "Incoming webhooks"): a secret address that posts into a group
 * (a new topic, or a comment on `topic_id`) or into a chat room (`room_id`), as its creator with
 * the hook's name shown. The secret is kept as its SHA-256 (shown once, like a personal token);
 * revoking deletes the row. The group's or the room's removal, or the creator's, removes the hook.
 */
export const incomingHooks = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("incoming_hooks")
      .addColumn("id", t.int64, (c) => t.id(c))
      .addColumn("secret_hash", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("creator_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("group_id", t.int64, (c) => c.references("groups.id").onDelete("cascade"))
      .addColumn("topic_id", t.int64)
      .addColumn("room_id", t.int64, (c) => c.references("chat_rooms.id").onDelete("cascade"))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("incoming_hooks_group").on("incoming_hooks").column("group_id").execute();
    await db.schema.createIndex("incoming_hooks_room").on("incoming_hooks").column("room_id").execute();
  },
});
