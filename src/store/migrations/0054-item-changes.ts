import { type Kysely, type Migration, sql } from "kysely";
import { ITEM_CHANGE_SOURCES, type ItemChangeSource, MEMBER_LEFT } from "../item-change-sources.js";
import { type ColumnTypes, type Engine, columnTypes } from "./columns.js";
import { POSTGRES_NOW_MS } from "./0009-change-versions.postgres.js";
import { SQLITE_NOW_MS } from "./0009-change-versions.sqlite.js";
import { BUMP_WITH_ITEM_STAMPS } from "./0054-item-changes.postgres.js";

/**
 * Delta sync (issue #34, docs/architecture.md "Delta sync"): `item_changes` holds one row per item
 * of the group feeds (topics, tasks, files, comments) with the change sequence number of its last
 * change, and keeps the row of a deleted item as its tombstone (`deleted` = 1). A departure from a
 * group is a row too (kind MEMBER_LEFT, item = the user). Triggers write the rows in the writing
 * transaction, so every writer (server, CLI, seed, import) is covered; `item_change_horizons`
 * holds, per group, the newest sequence number of the tombstones pruned (a cursor before it
 * answers 410). Existing items get their rows here.
 *
 * The sequence number: on SQLite the next after the highest ever given (writes are serialized);
 * on PostgreSQL `item_change_seq`, taken at commit under the group's version lock (see
 * 0054-item-changes.postgres.ts), so that within a group the numbers follow the commit order.
 */
export function itemChanges(engine: Engine): Migration {
  const t = columnTypes(engine);
  return {
    async up(db: Kysely<unknown>) {
      await createTables(db, t);
      if (engine === "sqlite") {
        for (const source of ITEM_CHANGE_SOURCES) await sqliteTriggers(db, source);
        await sqliteDepartures(db);
        await backfill(db, "sqlite");
      } else {
        await sql.raw("CREATE SEQUENCE item_change_seq").execute(db);
        await sql.raw(BUMP_WITH_ITEM_STAMPS).execute(db);
        for (const source of ITEM_CHANGE_SOURCES) await postgresTriggers(db, source);
        await postgresDepartures(db);
        await backfill(db, "postgres");
      }
    },
  };
}

async function createTables(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("item_changes")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("group_id", t.int64, (c) => c.notNull())
    .addColumn("parent_id", t.int64, (c) => c.notNull())
    .addColumn("item_id", t.int64, (c) => c.notNull())
    .addColumn("ref_number", t.int64, (c) => c.notNull())
    .addColumn("seq", t.int64)
    .addColumn("first_seq", t.int64)
    .addColumn("changed_at", t.int64, (c) => c.notNull())
    .addColumn("deleted", t.int32, (c) => c.notNull())
    .addPrimaryKeyConstraint("item_changes_pk", ["kind", "group_id", "item_id"])
    .execute();
  // A feed's changes after a cursor, in order; the highest number given (SQLite) and the rows
  // waiting for their number at commit (PostgreSQL).
  await db.schema
    .createIndex("item_changes_scope")
    .on("item_changes")
    .columns(["group_id", "kind", "parent_id", "seq"])
    .execute();
  await db.schema.createIndex("item_changes_seq").on("item_changes").column("seq").execute();
  await db.schema
    .createTable("item_change_horizons")
    .addColumn("group_id", t.int64, (c) => c.primaryKey())
    .addColumn("pruned_seq", t.int64, (c) => c.notNull())
    .execute();
}

/** The columns every trigger writes, in this order. */
const COLUMNS = "kind, group_id, parent_id, item_id, ref_number, seq, first_seq, changed_at, deleted";
const ON_CONFLICT = `ON CONFLICT (kind, group_id, item_id) DO UPDATE SET parent_id = excluded.parent_id,
  ref_number = excluded.ref_number, seq = excluded.seq, changed_at = excluded.changed_at, deleted = excluded.deleted`;

/** SQLite: the next number, above every number given and every number pruned. */
const SQLITE_NEXT = `(SELECT coalesce(max(n), 0) + 1 FROM (SELECT max(seq) AS n FROM item_changes
  UNION ALL SELECT max(pruned_seq) FROM item_change_horizons))`;

