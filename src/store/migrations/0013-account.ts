import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * What a person sets on their account page: the language and time zone of their pages (null:
 * the browser's language and the server's time zone), and their picture. The picture is a small
 * normalised PNG kept in the database beside the account, not in the blob store: it is replaced
 * in the same transaction that records it (no orphaned bytes, nothing to clean after a crash),
 * and backups and `kairan copy` carry it with the account.
 */
export const account = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("users").addColumn("lang", "text").execute();
    await db.schema.alterTable("users").addColumn("time_zone", "text").execute();
    await db.schema
      .createTable("user_pictures")
      .addColumn("user_id", t.int64, (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("media_type", "text", (c) => c.notNull())
      .addColumn("bytes", t.bytes, (c) => c.notNull())
      .addColumn("etag", "text", (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .execute();
  },
});
