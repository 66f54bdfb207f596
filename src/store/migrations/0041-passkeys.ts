import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Passkeys (WebAuthn, issue #30): each account's credentials (the public key only; the private
 * key never leaves the authenticator), and the challenges already answered, so that one is
 * accepted once. A challenge itself is a signed token (services/two-factor/passkey-challenge.ts):
 * nothing is stored until it is used, and a used one is kept only until it would have expired.
 */
export const passkeys = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("passkeys")
      .addColumn("id", t.int64, (c) => t.id(c))
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      // base64url of the authenticator's credential id: one credential belongs to one account.
      .addColumn("credential_id", "text", (c) => c.notNull().unique())
      // base64url of the COSE public key.
      .addColumn("public_key", "text", (c) => c.notNull())
      // The signature counter last seen (0 for authenticators that keep none).
      .addColumn("counter", t.int64, (c) => c.notNull())
      // Comma-separated transports the authenticator named ("internal,hybrid"), hints for the browser.
      .addColumn("transports", "text", (c) => c.notNull())
      // 1 when the credential may be synced to other devices ("multiDevice"), and when it is backed up.
      .addColumn("multi_device", t.int32, (c) => c.notNull())
      .addColumn("backed_up", t.int32, (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("last_used_at", t.int64)
      .execute();
    await db.schema.createIndex("passkeys_user").on("passkeys").column("user_id").execute();
    await db.schema
      .createTable("passkey_challenges_used")
      // SHA-256 of the challenge token.
      .addColumn("challenge_hash", "text", (c) => c.primaryKey())
      .addColumn("expires_at", t.int64, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("passkey_challenges_used_expiry")
      .on("passkey_challenges_used")
      .column("expires_at")
      .execute();
  },
});
