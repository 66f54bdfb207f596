import { Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { commitChannel, timed } from "../events.js";
import type { Database } from "../schema.js";
import { repositories } from "../queries/index.js";
import { sharingTemplatesOf } from "../queries/prepared.js";
import { callerViewReader, viewVersionReader } from "../queries/view-version.js";
import type { Store } from "../store.js";
import { migrationsFor } from "../migrations/index.js";
import { type NestingOptions, TransactionScope } from "../nesting.js";
import { asStorageFull } from "../storage-full.js";
import { LiveListener } from "./listen.js";
import { withSchemaOption } from "./url.js";
// The triggers' clock: versions are compared with the time they were stamped with.
import { POSTGRES_NOW_MS } from "../migrations/0009-change-versions.postgres.js";

/** How to reach PostgreSQL. */
export interface PostgresOptions extends NestingOptions {
  /** `postgres://user@host:port/db`; `?search_path=name` (or pg's `?options=-c%20search_path%3Dname`) selects a schema. */
  readonly url: string;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
  /** How long a new connection may take to be ready, or a query to wait for a free one (default 30 s). */
  readonly connectTimeoutMs?: number;
}

/**
 * pg waits forever by default. A database that accepts connections and never answers (a hung
 * server, a half-open network) would then hold every request, and every stop (the mail sender
 * finishes its pass first), for good; past this, the query fails and the caller says so.
 */
const CONNECT_TIMEOUT_MS = 30_000;

const INT8_OID = 20;

/** Opens a pool to PostgreSQL. Nothing is created until `migrate()`. */
export function openPostgresStore(options: PostgresOptions): Store {
  const db = openPostgresDatabase(options);
  const root = repositories(db, "postgres");
  const scope = new TransactionScope(options.checkNesting === true);
  const live = new LiveListener(options.url);
  return {
    // A full disk (SQLSTATE 53100) is answered as such (StorageFullError), not as a fault.
    async transaction(work) {
      scope.check("transaction");
      return timed(
        commitChannel,
        () =>
          db
            .transaction()
            .execute((trx) => scope.enter(() => work(repositories(sharingTemplatesOf(trx, db), "postgres", true)))),
        (seconds, failed) => ({ engine: "postgres", transactions: 1, seconds, failed }),
      ).catch((error: unknown) => {
        throw asStorageFull(error);
      });
    },
    async read(work) {
      // It would not wait, but run on another connection, outside the transaction's view: as on SQLite, refused.
      scope.check("read");
      return work(root);
    },
    async migrate() {
      // Kysely looks for its migration table in every schema unless told which one; several
      // Kairan databases (or test schemas) in one PostgreSQL would otherwise see each other's.
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      const schema = rows[0]?.schema;
      if (!schema) throw new Error("PostgreSQL has no current schema: check search_path in the database URL");
      const migrator = new Migrator({
        db,
        migrationTableSchema: schema,
        provider: { getMigrations: async () => ({ ...migrationsFor("postgres") }) },
      });
      // Kysely's first look for its tables reads every schema of the database by name: a schema
      // (or a table) another process drops meanwhile fails that look, never our own.
      for (let attempt = 1; ; attempt++) {
        const { error } = await migrator.migrateToLatest();
        if (!error) return;
        if (attempt === 5 || !otherSchemaVanished(error, schema)) throw error;
      }
    },
    async isEmpty() {
      const row = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
      return row === undefined;
    },
    viewVersion: viewVersionReader(db, POSTGRES_NOW_MS),
    callerView: callerViewReader(db, POSTGRES_NOW_MS),
    onLiveEvents: (onWake) => live.subscribe(onWake),
    pool: poolState(POOLS.get(db)),
    async close() {
      await live.close();
      await db.destroy();
    },
  };
}

/**
 * Whether `error` is Kysely's first look failing on another database's objects. It reads every
 * schema's tables and resolves each by name (pg_get_serial_sequence), so a schema, or a table in
 * it, that another process drops meanwhile fails the look: "schema X does not exist" (3F000) or
 * "relation "X.T" does not exist" (42P01), for an X other than `own`. Trying again is safe.
 */
export function otherSchemaVanished(error: unknown, own: string): boolean {
  if (!(error instanceof pg.DatabaseError)) return false;
  const named =
    error.code === "3F000"
      ? /^schema "(.+)" does not exist$/.exec(error.message)?.[1]
      : error.code === "42P01"
        ? /^relation "(.+)\.[^."]+" does not exist$/.exec(error.message)?.[1]
        : undefined;
  return named !== undefined && named !== own;
}

/** Each handle's pool, for the store's pool figures (Kysely does not hand it back). */
const POOLS = new WeakMap<Kysely<Database>, pg.Pool>();

function poolState(pool: pg.Pool | undefined) {
  return pool && (() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
}

/**
 * The Kysely handle over a pool (the store and `kairan copy` use it).
 *
 * pg hands int8 back as a string (it may exceed 2^53); our int8 columns are ids and epoch
 * milliseconds, which fit, so they are parsed as Number for this pool only (not pg's global table).
 */
export function openPostgresDatabase(options: PostgresOptions): Kysely<Database> {
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, Number);
  const pool = new pg.Pool({
    connectionString: withSchemaOption(options.url),
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    types,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  POOLS.set(db, pool);
  return db;
}
