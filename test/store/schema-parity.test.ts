// Both engines' migrations build the same schema: after migrating a fresh SQLite file and a fresh
// PostgreSQL schema, the tables, columns (types mapped below), nullability, defaults, identity
// keys, primary keys, unique constraints, foreign keys, indexes, checks and triggers match. What
// truly differs is listed in ENGINE_ONLY, each with its reason; nothing else may.
import { ITEM_PART_SOURCES_0058, ITEM_ROW_SOURCES_0058 } from "../../src/store/item-change-sources-0058.js";
import { STAR_TRIGGERS_0060 } from "../../src/store/item-change-sources-0060.js";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import {
  CHANGE_TRACKING,
  CHAT_LIKE_NOTIFICATIONS,
  EVENT_GROUP_ROWS,
  PERSONAL_EVENTS,
  ROW_EVENTS,
} from "../../src/store/change-tracking.js";
import { ITEM_CHANGE_SOURCES } from "../../src/store/item-change-sources.js";
import { openStore } from "../../src/store/open.js";
import { DERIVED_TABLES, TABLES_IN_DEPENDENCY_ORDER } from "../../src/store/tables.js";
import { INDEXED_TABLES, ftsTableOf, trigramIndexOf } from "../../src/store/search-index.js";
import { TEST_DATABASE_URL, type TestSchema, createTestSchema } from "../support/backends.js";
import { type SchemaShape, type TableShape, sqliteShape } from "../support/schema-shape.js";
import { postgresShape } from "../support/schema-shape-postgres.js";

const skip = TEST_DATABASE_URL ? false : "needs PostgreSQL: set KAIRAN_TEST_DATABASE_URL";

/**
 * A SQLite column type and the PostgreSQL types it may be. SQLite's `integer` holds 64 bits;
 * PostgreSQL's columns say which they need (migrations/columns.ts: `bigint` for ids, references,
 * times and sizes, `integer` for flags, counts and numbers; see ID_OR_TIME below).
 */
const TYPES: Readonly<Record<string, readonly string[]>> = {
  integer: ["bigint", "integer"],
  text: ["text"],
  blob: ["bytea"],
  // Kysely's own tables (kysely_migration, kysely_migration_lock).
  "varchar(255)": ["varchar(255)"],
};

/** Columns that hold an id or an epoch-ms time: 64 bits on PostgreSQL too. */
const ID_OR_TIME = /^(id|.*_id|.*_at)$/;

const CHANGE_TRIGGER_TABLES = [
  ...CHANGE_TRACKING.groupRows,
  ...CHANGE_TRACKING.memberRows,
  "groups",
  "file_versions",
  "memberships",
  ...EVENT_GROUP_ROWS,
  CHAT_LIKE_NOTIFICATIONS,
  PERSONAL_EVENTS,
];

