import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Comments and chat messages their authors edit (issue #31): `edited_at` is the time of the last
 * edit, null for text never changed since it was written. Pages show "edited", and the feeds' entry
 * `updated` is this time.
 */
export const edits = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("comments").addColumn("edited_at", t.int64).execute();
    await db.schema.alterTable("chat_messages").addColumn("edited_at", t.int64).execute();
  },
});
