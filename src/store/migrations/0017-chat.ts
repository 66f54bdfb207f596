import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Chat (docs/api.md "Chat"): rooms, their members (with each member's mute setting and unread
 * count, which is the member's M_CHAT notification) and messages numbered per room. A room's
 * `last_number` hands out message numbers, so a deleted message's number is never reused.
 * `direct_key` ("<smaller user id>:<larger>") makes a DIRECT room exist once per pair.
 */
export const chat = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("chat_rooms")
      .addColumn("id", t.int64, t.id)
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("creator_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("direct_key", "text", (c) => c.unique())
      .addColumn("last_number", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("activity_at", t.int64, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("chat_members")
      .addColumn("room_id", t.int64, (c) => c.notNull().references("chat_rooms.id").onDelete("cascade"))
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("muted", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("unconfirmed", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("joined_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("chat_members_pk", ["room_id", "user_id"])
      .execute();
    // A user's rooms.
    await db.schema.createIndex("chat_members_user").on("chat_members").columns(["user_id", "room_id"]).execute();
    await db.schema
      .createTable("chat_messages")
      .addColumn("id", t.int64, t.id)
      .addColumn("room_id", t.int64, (c) => c.notNull().references("chat_rooms.id").onDelete("cascade"))
      .addColumn("number", t.int32, (c) => c.notNull())
      .addColumn("author_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addUniqueConstraint("chat_messages_room_number", ["room_id", "number"])
      .execute();
  },
});
