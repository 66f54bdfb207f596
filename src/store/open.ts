import pg from "pg";
import type { StoreConfig } from "../config/config.js";
import { openPostgresStore } from "./postgres/open.js";
import { withSchemaOption } from "./postgres/url.js";
import { type SqliteStoreOptions, openSqliteStore } from "./sqlite/open.js";
import type { Store } from "./store.js";
import {
  StoreUnavailableError,
  describePostgresFailure,
  describeSqliteFailure,
  postgresTarget,
} from "./unavailable.js";

/**
 * Opens the store the configuration names, after making sure it can be used: a database that
 * cannot be reached or opened is one StoreUnavailableError naming the cause and the fix, before
 * anything is written. `options` apply to SQLite only, but for `checkNesting` (both engines).
 * @throws StoreUnavailableError
 */
export async function openStore(config: StoreConfig, options: SqliteStoreOptions = {}): Promise<Store> {
  switch (config.kind) {
    case "sqlite":
      try {
        return openSqliteStore(config.file, config.synchronous, options);
      } catch (error) {
        throw explained(error, describeSqliteFailure(error, config.file));
      }
    case "postgres":
      await checkPostgres(config.url);
      return openPostgresStore({ url: config.url, checkNesting: options.checkNesting });
  }
}

/** How long to wait for PostgreSQL to accept a connection at start. */
const CONNECT_TIMEOUT_MS = 10_000;

/** One connection that reads the schema the store will use (the pool connects only on first use). */
async function checkPostgres(url: string): Promise<void> {
  const target = postgresTarget(url);
  const client = new pg.Client({
    connectionString: withSchemaOption(url),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An error after connecting (the server going away) must not crash the process: it is reported below.
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ schema: string | null; path: string }>(
      "select current_schema() as schema, current_setting('search_path') as path",
    );
    if (!rows[0]?.schema)
      throw new StoreUnavailableError(
        `PostgreSQL at ${target}: no schema of search_path "${rows[0]?.path ?? ""}" exists; create it (CREATE SCHEMA) or fix search_path in --database`,
      );
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    throw explained(error, describePostgresFailure(error, target));
  } finally {
    await client.end().catch(() => undefined);
  }
}

function explained(error: unknown, sentence: string | undefined): unknown {
  return sentence === undefined ? error : new StoreUnavailableError(sentence, { cause: error });
}
