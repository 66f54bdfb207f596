import { type Kysely, type Migration, sql } from "kysely";
import { INDEXED_TABLES_0014, type IndexedTable, ftsTableOf } from "../search-index.js";
import { columnTypes } from "./columns.js";
import { createFileSearchTexts } from "./0014-search.tables.js";

/**
 * The full-text index on SQLite: an FTS5 table per indexed table, with the trigram tokenizer (it
 * finds any substring of three characters or more, Japanese included, without a dictionary), over
 * the table's own rows (external content: the text is not stored twice). Triggers keep it in step
 * in the writing transaction, whoever writes; `columnsize=0` drops the per-row sizes only ranking
 * by relevance would read (results are newest first).
 */
export const search: Migration = {
  async up(db: Kysely<unknown>) {
    await createFileSearchTexts(db, columnTypes("sqlite"));
    for (const indexed of INDEXED_TABLES_0014) await createFtsIndex(db, indexed);
  },
};

/** One table's FTS5 index, its three triggers, and its rows indexed (0014, and 0047 for later tables). */
export async function createFtsIndex(db: Kysely<unknown>, { table, key, columns }: IndexedTable): Promise<void> {
  const fts = ftsTableOf(table);
  const list = columns.join(", ");
  const values = (row: "new" | "old") => [`${row}.${key}`, ...columns.map((c) => `${row}.${c}`)].join(", ");
  await sql
    .raw(
      `CREATE VIRTUAL TABLE ${fts} USING fts5(${list}, content='${table}', content_rowid='${key}', ` +
        `tokenize='trigram', columnsize=0)`,
    )
    .execute(db);
  const add = `INSERT INTO ${fts} (rowid, ${list}) VALUES (${values("new")});`;
  const drop = `INSERT INTO ${fts} (${fts}, rowid, ${list}) VALUES ('delete', ${values("old")});`;
  await sql.raw(`CREATE TRIGGER ${fts}_insert AFTER INSERT ON ${table} BEGIN ${add} END`).execute(db);
  await sql.raw(`CREATE TRIGGER ${fts}_delete AFTER DELETE ON ${table} BEGIN ${drop} END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER ${fts}_update AFTER UPDATE OF ${list} ON ${table} BEGIN ${drop} ${add} END`)
    .execute(db);
  await sql.raw(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`).execute(db);
}
