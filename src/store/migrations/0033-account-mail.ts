import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Accounts by mail (issue #29): the one-time links of password resets, address changes and the
 * first run's setup (only each link's SHA-256 is stored), when an invitation's message was last
 * sent, and the site administrator's mark (the first run's account has it).
 */
export const accountMail = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("account_tokens")
      .addColumn("id", t.int64, (c) => t.id(c))
      // password-reset | address-confirm | setup
      .addColumn("purpose", "text", (c) => c.notNull())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      // None for the setup link: there is no account yet.
      .addColumn("user_id", t.int64, (c) => c.references("users.id").onDelete("cascade"))
      // The new address an address change confirms; null for the other purposes.
      .addColumn("email", "text")
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("expires_at", t.int64, (c) => c.notNull())
      // Single use: set when the link is followed; the row stays until it expires, so that a second
      // use is told "used" rather than "unknown".
      .addColumn("used_at", t.int64)
      .execute();
    await db.schema.createIndex("account_tokens_user").on("account_tokens").columns(["user_id", "purpose"]).execute();
    await db.schema.createIndex("account_tokens_expiry").on("account_tokens").column("expires_at").execute();
    await db.schema.alterTable("memberships").addColumn("invite_sent_at", t.int64).execute();
    await db.schema
      .alterTable("users")
      .addColumn("site_admin", t.int32, (c) => c.notNull().defaultTo(0))
      .execute();
  },
});
