// What a refused request must leave as it was: every row of every table and every stored file,
// read behind the server's back through a second connection to the same database.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { type Kysely, sql } from "kysely";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { TABLES_IN_DEPENDENCY_ORDER } from "../../src/store/tables.js";
import type { TestServer } from "./server.js";

/**
 * Protection, not data: a correctly signed request spends its nonce even when what it asks for is
 * then refused (a replay of it must stay refused), and a failed sign-in is counted (throttling).
 */
const NOT_DATA: ReadonlySet<string> = new Set(["oauth_nonces", "login_failures"]);

/**
 * The outbox's delivery state: the sender (services/mail/sender.ts) moves it, and writes the
 * outbox folder, on its own time after the request that queued a message. A refused request must
 * still queue nothing: the rows themselves stay compared.
 */
const DELIVERY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  mail_outbox: ["status", "attempts", "next_attempt_at", "claimed_until", "sent_at", "last_error"],
};
const DELIVERY_FOLDER = "outbox";

/**
 * A refusal is recorded by design: the audit log keeps a "refused" row of a failed sign-in, a
 * lockout or a form an administrator may not send, and nothing else is written. Those rows are the
 * refusal's own trace, not a change it made; every other audit row stays compared.
 */
const isRefusalTrace = (table: string, row: Record<string, unknown>): boolean =>
  table === "audit_events" && row.outcome === "refused";

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

/**
 * Opens a second connection to the server's database (SQLite file or PostgreSQL schema).
 *
 * Reading every table after every request is most of a fuzz run's time, so a snapshot reuses the
 * previous one's rows when the database says no write has happened since: SQLite's `data_version`
 * of this connection moves whenever another connection commits; on PostgreSQL a statement-level
 * trigger on every table (installed here, in the test's schema only) takes a number from a
 * sequence, which no transaction locks or rolls back. Both can only say "maybe changed" too often
 * (a write of nothing, a rolled-back one), never miss a commit. Files are listed every time.
 */
export function openSnapshotter(server: TestServer): Snapshotter {
  const config = server.storeConfig;
  const db = (config.kind === "sqlite"
    ? openSqliteDatabase(config.file)
    : openPostgresDatabase({ url: config.url, poolSize: 4 })) as unknown as Kysely<AnyTables>;
  const databaseFiles =
    config.kind === "sqlite" ? new Set([config.file, `${config.file}-wal`, `${config.file}-shm`]) : new Set<string>();
  // PostgreSQL's triggers are installed at the first take (opening stays synchronous for its callers).
  let writeMark: Promise<() => Promise<string>> | undefined;
  let previous: { mark: string; tables: DataSnapshot["tables"] } | undefined;
  const names = TABLES_IN_DEPENDENCY_ORDER.filter((table) => !NOT_DATA.has(table));
  const readTables = async (): Promise<DataSnapshot["tables"]> => {
    // In parallel: one round trip's time on PostgreSQL instead of one per table.
    const rows = await Promise.all(names.map((table) => db.selectFrom(table).selectAll().execute()));
    return Object.fromEntries(
      names.map((table, i) => [
        table,
        (rows[i] ?? [])
          .filter((row) => !isRefusalTrace(table, row))
          .map((row) => {
            const kept = Object.keys(row).filter((key) => !(DELIVERY_COLUMNS[table] ?? []).includes(key));
            return JSON.stringify(row, kept.sort());
          })
          .sort(),
      ]),
    );
  };
  return {
    async take() {
      // The mark first: a write that lands while the tables are read moves it for the next take.
      writeMark ??= config.kind === "sqlite" ? Promise.resolve(sqliteWriteMark(db)) : postgresWriteMark(db);
      const mark = await (await writeMark)();
      const tables = previous?.mark === mark ? previous.tables : await readTables();
      previous = { mark, tables };
      return { tables, files: listFiles(server.dataDir, server.dataDir, databaseFiles) };
    },
    close: () => db.destroy(),
  };
}

/** SQLite: this connection's `data_version`, which moves when any other connection commits. */
function sqliteWriteMark(db: Kysely<AnyTables>): () => Promise<string> {
  return async () => {
    const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(db);
    return String(rows[0]?.data_version);
  };
}

/** PostgreSQL: a sequence that a statement trigger on every table of the schema advances. */
async function postgresWriteMark(db: Kysely<AnyTables>): Promise<() => Promise<string>> {
  await sql`create sequence if not exists kairan_test_writes`.execute(db);
  await sql`create or replace function kairan_test_count_write() returns trigger language plpgsql as $$
    begin perform nextval('kairan_test_writes'); return null; end $$`.execute(db);
  for (const table of TABLES_IN_DEPENDENCY_ORDER) {
    await sql
      .raw(
        `create or replace trigger kairan_test_writes after insert or update or delete or truncate on ${table} ` +
          "for each statement execute function kairan_test_count_write()",
      )
      .execute(db);
  }
  return async () => {
    const { rows } = await sql<{
      n: string;
    }>`select last_value::text || is_called::text as n from kairan_test_writes`.execute(db);
    return rows[0]?.n ?? "";
  };
}

function listFiles(root: string, dir: string, skip: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (skip.has(path) || (dir === root && name === DELIVERY_FOLDER)) continue;
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
  // The same rows object: the database was not written between the two (see openSnapshotter).
  for (const table of before.tables === after.tables ? [] : Object.keys(before.tables)) {
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
