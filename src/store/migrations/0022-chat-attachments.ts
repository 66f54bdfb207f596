import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Files on chat messages (docs/api.md "Chat"). Keyed by the message's room and number, as message
 * ids are; a message's deletion removes its rows in the same transaction (and its bytes after).
 */
export const chatAttachments = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("chat_attachments")
      .addColumn("id", t.int64, t.id)
      .addColumn("room_id", t.int64, (c) => c.notNull().references("chat_rooms.id").onDelete("cascade"))
      .addColumn("message_number", t.int32, (c) => c.notNull())
      .addColumn("position", t.int32, (c) => c.notNull())
      .addColumn("file_name", "text", (c) => c.notNull())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addColumn("size", t.int64, (c) => c.notNull())
      .addColumn("blob_key", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addUniqueConstraint("chat_attachments_message", ["room_id", "message_number", "position"])
      .execute();
  },
});
