import { type Kysely, sql } from "kysely";
import { DIRECTORY_ROW } from "../change-tracking.js";
import type { ColumnTypes } from "./columns.js";

/**
 * The two version tables of 0009, the same on both engines but for their column types, and the
 * directory row every caller counts. `nowMs` is the engine's SQL for the current epoch ms.
 */
export async function createChangeVersionTables(db: Kysely<unknown>, t: ColumnTypes, nowMs: string): Promise<void> {
  for (const [table, key] of [
    ["group_changes", "group_id"],
    ["member_changes", "user_id"],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(key, t.int64, (c) => c.primaryKey())
      .addColumn("version", t.int64, (c) => c.notNull())
      .addColumn("changed_at", t.int64, (c) => c.notNull())
      .execute();
  }
  await sql`insert into group_changes (group_id, version, changed_at) values (${sql.lit(DIRECTORY_ROW)}, 1, ${sql.raw(nowMs)})`.execute(
    db,
  );
}
