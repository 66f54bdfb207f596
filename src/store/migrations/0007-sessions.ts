import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Web sign-in sessions, kept in the database so that any server process can serve any page
 * request; and where each token came from, so that the settings page can tell a person's own
 * personal tokens from the applications they authorized through OAuth.
 */
export const sessions = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("sessions")
      .addColumn("id", t.int64, t.id)
      // The cookie carries the token; only its SHA-256 is stored (a leaked table signs nobody in).
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("csrf", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("expires_at", t.int64, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("sessions_expiry").on("sessions").column("expires_at").execute();
    await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
    await db.schema
      .alterTable("tokens")
      .addColumn("origin", "text", (c) => c.notNull().defaultTo("personal"))
      .execute();
    // Tokens issued before this column existed: the OAuth service labelled its own.
    await sql`update tokens set origin = 'oauth' where label in ('OAuth', 'xAuth')`.execute(db);
  },
});
