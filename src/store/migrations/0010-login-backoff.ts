import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Sign-in back-off per address: the time before which an address's next attempt is refused. The
 * counters themselves stay as they are; an account's failures are now counted per address (scope
 * `pair`), so that a stranger's failures never lock the owner out from another address.
 */
export const loginBackoff = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("login_failures")
      .addColumn("not_before", t.int64, (c) => c.notNull().defaultTo(0))
      .execute();
    // Failures counted per account alone (scope `account`) no longer refuse anyone.
    await sql`delete from login_failures where scope = 'account'`.execute(db);
  },
});
