import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** What imports made in a group, by the key of each imported row. */
export interface ImportKeyRepo {
  /** Every key of the group with the id made of it (one query: an import asks for all of them). */
  listOf(groupId: number): Promise<Map<string, number>>;
  insert(row: { groupId: number; key: string; targetId: number; at: number }): Promise<void>;
  /** Many keys of one group in few statements. */
  insertMany(groupId: number, rows: readonly { key: string; targetId: number }[], at: number): Promise<void>;
}

/** Import keys queries. */
export function importKeyRepo(db: Kysely<Database>): ImportKeyRepo {
  return {
    async listOf(groupId) {
      const rows = await db
        .selectFrom("import_keys")
        .select(["key", "target_id"])
        .where("group_id", "=", groupId)
        .execute();
      return new Map(rows.map((row) => [row.key, row.target_id]));
    },
    async insert(row) {
      await db
        .insertInto("import_keys")
        .values({ group_id: row.groupId, key: row.key, target_id: row.targetId, created_at: row.at })
        .execute();
    },
    async insertMany(groupId, rows, at) {
      for (let start = 0; start < rows.length; start += 500) {
        const chunk = rows.slice(start, start + 500);
        await db
          .insertInto("import_keys")
          .values(chunk.map((row) => ({ group_id: groupId, key: row.key, target_id: row.targetId, created_at: at })))
          .execute();
      }
    },
  };
}
