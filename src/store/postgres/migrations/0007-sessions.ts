import { type Kysely, type Migration, sql } from "kysely";

// Translation of sqlite/migrations/0007-sessions.ts: times are BIGINT, the id an identity column.

/** Web sign-in sessions (shared by every server process) and the origin of each token. */
export const sessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("sessions")
      .addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("csrf", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("sessions_expiry").on("sessions").column("expires_at").execute();
    await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
    await db.schema
      .alterTable("tokens")
      .addColumn("origin", "text", (c) => c.notNull().defaultTo("personal"))
      .execute();
    await sql`update tokens set origin = 'oauth' where label in ('OAuth', 'xAuth')`.execute(db);
  },
};
