import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Calendar feed secrets (docs/api.md "Calendar feeds"): at most one per user, kept as the
 * SHA-256 of the secret (the address is shown once, like a personal token). Renewing replaces the
 * row, revoking deletes it; the unique hash is what a feed request looks up.
 */
export const calendarFeeds = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("calendar_feeds")
      .addColumn("user_id", t.int64, (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("secret_hash", "text", (c) => c.notNull().unique())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .execute();
  },
});
