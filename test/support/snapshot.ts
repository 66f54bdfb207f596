// What a refused request must leave as it was: every row of every table and every stored file,
// read behind the server's back through a second connection to the same database.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Kysely } from "kysely";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { TABLES_IN_DEPENDENCY_ORDER } from "../../src/store/tables.js";
import type { TestServer } from "./server.js";

/**
 * Protection, not data: a correctly signed request spends its nonce even when what it asks for is
 * then refused (a replay of it must stay refused), and a failed sign-in is counted (throttling).
 */
const NOT_DATA: ReadonlySet<string> = new Set(["oauth_nonces", "login_failures"]);

/** Rows per table (each row as sorted JSON, so order never matters) and stored files with sizes. */
export interface DataSnapshot {
  readonly tables: Readonly<Record<string, readonly string[]>>;
  readonly files: readonly string[];
}

/** Takes snapshots of one test server's data. */
export interface Snapshotter {
  take(): Promise<DataSnapshot>;
  close(): Promise<void>;
}

// Rows differ per table; a snapshot only compares them, so it reads tables generically.
type AnyTables = Record<string, Record<string, unknown>>;

/** Opens a second connection to the server's database (SQLite file or PostgreSQL schema). */
export function openSnapshotter(server: TestServer): Snapshotter {
  const config = server.storeConfig;
  const db = (config.kind === "sqlite"
    ? openSqliteDatabase(config.file)
    : openPostgresDatabase({ url: config.url, poolSize: 4 })) as unknown as Kysely<AnyTables>;
  const databaseFiles =
    config.kind === "sqlite" ? new Set([config.file, `${config.file}-wal`, `${config.file}-shm`]) : new Set<string>();
  return {
    async take() {
      const names = TABLES_IN_DEPENDENCY_ORDER.filter((table) => !NOT_DATA.has(table));
      // In parallel: one round trip's time on PostgreSQL instead of one per table.
      const rows = await Promise.all(names.map((table) => db.selectFrom(table).selectAll().execute()));
      const tables = Object.fromEntries(
        names.map((table, i) => [
          table,
          (rows[i] ?? []).map((row) => JSON.stringify(row, Object.keys(row).sort())).sort(),
        ]),
      );
      return { tables, files: listFiles(server.dataDir, server.dataDir, databaseFiles) };
    },
    close: () => db.destroy(),
  };
}

function listFiles(root: string, dir: string, skip: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (skip.has(path)) continue;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) continue; // removed while we looked (a discarded temporary file)
    if (stat.isDirectory()) found.push(...listFiles(root, path, skip));
    else found.push(`${relative(root, path)} ${stat.size}`);
  }
  return found;
}

/** What differs between two snapshots, in words; "" when they are equal. */
export function describeChange(before: DataSnapshot, after: DataSnapshot): string {
  const changes: string[] = [];
  for (const table of Object.keys(before.tables)) {
    const was = new Set(before.tables[table]);
    const now = new Set(after.tables[table]);
    const added = [...now].filter((row) => !was.has(row));
    const removed = [...was].filter((row) => !now.has(row));
    if (added.length > 0 || removed.length > 0)
      changes.push(`${table}: +${added.length} -${removed.length} ${[...added, ...removed].slice(0, 2).join(" ")}`);
  }
  const was = new Set(before.files);
  const now = new Set(after.files);
  const files = [...now]
    .filter((f) => !was.has(f))
    .map((f) => `+${f}`)
    .concat([...was].filter((f) => !now.has(f)).map((f) => `-${f}`));
  if (files.length > 0) changes.push(`files: ${files.slice(0, 4).join(", ")}`);
  return changes.join("; ");
}
