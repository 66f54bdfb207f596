import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Imported placeholder accounts and their claims (issue #32). `users.placeholder_at`: when an
 * import made the account for a person of its files who had none here; null for every other
 * account, and again once its person claimed it. A disabled account alone cannot tell a
 * placeholder from an account an administrator disabled. `memberships.claim_user_id`: the
 * placeholder an invitation hands over to its recipient; null for an ordinary invitation.
 */
export const placeholderClaims = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("users").addColumn("placeholder_at", t.int64).execute();
    await db.schema
      .alterTable("memberships")
      .addColumn("claim_user_id", t.int64, (c) => c.references("users.id").onDelete("cascade"))
      .execute();
  },
});
