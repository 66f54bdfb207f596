import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Two-factor sign-in (issue #30): each account's TOTP secret (sealed with a site key, never
 * stored in the clear), its single-use recovery codes (only their SHA-256), and the mark an
 * administrator sets to require a second factor of one account.
 */
export const twoFactor = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("totp_secrets")
      .addColumn("user_id", t.int64, (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      // AES-256-GCM under the site's `totp-secret` key, bound to the user id (auth/secret-box.ts).
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      // Null while enrolment waits for its first code; two-factor is on from then.
      .addColumn("confirmed_at", t.int64)
      // The time step of the last code accepted: a code of that step or an earlier one is a replay.
      .addColumn("last_step", t.int64)
      .execute();
    await db.schema
      .createTable("recovery_codes")
      .addColumn("id", t.int64, (c) => t.id(c))
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("code_hash", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      // Single use: set when the code signs someone in.
      .addColumn("used_at", t.int64)
      .execute();
    await db.schema.createIndex("recovery_codes_user").on("recovery_codes").column("user_id").execute();
    await db.schema
      .createTable("two_factor_requirements")
      .addColumn("user_id", t.int64, (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("required_at", t.int64, (c) => c.notNull())
      .addColumn("required_by", t.int64, (c) => c.references("users.id").onDelete("set null"))
      .execute();
  },
});
