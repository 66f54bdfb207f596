// The feed cache is only as good as its change triggers: a table a feed shows whose writes move no
// version would serve stale feeds. So every table of a migrated database must be tracked by triggers
// that exist in that database (not only in the lists) or declared untracked with a reason
// (store/change-tracking.ts). The fixtures below show the check failing on an unclassified table
// and on a tracked table that lost a trigger.
import assert from "node:assert/strict";
import { it } from "node:test";
import { type Kysely, sql } from "kysely";
import { TRACKED_TABLES, type TriggerEvent, UNTRACKED_TABLES } from "../../src/store/change-tracking.js";
import type { Database } from "../../src/store/schema.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { type Backend, type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";

/** The tables of a live database, and the events of its triggers that move a change version. */
interface LiveSchema {
  readonly tables: readonly string[];
  readonly versionTriggers: readonly { readonly table: string; readonly event: TriggerEvent }[];
}

/** What a trigger's body writes when it moves a version (directly, or through PostgreSQL's bump function). */
const MOVES_A_VERSION = /group_changes|member_changes|kairan_bump\(/i;

/**
 * The problems of a database's change coverage, one line each; none when every table is tracked by
 * triggers that exist or declared untracked.
 */
function coverageProblems(
  live: LiveSchema,
  tracked: ReadonlyMap<string, readonly TriggerEvent[]> = TRACKED_TABLES,
  untracked: Readonly<Record<string, string>> = UNTRACKED_TABLES,
): string[] {
  const problems: string[] = [];
  for (const table of live.tables) {
    const events = tracked.get(table);
    if (events !== undefined && table in untracked) problems.push(`${table}: both tracked and declared untracked`);
    else if (events === undefined && !(table in untracked))
      problems.push(`${table}: neither tracked by a change trigger nor declared untracked`);
    for (const event of events ?? []) {
      if (!live.versionTriggers.some((trigger) => trigger.table === table && trigger.event === event))
        problems.push(`${table}: tracked, but no ${event} trigger moves a change version`);
    }
  }
  for (const table of [...tracked.keys(), ...Object.keys(untracked)]) {
    if (!live.tables.includes(table)) problems.push(`${table}: classified, but not in the database`);
  }
  return problems;
}

/** SQLite: the schema table holds each trigger's statement. */
async function sqliteSchema(db: Kysely<Database>): Promise<LiveSchema> {
  const rows = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
    select type, name, tbl_name, sql from sqlite_master where type in ('table', 'trigger')`.execute(db);
  // The full-text index (migration 0014): FTS5 tables and their shadow tables are the index of
  // tracked tables, written by those tables' triggers; no feed reads them.
  const fts = rows.rows.filter((row) => /^create virtual table/i.test(row.sql ?? "")).map((row) => row.name);
  const tables = rows.rows.filter(
    (row) =>
      row.type === "table" &&
      !row.name.startsWith("sqlite_") &&
      !fts.some((name) => row.name === name || row.name.startsWith(`${name}_`)),
  );
  const versionTriggers = rows.rows.flatMap((row) => {
    const event = /\bAFTER\s+(INSERT|UPDATE|DELETE)\b/i.exec(row.sql ?? "")?.[1];
    if (row.type !== "trigger" || event === undefined || !MOVES_A_VERSION.test(row.sql ?? "")) return [];
    return [{ table: row.tbl_name, event: event.toUpperCase() as TriggerEvent }];
  });
  return { tables: tables.map((row) => row.name), versionTriggers };
}

/**
 * Migration 0060's triggers on the item tables (`topics_star_changes_delete`...): they move the
 * versions of the persons who made the item a favorite, not the table's own; counted, they would
 * hide a missing change trigger of the table.
 */
const FAVORITES_RENUMBERING = /_star_changes_/;

/** PostgreSQL: the catalog's triggers of the current schema, with their functions' source. */
async function postgresSchema(db: Kysely<Database>): Promise<LiveSchema> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  // tgtype bits: 4 INSERT, 8 DELETE, 16 UPDATE.
  const triggers = await sql<{ name: string; table: string; type: number; source: string }>`
    select t.tgname as name, c.relname as table, t.tgtype as type, p.prosrc as source
    from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and n.nspname = current_schema()`.execute(db);
  const bits: readonly [number, TriggerEvent][] = [
    [4, "INSERT"],
    [8, "DELETE"],
    [16, "UPDATE"],
  ];
  const versionTriggers = triggers.rows.flatMap((row) =>
    MOVES_A_VERSION.test(row.source) && !FAVORITES_RENUMBERING.test(row.name)
      ? bits.filter(([bit]) => (row.type & bit) !== 0).map(([, event]) => ({ table: row.table, event }))
      : [],
  );
  return { tables: tables.rows.map((row) => row.name), versionTriggers };
}

/** A migrated database of the backend and a second connection to read its catalog and change it. */
async function openScratch(backend: Backend): Promise<{
  readonly db: Kysely<Database>;
  readonly schema: () => Promise<LiveSchema>;
  close(): Promise<void>;
}> {
  const opened: TestStore = await openTestStore(backend);
  const config = opened.storeConfig;
  const db = config.kind === "sqlite" ? openSqliteDatabase(config.file) : openPostgresDatabase({ url: config.url });
  return {
    db,
    schema: () => (config.kind === "sqlite" ? sqliteSchema(db) : postgresSchema(db)),
    async close() {
      await db.destroy();
      await opened.close();
    },
  };
}

describeEachBackend("change coverage", (backend) => {
  it("tracks every table of a migrated database by its triggers, or declares it untracked", async () => {
    const scratch = await openScratch(backend);
    try {
      assert.deepEqual(coverageProblems(await scratch.schema()), []);
    } finally {
      await scratch.close();
    }
  });

  it("fails on a new table that is neither tracked nor declared untracked, naming it", async () => {
    const scratch = await openScratch(backend);
    try {
      await sql`create table widgets (id integer primary key, group_id integer not null)`.execute(scratch.db);
      assert.deepEqual(coverageProblems(await scratch.schema()), [
        "widgets: neither tracked by a change trigger nor declared untracked",
      ]);
    } finally {
      await scratch.close();
    }
  });

  it("fails on a tracked table whose trigger is missing from the database", async () => {
    const scratch = await openScratch(backend);
    try {
      const on = backend === "postgres" ? sql` on topics` : sql``;
      await sql`drop trigger topics_changes_delete${on}`.execute(scratch.db);
      assert.deepEqual(coverageProblems(await scratch.schema()), [
        "topics: tracked, but no DELETE trigger moves a change version",
      ]);
    } finally {
      await scratch.close();
    }
  });
});

it("change coverage: a table both tracked and declared untracked, or classified but absent, fails", () => {
  const live: LiveSchema = {
    tables: ["topics", "sessions"],
    versionTriggers: [{ table: "topics", event: "INSERT" }],
  };
  const tracked = new Map<string, readonly TriggerEvent[]>([
    ["topics", ["INSERT"]],
    ["gone", ["INSERT"]],
  ]);
  assert.deepEqual(coverageProblems(live, tracked, { topics: "a reason", sessions: "a reason" }), [
    "topics: both tracked and declared untracked",
    "gone: classified, but not in the database",
  ]);
});