async function sqliteTriggers(db: Kysely<unknown>, source: ItemChangeSource): Promise<void> {
  for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
    const row = event === "DELETE" ? "OLD" : "NEW";
    const deleted = event === "DELETE" ? 1 : 0;
    await sql
      .raw(
        `CREATE TRIGGER ${source.table}_item_changes_${event.toLowerCase()} AFTER ${event} ON ${source.table}
      BEGIN INSERT INTO item_changes (${COLUMNS})
        SELECT ${source.kind(row)}, ${row}.group_id, ${source.parent(row)}, ${row}.id, ${source.number(row)},
          n, n, ${SQLITE_NOW_MS}, ${deleted} FROM (SELECT ${SQLITE_NEXT} AS n) WHERE 1
        ${ON_CONFLICT}; END`,
      )
      .execute(db);
  }
}

async function sqliteDepartures(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE TRIGGER memberships_departures_delete AFTER DELETE ON memberships
    WHEN OLD.status = 'JOIN' AND OLD.user_id IS NOT NULL
    BEGIN INSERT INTO item_changes (${COLUMNS})
      SELECT '${MEMBER_LEFT}', OLD.group_id, 0, OLD.user_id, 0, n, n, ${SQLITE_NOW_MS}, 0
        FROM (SELECT ${SQLITE_NEXT} AS n) WHERE 1
      ${ON_CONFLICT}; END`,
    )
    .execute(db);
}

/**
 * PostgreSQL: one statement trigger per event over the transition table (as 0009's), writing the
 * rows without a number; the commit gives them theirs (kairan_bump's apply, after the group locks).
 * Every followed table (and memberships) is a change-tracked group row of 0009, whose own trigger
 * of the same statement calls kairan_bump: that call is what makes the commit apply.
 */
async function postgresTriggers(db: Kysely<unknown>, source: ItemChangeSource): Promise<void> {
  const fn = `kairan_${source.table}_item_changes`;
  const insert = (rows: string, deleted: number) =>
    `INSERT INTO item_changes (${COLUMNS})
      SELECT ${source.kind("r")}, r.group_id, ${source.parent("r")}, r.id, ${source.number("r")}, NULL, NULL, now_ms, ${deleted}
      FROM ${rows} AS r
      ${ON_CONFLICT};`;
  await sql
    .raw(
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := ${POSTGRES_NOW_MS};
BEGIN
  IF TG_OP = 'DELETE' THEN ${insert("old_rows", 1)}
  ELSE ${insert("new_rows", 0)}
  END IF;
  RETURN NULL;
END $$`,
    )
    .execute(db);
  for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
    const referencing = event === "DELETE" ? "OLD TABLE AS old_rows" : "NEW TABLE AS new_rows";
    await sql
      .raw(
        `CREATE TRIGGER ${source.table}_item_changes_${event.toLowerCase()} AFTER ${event} ON ${source.table}
      REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      )
      .execute(db);
  }
}

async function postgresDepartures(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE FUNCTION kairan_memberships_departures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO item_changes (${COLUMNS})
    SELECT '${MEMBER_LEFT}', r.group_id, 0, r.user_id, 0, NULL, NULL, ${POSTGRES_NOW_MS}, 0
    FROM old_rows AS r WHERE r.status = 'JOIN' AND r.user_id IS NOT NULL
    ${ON_CONFLICT};
  RETURN NULL;
END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER memberships_departures_delete AFTER DELETE ON memberships
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kairan_memberships_departures()`,
    )
    .execute(db);
}

/** The rows of the items that exist already, numbered in id order per kind. */
async function backfill(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const now = engine === "sqlite" ? SQLITE_NOW_MS : POSTGRES_NOW_MS;
  for (const source of ITEM_CHANGE_SOURCES) {
    const number =
      engine === "sqlite"
        ? `(SELECT coalesce(max(seq), 0) FROM item_changes) + row_number() OVER (ORDER BY r.id)`
        : `nextval('item_change_seq')`;
    await sql
      .raw(
        `INSERT INTO item_changes (${COLUMNS})
      SELECT kind, group_id, parent_id, item_id, ref_number, n, n, ${now}, 0 FROM (
        SELECT ${source.kind("r")} AS kind, r.group_id, ${source.parent("r")} AS parent_id, r.id AS item_id,
          ${source.number("r")} AS ref_number, ${number} AS n
        FROM ${source.table} AS r ORDER BY r.id) AS b`,
      )
      .execute(db);
  }
}
