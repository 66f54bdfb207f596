import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import type { Database } from "../schema.js";
import { repositories } from "../queries/index.js";
import type { Store } from "../store.js";
import { sqliteMigrations } from "./migrations/index.js";

/**
 * Opens (creating if needed) the SQLite database file.
 *
 * Durability: WAL with synchronous=NORMAL. A committed transaction is in the WAL before the
 * response is sent, so a killed process (SIGKILL, crash) loses nothing it acknowledged; only an
 * operating-system crash or power cut can lose the last transactions. busy_timeout lets the CLI
 * and the server share the file.
 */
export function openSqliteStore(file: string): Store {
  const db = openSqliteDatabase(file);
  const root = repositories(db);
  return {
    transaction: (work) => db.transaction().execute((trx) => work(repositories(trx))),
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
export function openSqliteDatabase(file: string): Kysely<Database> {
  mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}
