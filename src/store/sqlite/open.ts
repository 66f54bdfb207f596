import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { type Driver, Kysely, Migrator, SqliteDialect, type SqliteDatabase, sql } from "kysely";
import type { SqliteSynchronous } from "../../config/config.js";
import type { Database } from "../schema.js";
import { repositories } from "../queries/index.js";
import { sharingTemplatesOf } from "../queries/prepared.js";
import { callerViewReader, viewVersionReader } from "../queries/view-version.js";
import type { Store } from "../store.js";
import { migrationsFor } from "../migrations/index.js";
import { type NestingOptions, TransactionScope } from "../nesting.js";
import { asStorageFull } from "../storage-full.js";
import { memoisedCallerView } from "./caller-memo.js";
import { startCheckpointer } from "./checkpointer.js";
import { WriteBatcher } from "./write-batch.js";
// The triggers' clock: versions are compared with the time they were stamped with.
import { SQLITE_NOW_MS } from "../migrations/0009-change-versions.sqlite.js";

/**
 * Opens (creating if needed) the SQLite database file.
 *
 * Durability: WAL with synchronous=NORMAL by default. A committed transaction has been written
 * to the WAL file (the operating system's page cache) before the response is sent, so a killed
 * process (SIGKILL, crash) loses nothing it acknowledged: test/reliability/crash.test.ts kills a
 * server under load to prove it. Only an operating-system crash or power cut can lose the last
 * transactions (never corrupt the file); "full" syncs the WAL at every commit against that too,
 * at about 2-3 ms per commit on the machines measured (docs/operations.md "Durability"). busy_timeout lets the CLI and the
 * server share the file.
 */
