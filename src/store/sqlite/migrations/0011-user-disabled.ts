import type { Kysely, Migration } from "kysely";

/**
 * Accounts an operator can disable (`kairan user disable`): the time it was done, null while the
 * account is in use. Token and session lookups skip a disabled user, so everything they hold
 * stops working with the next request. (0010 is taken by another change of this release.)
 */
export const userDisabled: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("users").addColumn("disabled_at", "integer").execute();
  },
};
