import type { Kysely, Migration } from "kysely";

// Translation of sqlite/migrations/0011-user-disabled.ts: the time is a BIGINT.

/**
 * Accounts an operator can disable (`kairan user disable`): the time it was done, null while the
 * account is in use. Token and session lookups skip a disabled user, so everything they hold
 * stops working with the next request.
 */
export const userDisabled: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("users").addColumn("disabled_at", "bigint").execute();
  },
};
