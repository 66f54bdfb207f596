import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Accounts an operator can disable (`kairan user disable`): the time it was done, null while the
 * account is in use. Token and session lookups skip a disabled user, so everything they hold
 * stops working with the next request.
 */
export const userDisabled = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("users").addColumn("disabled_at", t.int64).execute();
  },
});
