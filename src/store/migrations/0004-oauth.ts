import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/** OAuth 1.0a server state: seen nonces (replay protection) and temporary credentials. */
export const oauth = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    // The unique key is what makes a nonce single-use across server processes: the second insert
    // of the same (consumer, token, nonce, timestamp) changes no row.
    await db.schema
      .createTable("oauth_nonces")
      .addColumn("consumer_key", "text", (c) => c.notNull())
      .addColumn("token", "text", (c) => c.notNull())
      .addColumn("nonce", "text", (c) => c.notNull())
      .addColumn("timestamp", t.int64, (c) => c.notNull())
      .addColumn("expires_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("oauth_nonces_pk", ["consumer_key", "token", "nonce", "timestamp"])
      .execute();
    await db.schema.createIndex("oauth_nonces_expiry").on("oauth_nonces").column("expires_at").execute();
    await db.schema
      .createTable("oauth_temporary_credentials")
      .addColumn("id", t.int64, t.id)
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("app_id", t.int64, (c) => c.notNull().references("applications.id").onDelete("cascade"))
      .addColumn("callback", "text", (c) => c.notNull())
      .addColumn("csrf", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("user_id", t.int64, (c) => c.references("users.id").onDelete("cascade"))
      .addColumn("verifier", "text")
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("expires_at", t.int64, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("oauth_temporary_credentials_expiry")
      .on("oauth_temporary_credentials")
      .column("expires_at")
      .execute();
  },
});
