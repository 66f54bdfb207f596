import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Browsers trusted for sign-in (OWASP's device cookies): the device cookie's token, hashed, with
 * each account that signed in from it. Such a browser keeps its own allowance of failed sign-ins
 * on the account; every other client shares the account's untrusted budget.
 */
export const signInDevices = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("sign_in_devices")
      .addColumn("token_hash", "text", (c) => c.notNull())
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("used_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("sign_in_devices_pk", ["token_hash", "user_id"])
      .execute();
    await db.schema.createIndex("sign_in_devices_user").on("sign_in_devices").column("user_id").execute();
    await db.schema.createIndex("sign_in_devices_used").on("sign_in_devices").column("used_at").execute();
  },
});
