import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/** Sign-in throttling: failed attempts per account and per address, shared by every process. */
export const throttle = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    // One row per (scope, subject): the upsert that counts an attempt is one statement, so two
    // processes counting at once both land in the same row.
    await db.schema
      .createTable("login_failures")
      .addColumn("scope", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("failures", t.int32, (c) => c.notNull())
      .addColumn("window_start", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("login_failures_pk", ["scope", "subject"])
      .execute();
    await db.schema.createIndex("login_failures_window").on("login_failures").column("window_start").execute();
  },
});
