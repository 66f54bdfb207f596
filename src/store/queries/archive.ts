import { type Kysely, sql } from "kysely";
import { ACCOUNT_SPEC, type ArchiveRow, type ArchiveTable, TABLE_SPECS } from "../../domain/archive.js";
import type { Database } from "../schema.js";
import type { Engine } from "./engine.js";

/**
 * The rows of the portable archive (domain/archive.ts): a group's rows of each archived table, page
 * by page in key order, and the writes of an import, row by row as the archive carries them (its
 * ids kept where they are free). The tables are named by the archive's list, never by input.
 */
export interface ArchiveRepo {
  /** Every group's id, in order. */
  groupIds(): Promise<number[]>;
  /**
   * One page of a group's rows of `table`: after the id `after` (tables with an id of their own),
   * or after `after` rows (the others), in key order. A table of no group (chat) gives every row.
   */
  page(table: ArchiveTable, groupId: number, after: number, limit: number): Promise<ArchiveRow[]>;
  /** What imports of archives made of rows of no group (archive_keys), by key. */
  siteKeys(): Promise<Map<string, number>>;
  /** Remembers what rows of no group became. */
  insertSiteKeys(rows: readonly { key: string; targetId: number }[], at: number): Promise<void>;
  /** The accounts of `ids`, archived columns only, in id order. */
  accounts(ids: readonly number[]): Promise<ArchiveRow[]>;
  /** The names of the accounts of `ids`. */
  names(ids: readonly number[]): Promise<Map<number, string>>;
  /** The account with this address (compared as stored), if any. */
  accountByEmail(email: string): Promise<number | undefined>;
  /** The group an earlier import made of the group with this key (import_keys of any group). */
  importedGroup(key: string): Promise<number | undefined>;
  /** Whether a row of `table` has this id. */
  idTaken(table: ArchiveTable | "users", id: number): Promise<boolean>;
  /** Whether a row matches every column of `where`. */
  exists(table: ArchiveTable, where: ArchiveRow): Promise<boolean>;
  /** Inserts a row (its id given, or made by the database when it has none) and returns its id. */
  insertWithId(table: ArchiveTable | "users", row: ArchiveRow): Promise<number>;
  /** Inserts a row of a table without an id of its own. */
  insert(table: ArchiveTable, row: ArchiveRow): Promise<void>;
  /** Raises an item's comment counter to at least `number` (the next comment takes the number after). */
  raiseCommentCounter(kind: string, parentId: number, number: number): Promise<void>;
  /** The number of a chat room's last message. */
  chatLastNumber(roomId: number): Promise<number>;
  /** Raises a chat room's last message number to at least `number`. */
  raiseChatLastNumber(roomId: number, number: number): Promise<void>;
  /** After rows were given ids: PostgreSQL's identity of `table` continues after its largest id. */
  continueIds(table: ArchiveTable | "users"): Promise<void>;
}

// The archive moves rows as they are, so it sees its tables generically (as store/copy.ts does).
type AnyTables = Record<string, Record<string, string | number | null>>;

/** Archive queries. */
export function archiveRepo(typed: Kysely<Database>, engine: Engine): ArchiveRepo {
  const db = typed as unknown as Kysely<AnyTables>;
  return {
    async groupIds() {
      const rows = await db.selectFrom("groups").select("id").orderBy("id").execute();
      return rows.map((row) => Number(row.id));
    },
    async page(table, groupId, after, limit) {
      const spec = TABLE_SPECS[table];
      let query = db.selectFrom(table).select(spec.columns.map((column) => sql.ref<unknown>(column).as(column)));
      if (spec.site === true) {
        // every row: chat belongs to no group
      } else if (table === "groups") query = query.where("id", "=", groupId);
      else if (spec.viaFile)
        query = query.where("file_id", "in", db.selectFrom("files").select("id").where("group_id", "=", groupId));
      else query = query.where("group_id", "=", groupId);
      for (const column of spec.key) query = query.orderBy(column);
      query = spec.key[0] === "id" ? query.where("id", ">", after) : query.offset(after);
      return (await query.limit(limit).execute()) as ArchiveRow[];
    },
    async siteKeys() {
      const rows = await db.selectFrom("archive_keys").select(["key", "target_id"]).execute();
      return new Map(rows.map((row) => [String(row.key), Number(row.target_id)]));
    },
    async insertSiteKeys(rows, at) {
      for (let start = 0; start < rows.length; start += 500) {
        const chunk = rows.slice(start, start + 500);
        await db
          .insertInto("archive_keys")
          .values(chunk.map((row) => ({ key: row.key, target_id: row.targetId, created_at: at })))
          .execute();
      }
    },
    async accounts(ids) {
      if (ids.length === 0) return [];
      return (await db
        .selectFrom("users")
        .select(ACCOUNT_SPEC.columns.map((column) => sql.ref<unknown>(column).as(column)))
        .where("id", "in", [...ids])
        .orderBy("id")
        .execute()) as ArchiveRow[];
    },
    async names(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("users")
        .select(["id", "name"])
        .where("id", "in", [...ids])
        .execute();
      return new Map(rows.map((row) => [Number(row.id), String(row.name)]));
    },
    async accountByEmail(email) {
      const row = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
      return row === undefined ? undefined : Number(row.id);
    },
    async importedGroup(key) {
      const row = await db
        .selectFrom("import_keys")
        .select("target_id")
        .where("key", "=", key)
        .orderBy("group_id")
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.target_id);
    },
    async idTaken(table, id) {
      const row = await db.selectFrom(table).select("id").where("id", "=", id).executeTakeFirst();
      return row !== undefined;
    },
    async exists(table, where) {
      let query = db.selectFrom(table).select(sql<number>`1`.as("one"));
      for (const [column, value] of Object.entries(where))
        query = value === null ? query.where(column, "is", null) : query.where(column, "=", value);
      return (await query.limit(1).executeTakeFirst()) !== undefined;
    },
    async insertWithId(table, row) {
      const made = await db.insertInto(table).values(row).returning("id").executeTakeFirstOrThrow();
      return Number(made.id);
    },
    async insert(table, row) {
      await db.insertInto(table).values(row).execute();
    },
    async raiseCommentCounter(kind, parentId, number) {
      await db
        .insertInto("comment_counters")
        .values({ parent_kind: kind, parent_id: parentId, last_number: number })
        .onConflict((conflict) =>
          conflict.columns(["parent_kind", "parent_id"]).doUpdateSet({
            last_number: sql<number>`case when comment_counters.last_number < ${number} then ${number} else comment_counters.last_number end`,
          }),
        )
        .execute();
    },
    async chatLastNumber(roomId) {
      const row = await db.selectFrom("chat_rooms").select("last_number").where("id", "=", roomId).executeTakeFirst();
      return Number(row?.last_number ?? 0);
    },
    async raiseChatLastNumber(roomId, number) {
      await db
        .updateTable("chat_rooms")
        .set({ last_number: number })
        .where("id", "=", roomId)
        .where("last_number", "<", number)
        .execute();
    },
    async continueIds(table) {
      if (engine !== "postgres") return; // SQLite's AUTOINCREMENT already continues after the largest id
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce(max(id), 0) + 1, false) from ${sql.table(table)}`.execute(
        db,
      );
    },
  };
}