export function openSqliteStore(
  file: string,
  synchronous: SqliteSynchronous = "normal",
  options: SqliteStoreOptions = {},
): Store {
  const background = options.backgroundCheckpoints === true;
  const db = openSqliteDatabase(file, synchronous, background ? BACKSTOP_WAL_BYTES : CHECKPOINT_WAL_BYTES);
  // The thread failed: commits checkpoint again at the usual threshold.
  const checkpointer = background
    ? startCheckpointer(file, () => void sql.raw(`pragma wal_autocheckpoint = ${walPages(db)}`).execute(db))
    : undefined;
  const root = repositories(db, "sqlite");
  const scope = new TransactionScope(options.checkNesting === true);
  const writes = new WriteBatcher(db, inTransactionOf(db));
  // One process writes a SQLite file: its own commits are the only news for its live streams.
  const liveListeners = new Set<() => void>();
  const committed = <T>(value: T): T => {
    for (const listener of liveListeners) listener();
    return value;
  };
  return {
    // Concurrent transactions share one commit (write-batch.ts), each in its own savepoint. The
    // check is made here, in the caller's context: the work itself runs in the batch's. A full
    // disk is answered as such (StorageFullError), not as a fault.
    async transaction(work) {
      scope.check("transaction");
      const done = await writes
        .run((trx) => scope.enter(() => work(repositories(sharingTemplatesOf(trx, db), "sqlite", true))))
        .catch((error: unknown) => {
          throw asStorageFull(error);
        });
      return committed(done);
    },
    onLiveEvents(onWake) {
      liveListeners.add(onWake);
      return () => void liveListeners.delete(onWake);
    },
    async read(work) {
      // A read waits for the one connection, which a running transaction holds.
      scope.check("read");
      return work(root);
    },
    async migrate() {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ ...migrationsFor("sqlite") }) } });
      const { error } = await migrator.migrateToLatest();
      if (error) throw error;
    },
    async isEmpty() {
      const row = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
      return row === undefined;
    },
    viewVersion: viewVersionReader(db, SQLITE_NOW_MS),
    // Remembered until the next write to the file (caller-memo.ts).
    callerView: memoisedCallerView(connectionOf(db), callerViewReader(db, SQLITE_NOW_MS)),
    async close() {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/** How the server's store runs besides the defaults the CLI commands use. */
export interface SqliteStoreOptions extends NestingOptions {
  /**
   * Checkpoint from a background thread instead of at the commit that crosses the threshold
   * (checkpointer.ts). For the long-running server only: a thread is not worth it for a command.
   */
  readonly backgroundCheckpoints?: boolean;
}

/**
 * With the background checkpointer, the serving connection checkpoints only past this much WAL:
 * a backstop, should the thread fall behind (it copies the WAL every 100 ms) or fail.
 */
const BACKSTOP_WAL_BYTES = 160 * 1024 * 1024;

const PAGE_SIZES = new WeakMap<Kysely<Database>, number>();
/** The better-sqlite3 connection under each handle this file opened. */
const CONNECTIONS = new WeakMap<Kysely<Database>, SQLite.Database>();

function connectionOf(db: Kysely<Database>): SQLite.Database {
  const connection = CONNECTIONS.get(db);
  if (connection === undefined) throw new Error("not a handle opened by openSqliteDatabase");
  return connection;
}

/** Whether the connection under a handle opened by openSqliteDatabase is inside a transaction now. */
export function inTransactionOf(db: Kysely<Database>): () => boolean {
  const connection = connectionOf(db);
  return () => connection.inTransaction;
}

/** The usual automatic checkpoint threshold of this handle's file, in pages. */
function walPages(db: Kysely<Database>): number {
  return Math.ceil(CHECKPOINT_WAL_BYTES / (PAGE_SIZES.get(db) ?? NEW_DATABASE_PAGE_SIZE));
}

/** The Kysely handle over the file with Kairan's pragmas (the store and `kairan copy` use it). */
export function openSqliteDatabase(
  file: string,
  synchronous: SqliteSynchronous = "normal",
  checkpointWalBytes: number = CHECKPOINT_WAL_BYTES,
): Kysely<Database> {
  mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  // Before WAL mode: a new file takes it only until it turns to WAL; an existing file keeps its own.
  database.pragma(`page_size = ${NEW_DATABASE_PAGE_SIZE}`);
  database.pragma("journal_mode = WAL");
  database.pragma(`synchronous = ${synchronous === "full" ? "FULL" : "NORMAL"}`);
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  // A group's fan-out writes one entry into each member's part of the notification page index:
  // thousands of scattered pages per statement (bench/fanout.ts, docs/performance.md).
  // - A 32 MB page cache (the default is 2 MB) keeps those pages in memory between fan-outs
  //   instead of re-reading them from the file; 16 MB was not enough for 5,000 members.
  // - Statement and savepoint journals (the pages a statement or a batched write changed, kept to
  //   undo it alone) stay in memory up to 64 KB, then go to a temporary file (SQLite's default).
  //   Entirely in memory, the savepoint of each fan-out to 5,000 members in a write batch held
  //   some 20 MB of page copies and put the server over 200 MB (npm run bench: 205 MB in the
  //   5,000-member comment row, 173 MB with files, at the same speed). The fan-out statement
  //   alone needs no statement journal (queries/notification-fanout.ts).
  // - A checkpoint every 40 MB of WAL instead of every 1,000 pages: one fan-out dirties more than
  //   1,000 pages, so each commit checkpointed; now a checkpoint copies the latest version of pages
  //   written by several commits once. The WAL file is cut back to 64 MB after one.
  const pageSize = Number(database.pragma("page_size", { simple: true }));
  database.pragma("cache_size = -32768");
  database.pragma(`wal_autocheckpoint = ${Math.ceil(checkpointWalBytes / pageSize)}`);
  database.pragma("journal_size_limit = 67108864");
  const db = new Kysely<Database>({ dialect: new SqliteDialectKeepingErrors(database) });
  PAGE_SIZES.set(db, pageSize);
  CONNECTIONS.set(db, database);
  return db;
}

/**
 * SQLite's dialect, whose ROLLBACK runs only inside a transaction. After some errors (SQLITE_FULL
 * above all) SQLite has already rolled the transaction back, and Kysely's ROLLBACK would fail with
 * "cannot rollback - no transaction is active", which then replaced the error that mattered.
 */
class SqliteDialectKeepingErrors extends SqliteDialect {
  readonly #database: SQLite.Database;
  constructor(database: SQLite.Database) {
    super({ database: withStatementCache(database) });
    this.#database = database;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    const database = this.#database;
    driver.rollbackTransaction = async (connection) => {
      if (database.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

/**
 * Page size of new database files (SQLite's default, which older files keep, is 4 KB). In the
 * steady state a fan-out rewrites nearly every leaf page of the notification page index, and it
 * pays per page: a WAL frame (two write calls), a page to balance, a page for the checkpoint to
 * copy. With 4 KB pages that is about one page per member (4,800 for 5,000 members), with 16 KB
 * pages a quarter as many for about the same bytes: 22 ms against 32 for the fan-out statements
 * and their commit (bench/fanout.ts, docs/performance.md). Larger pages gain less and less (with
 * the former upsert: 28 ms at 16 KB, 23 at 32 KB, 21 at 64 KB) while small writes pay more and
 * more: committing one topic row (4 pages: 64 KB of WAL at 16 KB, 16 KB at 4 KB) took 31 µs at
 * 4 KB, 51 at 16 KB, 69 at 32 KB, 99 at 64 KB.
 */
export const NEW_DATABASE_PAGE_SIZE = 16384;

/** WAL bytes between automatic checkpoints (the pragma counts pages, whose size depends on the file). */
const CHECKPOINT_WAL_BYTES = 40 * 1024 * 1024;

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
