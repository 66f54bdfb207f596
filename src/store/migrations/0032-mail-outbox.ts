import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * The mail outbox: every message Kairan sends is first a row here, written in the transaction of
 * the change that caused it, and delivered after commit by the sender (services/mail). The
 * Message-ID is fixed when the row is written, so a message sent twice (a process killed between
 * sending and recording it) carries the same Message-ID both times and mail clients show it once.
 */
export const mailOutbox = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("mail_outbox")
      .addColumn("id", t.int64, (c) => t.id(c))
      .addColumn("message_id", "text", (c) => c.notNull().unique())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("to_address", "text", (c) => c.notNull())
      .addColumn("to_name", "text")
      .addColumn("user_id", t.int64, (c) => c.references("users.id").onDelete("set null"))
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("text_body", "text", (c) => c.notNull())
      .addColumn("html_body", "text")
      // JSON object of further header fields (In-Reply-To, References, List-Id, List-Unsubscribe, Reply-To...).
      .addColumn("headers", "text", (c) => c.notNull().defaultTo("{}"))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      // queued → sent, or failed after the last retry.
      .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
      .addColumn("attempts", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", t.int64, (c) => c.notNull())
      // A sender's claim: others skip the row until then (a killed sender's claim runs out).
      .addColumn("claimed_until", t.int64)
      .addColumn("sent_at", t.int64)
      .addColumn("last_error", "text")
      .execute();
    await db.schema.createIndex("mail_outbox_due").on("mail_outbox").columns(["status", "next_attempt_at"]).execute();
    await db.schema.createIndex("mail_outbox_to").on("mail_outbox").column("to_address").execute();
    // Keys of the site (random, made on first use): they sign reply addresses and unsubscribe
    // links, and must be the same in every process of a PostgreSQL deployment, hence a table.
    await db.schema
      .createTable("site_keys")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .execute();
  },
});