/** What one engine has and the other has not, and why. */
const ENGINE_ONLY: Readonly<Record<"sqlite" | "postgres", SchemaShape["engineOnly"]>> = {
  sqlite: {
    statementTriggers: [],
    functions: [],
    // Migration 0008: its constraints fail a statement instead of aborting it, which spares the
    // fan-out SQLite's statement journal. PostgreSQL has no such journal.
    onConflictTables: ["notifications"],
    // Migration 0014: the full-text index is an FTS5 table per indexed table (with the trigram
    // tokenizer), its shadow tables and the triggers that keep it in step.
    searchIndex: INDEXED_TABLES.flatMap(({ table }) =>
      ["", "_config", "_data", "_idx", "_insert", "_delete", "_update"].map((part) => ftsTableOf(table) + part),
    ).sort(),
  },
  postgres: {
    // Migration 0009: a row trigger would run a function per row (`kairan generate` inserts a
    // million topics in one statement), so the change triggers run once per statement over the
    // transition tables; SQLite's run per row, as SQLite triggers do. Their bodies differ likewise
    // (SQL statements on SQLite, these functions on PostgreSQL) and are not compared.
    statementTriggers: [
      ...CHANGE_TRIGGER_TABLES.flatMap((table) => ROW_EVENTS.map((event) => `${table}_changes_${event.toLowerCase()}`)),
      // Migration 0054 (delta sync): the change index's triggers, per statement likewise.
      ...ITEM_CHANGE_SOURCES.flatMap(({ table }) =>
        ROW_EVENTS.map((event) => `${table}_item_changes_${event.toLowerCase()}`),
      ),
      "memberships_departures_delete",
      // Migration 0058: members, events (and their parts), the ToDo list; per statement likewise.
      ...[...ITEM_ROW_SOURCES_0058, ...ITEM_PART_SOURCES_0058].flatMap(({ table }) =>
        ROW_EVENTS.map((event) => `${table}_item_changes_${event.toLowerCase()}`),
      ),
      ...["tasks", "memberships"].flatMap((table) =>
        ROW_EVENTS.map((event) => `${table}_todo_changes_${event.toLowerCase()}`),
      ),
      // Migration 0059: chat messages and departures from rooms; per statement likewise.
      ...ROW_EVENTS.map((event) => `chat_messages_item_changes_${event.toLowerCase()}`),
      "chat_members_departures_delete",
      // Migration 0060: the favorites list; per statement likewise.
      ...STAR_TRIGGERS_0060.flatMap(({ table, events }) => events.map((event) => `${table}_star_changes_${event}`)),
    ].sort(),
    functions: [
      "kairan_bump",
      "kairan_chat_members_departures",
      "kairan_chat_messages_item_changes",
      "kairan_comments_item_changes",
      "kairan_confirmed",
      "kairan_event_exceptions_item_changes",
      "kairan_event_facilities_item_changes",
      "kairan_event_participants_item_changes",
      "kairan_events_item_changes",
      "kairan_file_versions_changed",
      "kairan_files_item_changes",
      "kairan_group_rows_changed",
      "kairan_groups_changed",
      "kairan_member_rows_changed",
      "kairan_memberships_changed",
      "kairan_memberships_departures",
      "kairan_memberships_item_changes",
      "kairan_memberships_todo_changes",
      "kairan_owner_rows_changed",
      "kairan_personal_tasks_item_changes",
      "kairan_tasks_item_changes",
      "kairan_tasks_todo_changes",
      "kairan_topics_item_changes",
      "kairan_user_renamed",
      // Migration 0060: the favorites list.
      ...STAR_TRIGGERS_0060.map(({ table }) => `kairan_${table}_star_changes`),
    ].sort(),
    onConflictTables: [],
    // Migration 0014: the full-text index is a GIN index of trigrams (pg_trgm) per indexed table.
    searchIndex: INDEXED_TABLES.map(({ table }) => trigramIndexOf(table)).sort(),
  },
};

/** Every way the two shapes differ beyond the type mapping; empty when they match. */
function differences(sqlite: SchemaShape, postgres: SchemaShape): string[] {
  const found: string[] = [];
  const tables = [...new Set([...Object.keys(sqlite.tables), ...Object.keys(postgres.tables)])].sort();
  for (const table of tables) {
    const [s, p] = [sqlite.tables[table], postgres.tables[table]];
    if (!s || !p) found.push(`${table}: only on ${s ? "SQLite" : "PostgreSQL"}`);
    else found.push(...tableDifferences(table, s, p));
  }
  if (JSON.stringify(sqlite.triggers) !== JSON.stringify(postgres.triggers)) {
    const only = (a: readonly string[], b: readonly string[]) => a.filter((line) => !b.includes(line));
    found.push(`triggers only on SQLite: ${only(sqlite.triggers, postgres.triggers).join("; ")}`);
    found.push(`triggers only on PostgreSQL: ${only(postgres.triggers, sqlite.triggers).join("; ")}`);
  }
  return found;
}

