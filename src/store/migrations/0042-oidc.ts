import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Single sign-on with OpenID Connect (issue #30): the accounts linked to a provider's person
 * (issuer and subject, so a later sign-in finds the account even after the address changed), and
 * the sign-ins under way (state, nonce and PKCE verifier kept here, named by the hash of a random
 * cookie of the browser that started them, for 10 minutes).
 */
export const oidc = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("oidc_links")
      .addColumn("issuer", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("used_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("oidc_links_pk", ["issuer", "subject"])
      .execute();
    await db.schema.createIndex("oidc_links_user").on("oidc_links").column("user_id").execute();
    await db.schema
      .createTable("oidc_sign_ins")
      // SHA-256 of the browser's cookie: the row is useless to whoever reads the database.
      .addColumn("browser_hash", "text", (c) => c.primaryKey())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("nonce", "text", (c) => c.notNull())
      .addColumn("code_verifier", "text", (c) => c.notNull())
      .addColumn("issuer", "text", (c) => c.notNull())
      .addColumn("next", "text", (c) => c.notNull())
      .addColumn("expires_at", t.int64, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("oidc_sign_ins_expires").on("oidc_sign_ins").column("expires_at").execute();
  },
});
