import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type SqliteDatabase } from "kysely";
import type { SqliteSynchronous } from "../../config/config.js";
import type { Database } from "../schema.js";
import { repositories } from "../queries/index.js";
import type { Store } from "../store.js";
import { sqliteMigrations } from "./migrations/index.js";

/**
 * Opens (creating if needed) the SQLite database file.
 *
 * Durability: WAL with synchronous=NORMAL by default. A committed transaction has been written
 * to the WAL file (the operating system's page cache) before the response is sent, so a killed
 * process (SIGKILL, crash) loses nothing it acknowledged: test/reliability/crash.test.ts kills a
 * server under load to prove it. Only an operating-system crash or power cut can lose the last
 * transactions (never corrupt the file); "full" syncs the WAL at every commit against that too,
 * at about 2-3 ms per commit on the machines measured (README). busy_timeout lets the CLI and the
 * server share the file.
 */
export function openSqliteStore(file: string, synchronous: SqliteSynchronous = "normal"): Store {
  const db = openSqliteDatabase(file, synchronous);
  const root = repositories(db, "sqlite");
  return {
    transaction: (work) => db.transaction().execute((trx) => work(repositories(trx, "sqlite"))),
    read: (work) => work(root),
    async migrate() {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ ...sqliteMigrations }) } });
      const { error } = await migrator.migrateToLatest();
      if (error) throw error;
    },
    async isEmpty() {
      const row = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
      return row === undefined;
    },
    close: () => db.destroy(),
  };
}

/** The Kysely handle over the file with Kairan's pragmas (the store and `kairan copy` use it). */
export function openSqliteDatabase(file: string, synchronous: SqliteSynchronous = "normal"): Kysely<Database> {
  mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma(`synchronous = ${synchronous === "full" ? "FULL" : "NORMAL"}`);
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  // A group's fan-out writes one entry into each member's part of the notification page index:
  // thousands of scattered pages per statement (bench/fanout.ts, README "Performance").
  // - A 32 MB page cache (the default is 2 MB) keeps those pages in memory between fan-outs
  //   instead of re-reading them from the file; 16 MB was not enough for 5,000 members.
  // - The upsert's statement journal (the pages it changed, kept to undo the statement) stays in
  //   memory instead of a temporary file: about half the fan-out's system time.
  // - A checkpoint every 10,000 pages (about 40 MB of WAL) instead of every 1,000: one fan-out
  //   dirties more than 1,000 pages, so each commit checkpointed; now a checkpoint copies the latest
  //   version of pages written by several commits once. The WAL file is cut back to 64 MB after one.
  database.pragma("cache_size = -32768");
  database.pragma("temp_store = MEMORY");
  database.pragma("wal_autocheckpoint = 10000");
  database.pragma("journal_size_limit = 67108864");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
}

/** Prepared statements kept per SQL text; a bound on their number keeps memory flat. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; parsing and planning it was about a tenth of a board read's
 * CPU. The same few SQL texts repeat, so their statements are kept (Kysely runs one query at a
 * time per connection, so a statement is never used by two queries at once).
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement === undefined) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
        statement = database.prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}
