import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Replies by mail already posted, by the hash of their Message-ID and item: a sending server that
 * lost our "250 posted" answer sends the message again, and that copy must not be posted twice.
 * Kept 30 days (services/mail-reply/reply-post.ts), far past any server's retries.
 */
export const mailRepliesReceived = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("mail_replies_received")
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("message_hash", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("mail_replies_received_pk", ["user_id", "message_hash"])
      .execute();
    await db.schema
      .createIndex("mail_replies_received_time")
      .on("mail_replies_received")
      .column("created_at")
      .execute();
  },
});
