import { type Kysely, type Migration, sql } from "kysely";
import { INDEXED_TABLES_0014, type IndexedTable, searchedText, trigramIndexOf } from "../search-index.js";
import { columnTypes } from "./columns.js";
import { createFileSearchTexts } from "./0014-search.tables.js";

/**
 * The full-text index on PostgreSQL: a GIN index of trigrams (the pg_trgm extension) on each
 * indexed table's searched text, which serves `ILIKE '%term%'` for terms of three characters or
 * more, Japanese included. PostgreSQL keeps it in the writing transaction itself.
 */
export const search: Migration = {
  async up(db: Kysely<unknown>) {
    const schema = await trigramSchema(db);
    await createFileSearchTexts(db, columnTypes("postgres"));
    for (const indexed of INDEXED_TABLES_0014) await createTrigramIndex(db, schema, indexed);
  },
};

/** One table's GIN trigram index on exactly its searched text (0014, and 0047 for later tables). */
export async function createTrigramIndex(db: Kysely<unknown>, schema: string, indexed: IndexedTable): Promise<void> {
  const expression = indexed.columns.length === 1 ? indexed.columns[0] : `(${searchedText(indexed, indexed.table)})`;
  await sql
    .raw(
      `CREATE INDEX ${trigramIndexOf(indexed.table)} ON ${indexed.table} ` +
        `USING gin ((${expression}) "${schema}".gin_trgm_ops)`,
    )
    .execute(db);
}

/**
 * Makes sure pg_trgm is installed (in `public`, never in a schema of Kairan's own that could be
 * dropped with it) and returns the schema that holds it.
 * @throws Error naming the extension and what the operator can do, when it cannot be created
 */
export async function trigramSchema(db: Kysely<unknown>): Promise<string> {
  const installed = async () =>
    (
      await sql<{ schema: string }>`SELECT n.nspname AS schema FROM pg_extension e
        INNER JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  const found = await installed();
  if (found !== undefined) return found;
  // Migrations run in one transaction: a savepoint keeps it usable when the statement fails.
  await sql`SAVEPOINT kairan_pg_trgm`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT kairan_pg_trgm`.execute(db);
    // Another server migrating another schema of the same database may have created it meanwhile.
    const now = await installed();
    if (now !== undefined) return now;
    throw new Error(
      "search needs the PostgreSQL extension pg_trgm, which could not be created " +
        `(${(error as Error).message}): install PostgreSQL's contrib modules and let a superuser run ` +
        "CREATE EXTENSION pg_trgm SCHEMA public in this database, then start again",
      { cause: error },
    );
  }
  return (await installed()) ?? "public";
}
