import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * What an import of a portable archive made of rows that belong to no group (chat rooms and their
 * messages, issue #32): the key of each archived row and the id made of it, so that importing the
 * same archive again finds them and makes nothing twice (a group's rows use import_keys, 0044).
 */
export const archiveKeys = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("archive_keys")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("target_id", t.int64, (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .execute();
  },
});