function tableDifferences(table: string, s: TableShape, p: TableShape): string[] {
  const found: string[] = [];
  const sNames = s.columns.map((c) => c.name).join(", ");
  const pNames = p.columns.map((c) => c.name).join(", ");
  if (sNames !== pNames) return [`${table}: columns (${sNames}) on SQLite, (${pNames}) on PostgreSQL`];
  s.columns.forEach((sc, index) => {
    const pc = p.columns[index]!;
    const where = `${table}.${sc.name}`;
    if (!(TYPES[sc.type] ?? []).includes(pc.type))
      found.push(`${where}: ${sc.type} on SQLite, ${pc.type} on PostgreSQL`);
    if (ID_OR_TIME.test(sc.name) && pc.type === "integer") found.push(`${where}: an id or time in 32 bits`);
    for (const key of ["notNull", "default", "identity"] as const) {
      if (sc[key] !== pc[key]) found.push(`${where}: ${key} ${sc[key]} on SQLite, ${pc[key]} on PostgreSQL`);
    }
  });
  for (const key of ["primaryKey", "uniques", "foreignKeys", "indexes", "checks"] as const) {
    const [a, b] = [s[key].join("; "), p[key].join("; ")];
    if (a !== b) found.push(`${table}: ${key} [${a}] on SQLite, [${b}] on PostgreSQL`);
  }
  return found;
}

// engines: both, because it migrates one store of each engine itself and compares their schemas.
describe("schema parity: SQLite and PostgreSQL migrated alike", { skip }, () => {
  const work = mkdtempSync(join(tmpdir(), "kairan-parity-"));
  const file = join(work, "kairan.sqlite");
  let schema: TestSchema;
  let sqlite: SchemaShape;
  let postgres: SchemaShape;

  before(async () => {
    schema = await createTestSchema();
    for (const config of [
      { kind: "sqlite", file, synchronous: "normal" },
      { kind: "postgres", url: schema.url },
    ] as const) {
      const store = await openStore(config);
      await store.migrate();
      await store.close();
    }
    sqlite = sqliteShape(file);
    postgres = await postgresShape(schema.url, schema.name);
  });
  after(async () => {
    await schema?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it("has every table of the store on both engines, and Kysely's own", () => {
    const expected = [...TABLES_IN_DEPENDENCY_ORDER, ...DERIVED_TABLES, "kysely_migration", "kysely_migration_lock"];
    assert.deepEqual(Object.keys(sqlite.tables).sort(), [...expected].sort());
    assert.deepEqual(Object.keys(postgres.tables).sort(), [...expected].sort());
  });

  it("matches table by table: columns, keys, constraints, indexes and triggers", () => {
    assert.deepEqual(differences(sqlite, postgres), []);
    // Not an empty comparison: the readers saw what the migrations made.
    assert.deepEqual(sqlite.tables.notifications?.uniques, ["item_kind, item_id, user_id"]);
    assert.ok(sqlite.triggers.includes("users_renamed: AFTER UPDATE of email, family_kana, given_kana, name on users"));
  });

  it("differs only where the engines truly do", () => {
    assert.deepEqual(sqlite.engineOnly, ENGINE_ONLY.sqlite);
    assert.deepEqual(postgres.engineOnly, ENGINE_ONLY.postgres);
  });

  it("notices a difference: an index added on one engine only", () => {
    const db = new SQLite(file);
    try {
      db.exec("create index topics_extra on topics (author_id) where trashed = 0");
      db.exec("create unique index tasks_extra on tasks (group_id desc)");
    } finally {
      db.close();
    }
    assert.deepEqual(differences(sqliteShape(file), postgres), [
      `tasks: indexes [${indexesOf("tasks", postgres, "tasks_extra: unique group_id desc")}] on SQLite, [${indexesOf("tasks", postgres)}] on PostgreSQL`,
      `topics: indexes [${indexesOf("topics", postgres, "topics_extra: author_id where trashed = 0")}] on SQLite, [${indexesOf("topics", postgres)}] on PostgreSQL`,
    ]);
  });
});

/** The table's indexes on PostgreSQL as the comparison writes them, with one more when given. */
function indexesOf(table: string, shape: SchemaShape, extra?: string): string {
  const indexes = [...(shape.tables[table]?.indexes ?? [])];
  if (extra) indexes.push(extra);
  return indexes.sort().join("; ");
}
