import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * What an import made (issue #32): per group, the key of each imported row (`cybozulive:topic:1:100`,
 * a comment's, a derived key of an event, which has no ID) and the id of what was made of it, so
 * that running the same import again finds them and makes nothing twice.
 */
export const importKeys = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("import_keys")
      .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("target_id", t.int64, (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("import_keys_pk", ["group_id", "key"])
      .execute();
  },
});
