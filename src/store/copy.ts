import { existsSync } from "node:fs";
import { type Kysely, sql } from "kysely";
import { openStore } from "./open.js";
import { openPostgresDatabase } from "./postgres/open.js";
import { openSqliteDatabase } from "./sqlite/open.js";
import { TABLES_IN_DEPENDENCY_ORDER } from "./tables.js";

/** A copy that must not start (missing source, non-empty target): one message, exit status 2. */
export class CopyError extends Error {
  override name = "CopyError";
}

/** Rows copied per table. */
export type CopyReport = Readonly<Record<string, number>>;

// Row shapes differ per table; the copy moves them as they are, so it sees tables generically.
type AnyTables = Record<string, Record<string, unknown>>;

const BATCH = 500;

/**
 * Copies every table of a SQLite database file into an empty PostgreSQL database, ids preserved,
 * in one PostgreSQL transaction, then moves each identity sequence past the largest copied id.
 * Both sides are migrated to the latest schema first (as `kairan serve` would on its next start).
 * `beforeRows` runs inside the transaction once the target is known to be empty (the stored
 * files go first): when it fails, no row is committed and the copy can run again.
 * @throws CopyError when the source file is missing or the target holds any row
 */
export async function copySqliteToPostgres(
  sqliteFile: string,
  postgresUrl: string,
  options: { beforeRows?: () => Promise<void> } = {},
): Promise<CopyReport> {
  if (!existsSync(sqliteFile)) throw new CopyError(`no SQLite database at ${sqliteFile}`);
  // openStore first: an unreachable or missing database is one clear StoreUnavailableError.
  const configs = [
    { kind: "sqlite", file: sqliteFile },
    { kind: "postgres", url: postgresUrl },
  ] as const;
  for (const config of configs) {
    const store = await openStore(config);
    try {
      await store.migrate();
    } finally {
      await store.close();
    }
  }
  const source = openSqliteDatabase(sqliteFile) as unknown as Kysely<AnyTables>;
  const target = openPostgresDatabase({ url: postgresUrl }) as unknown as Kysely<AnyTables>;
  try {
    return await target.transaction().execute(async (trx) => {
      await refuseNonEmpty(trx);
      await options.beforeRows?.();
      const report: Record<string, number> = {};
      for (const table of TABLES_IN_DEPENDENCY_ORDER) report[table] = await copyTable(source, trx, table);
      await resetIdentitySequences(trx);
      return report;
    });
  } finally {
    await Promise.all([source.destroy(), target.destroy()]);
  }
}

async function refuseNonEmpty(db: Kysely<AnyTables>): Promise<void> {
  for (const table of TABLES_IN_DEPENDENCY_ORDER) {
    const row = await db
      .selectFrom(table)
      .select(sql<number>`1`.as("one"))
      .limit(1)
      .executeTakeFirst();
    if (row)
      throw new CopyError(
        `the target database is not empty (table ${table} has rows); kairan copy only fills an empty database`,
      );
  }
}

async function copyTable(source: Kysely<AnyTables>, target: Kysely<AnyTables>, table: string): Promise<number> {
  let copied = 0;
  for (;;) {
    // rowid order is insertion order: stable batches, and parents come before children within a table.
    const rows = await source
      .selectFrom(table)
      .selectAll()
      .orderBy(sql`rowid`)
      .limit(BATCH)
      .offset(copied)
      .execute();
    if (rows.length === 0) return copied;
    await target.insertInto(table).values(rows).execute();
    copied += rows.length;
  }
}

/** Identity columns hand out max(id)+1 next, so the copied database never reuses an id. */
async function resetIdentitySequences(db: Kysely<AnyTables>): Promise<void> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and is_identity = 'YES'`.execute(db);
  for (const { table_name: table, column_name: column } of rows) {
    await sql`select setval(pg_get_serial_sequence(quote_ident(${table}), ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false)
      from ${sql.table(table)}`.execute(db);
  }
}
