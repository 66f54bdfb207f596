import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "node:test";
import pg from "pg";
import type { StoreConfig } from "../../src/config/config.js";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/store.js";
import { postgresFromTemplate, savePostgresTemplate, sqliteFromTemplate } from "./store-template.js";

/** A database engine the suites run against. */
export type Backend = "sqlite" | "postgres";

/** The PostgreSQL server tests may use (unset: SQLite only, and nothing but Node is needed). */
export const TEST_DATABASE_URL: string | undefined = process.env.KAIRAN_TEST_DATABASE_URL || undefined;

/** Backends to run every store and HTTP suite against: always SQLite, PostgreSQL when configured. */
export function testBackends(): readonly Backend[] {
  return TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
}

/** `describe(name [backend])` once per backend; new suites adopt this instead of a bare `describe`. */
export function describeEachBackend(name: string, fn: (backend: Backend) => void): void {
  for (const backend of testBackends()) describe(`${name} [${backend}]`, () => fn(backend));
}

/** A fresh, empty PostgreSQL schema and a URL whose connections use it. */
export interface TestSchema {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named schema, so test files running in parallel never share tables.
 * @throws when KAIRAN_TEST_DATABASE_URL is set but the server cannot be reached (never a silent skip)
 */
export async function createTestSchema(): Promise<TestSchema> {
  const base = TEST_DATABASE_URL;
  if (!base) throw new Error("KAIRAN_TEST_DATABASE_URL is not set; PostgreSQL tests need it");
  const name = `kairan_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQuery(base, `create schema ${name}`);
  return {
    url: withSearchPath(base, name),
    name,
    drop: () => dropSchema(base, name),
  };
}

/**
 * Drops a test schema with everything in it. PostgreSQL may pick the drop as a deadlock's victim
 * (40P01) when another session locks two of its tables in the other order (seen once in a full
 * run: the other session waited for a ShareUpdateExclusiveLock, an analyze's or a vacuum's); the
 * schema, which nobody else uses, drops at the next try.
 */
async function dropSchema(url: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await adminQuery(url, `drop schema if exists ${name} cascade`);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "40P01" || attempt === 3) throw error;
    }
  }
}

/** The URL with `options=-c search_path=NAME`, the way pg (and libpq) take connection options. */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `KAIRAN_TEST_DATABASE_URL is set but PostgreSQL at ${redact(url)} is unreachable: ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

/** A migrated, empty store on one backend, plus the data directory for files. */
export interface TestStore {
  readonly store: Store;
  readonly storeConfig: StoreConfig;
  readonly dataDir: string;
  close(): Promise<void>;
}

/**
 * Opens and migrates a fresh store: a SQLite file in a temporary directory, or a fresh PostgreSQL schema.
 * `restore` fills that new database first (an earlier release's database: test/store/migrate-on.test.ts).
 */
export async function openTestStore(
  backend: Backend,
  restore?: (config: StoreConfig) => Promise<void>,
): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), "kairan-test-"));
  const schema = backend === "postgres" ? await createTestSchema() : undefined;
  const storeConfig: StoreConfig = schema
    ? { kind: "postgres", url: schema.url }
    : { kind: "sqlite", file: join(dataDir, "kairan.sqlite") };
  // A copy of a migrated template (store-template.ts), except where the migrator is what is tested.
  let copied = false;
  if (restore !== undefined) await restore(storeConfig);
  else if (storeConfig.kind === "sqlite") copied = await sqliteFromTemplate(storeConfig.file);
  else if (schema !== undefined) copied = await postgresFromTemplate(schema.url, schema.name);
  // Every test store refuses a nested transaction at once (src/store/nesting.ts): the suite is
  // where that mistake is caught; the server runs without the check's cost.
  const store = await openStore(storeConfig, { checkNesting: true });
  if (!copied) {
    await store.migrate();
    if (restore === undefined && schema !== undefined) savePostgresTemplate(TEST_DATABASE_URL ?? "", schema.name);
  }
  return {
    store,
    storeConfig,
    dataDir,
    async close() {
      await store.close();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
