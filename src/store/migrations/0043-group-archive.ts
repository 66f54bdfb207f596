import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Groups an administrator archived (/admin/groups, `kairan group archive`): the time it was
 * done, null while the group is in use. An archived group is read-only: every write to its
 * content and membership is refused (services/group/group-access.ts), reads go on.
 */
export const groupArchive = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("groups").addColumn("archived_at", t.int64).execute();
  },
});
