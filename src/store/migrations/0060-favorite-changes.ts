import { type Kysely, type Migration, sql } from "kysely";
import { STAR_ITEM_TABLES_0060, STAR_KINDS, STAR_KIND_PREFIX } from "../item-change-sources-0060.js";
import type { Engine } from "./columns.js";
import { POSTGRES_NOW_MS } from "./0009-change-versions.postgres.js";
import { SQLITE_NOW_MS } from "./0009-change-versions.sqlite.js";

/**
 * Delta sync of the favorites list (issue #34, docs/architecture.md "Delta sync"): a person's scope
 * (group_id = minus the user's id), one row per favorite, of kind `STAR_<item kind>`, parent = the
 * item's group, item = the item's id. Adding a favorite writes its row, removing it (or its item's
 * deletion, which removes it) leaves its tombstone. An edit of the favorited item (title, text,
 * trash) or its deletion renumbers the favorite's row, and so does joining or leaving the item's
 * group: the read then decides what the list shows (a group the caller left shows none).
 *
 * Numbering on PostgreSQL: favorites and memberships move their user's version already (0009), so
 * their rows are numbered at commit under that person's lock; the item tables' triggers here call
 * kairan_bump with the persons whose favorites they renumber, for the same lock.
 */
export function favoriteChanges(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine === "sqlite") await sqliteTriggers(db);
      else await postgresTriggers(db);
      await backfill(db, engine);
    },
  };
}

/** The columns every trigger writes, in this order (as 0054's). */
const COLUMNS = "kind, group_id, parent_id, item_id, ref_number, seq, first_seq, changed_at, deleted";
const ON_CONFLICT = `ON CONFLICT (kind, group_id, item_id) DO UPDATE SET parent_id = excluded.parent_id,
  seq = excluded.seq, changed_at = excluded.changed_at, deleted = excluded.deleted`;
const STAR_KIND_LIST = STAR_KINDS.map((kind) => `'${kind}'`).join(", ");

/** SQLite: the next number, above every number given and every number pruned (as 0054's). */
const SQLITE_NEXT = `(SELECT coalesce(max(n), 0) + 1 FROM (SELECT max(seq) AS n FROM item_changes
  UNION ALL SELECT max(pruned_seq) FROM item_change_horizons))`;

/** A favorite's row (a SQL select list over the favorite row alias). */
const starRow = (row: string, seq: string, now: string, deleted: number) =>
  `'${STAR_KIND_PREFIX}' || ${row}.item_kind, -${row}.user_id, ${row}.group_id, ${row}.item_id, 0, ${seq}, ${seq}, ${now}, ${deleted}`;

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const write = (row: string, deleted: number) =>
    `INSERT INTO item_changes (${COLUMNS}) SELECT ${starRow(row, "n", SQLITE_NOW_MS, deleted)}
      FROM (SELECT ${SQLITE_NEXT} AS n) WHERE 1 ${ON_CONFLICT};`;
  await sql
    .raw(`CREATE TRIGGER favorites_star_changes_insert AFTER INSERT ON favorites BEGIN ${write("NEW", 0)} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER favorites_star_changes_delete AFTER DELETE ON favorites BEGIN ${write("OLD", 1)} END`)
    .execute(db);
  // Joining or leaving: the person's favorites of the group, distinct numbers in (kind, item) order.
  const touch = (row: string) =>
    `UPDATE item_changes SET changed_at = ${SQLITE_NOW_MS}, seq = ${SQLITE_NEXT} + (SELECT count(*) FROM item_changes AS o
        WHERE o.group_id = item_changes.group_id AND o.kind IN (${STAR_KIND_LIST}) AND o.parent_id = item_changes.parent_id
          AND o.deleted = 0 AND (o.kind < item_changes.kind OR (o.kind = item_changes.kind AND o.item_id < item_changes.item_id)))
      WHERE group_id = -${row}.user_id AND kind IN (${STAR_KIND_LIST}) AND parent_id = ${row}.group_id AND deleted = 0;`;
  const joined = (row: string) => `${row}.status = 'JOIN' AND ${row}.user_id IS NOT NULL`;
  const memberships = {
    insert: `WHEN ${joined("NEW")}`,
    update: `WHEN ${joined("NEW")} AND (OLD.status <> 'JOIN' OR OLD.user_id IS NOT NEW.user_id)`,
    delete: `WHEN ${joined("OLD")}`,
  };
  for (const [event, when] of Object.entries(memberships)) {
    const row = event === "delete" ? "OLD" : "NEW";
    await sql
      .raw(
        `CREATE TRIGGER memberships_star_changes_${event} AFTER ${event.toUpperCase()} ON memberships ${when}
      BEGIN ${touch(row)} END`,
      )
      .execute(db);
  }
  // An edit or deletion of a favorited item: each favorite of it takes the next number (one per person).
  for (const { itemKind, table } of STAR_ITEM_TABLES_0060) {
    for (const event of ["update", "delete"] as const) {
      const row = event === "delete" ? "OLD" : "NEW";
      const favorites = `FROM favorites WHERE item_kind = '${itemKind}' AND item_id = ${row}.id`;
      await sql
        .raw(
          `CREATE TRIGGER ${table}_star_changes_${event} AFTER ${event.toUpperCase()} ON ${table}
        WHEN EXISTS (SELECT 1 ${favorites})
        BEGIN UPDATE item_changes SET seq = ${SQLITE_NEXT}, changed_at = ${SQLITE_NOW_MS}
          WHERE kind = '${STAR_KIND_PREFIX}${itemKind}' AND item_id = ${row}.id AND deleted = 0
            AND group_id IN (SELECT -user_id ${favorites}); END`,
        )
        .execute(db);
    }
  }
}

/** PostgreSQL: per statement over the transition tables; rows without a number, numbered at commit. */
async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const write = (rows: string, deleted: number) =>
    `INSERT INTO item_changes (${COLUMNS}) SELECT ${starRow("r", "NULL", "now_ms", deleted)} FROM ${rows} AS r ${ON_CONFLICT};`;
  await fn(
    db,
    "kairan_favorites_star_changes",
    `IF TG_OP = 'DELETE' THEN ${write("old_rows", 1)} ELSE ${write("new_rows", 0)} END IF;`,
  );
  await triggers(db, "favorites", ["insert", "delete"], "kairan_favorites_star_changes");
  // Memberships move their user's version already (0009): that call numbers the renumbered rows.
  const touch = (members: string) =>
    `UPDATE item_changes AS c SET seq = NULL, changed_at = now_ms
      FROM (SELECT DISTINCT m.user_id, m.group_id FROM ${members}) AS p
      WHERE c.group_id = -p.user_id AND c.kind IN (${STAR_KIND_LIST}) AND c.parent_id = p.group_id AND c.deleted = 0;`;
  const joined = (row: string) => `${row}.status = 'JOIN' AND ${row}.user_id IS NOT NULL`;
  await fn(
    db,
    "kairan_memberships_star_changes",
    `IF TG_OP = 'INSERT' THEN ${touch(`new_rows AS m WHERE ${joined("m")}`)}
  ELSIF TG_OP = 'UPDATE' THEN ${touch(
    `new_rows AS m JOIN old_rows AS o ON o.id = m.id WHERE ${joined("m")} AND (o.status <> 'JOIN' OR o.user_id IS DISTINCT FROM m.user_id)`,
  )}
  ELSE ${touch(`old_rows AS m WHERE ${joined("m")}`)}
  END IF;`,
  );
  await triggers(db, "memberships", ["insert", "update", "delete"], "kairan_memberships_star_changes");
  for (const { itemKind, table } of STAR_ITEM_TABLES_0060) {
    const touchItems = (rows: string) =>
      `users := ARRAY(SELECT DISTINCT f.user_id FROM favorites AS f JOIN ${rows} AS r ON f.item_id = r.id
        WHERE f.item_kind = '${itemKind}');
      IF cardinality(users) > 0 THEN
        UPDATE item_changes AS c SET seq = NULL, changed_at = now_ms
          FROM (SELECT DISTINCT f.user_id, f.item_id FROM favorites AS f JOIN ${rows} AS r ON f.item_id = r.id
            WHERE f.item_kind = '${itemKind}') AS p
          WHERE c.kind = '${STAR_KIND_PREFIX}${itemKind}' AND c.group_id = -p.user_id AND c.item_id = p.item_id AND c.deleted = 0;
        PERFORM kairan_bump('{}'::bigint[], users);
      END IF;`;
    const name = `kairan_${table}_star_changes`;
    await fn(
      db,
      name,
      `IF TG_OP = 'DELETE' THEN ${touchItems("old_rows")} ELSE ${touchItems("new_rows")} END IF;`,
      "users bigint[];",
    );
    await triggers(db, table, ["update", "delete"], name);
  }
}

async function fn(db: Kysely<unknown>, name: string, body: string, declare = ""): Promise<void> {
  await sql
    .raw(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := ${POSTGRES_NOW_MS};
  ${declare}
BEGIN
  ${body}
  RETURN NULL;
END $$`,
    )
    .execute(db);
}

async function triggers(db: Kysely<unknown>, table: string, events: readonly string[], name: string): Promise<void> {
  for (const event of events) {
    const referencing =
      event === "delete"
        ? "OLD TABLE AS old_rows"
        : event === "insert" || table !== "memberships"
          ? "NEW TABLE AS new_rows"
          : "OLD TABLE AS old_rows NEW TABLE AS new_rows";
    await sql
      .raw(
        `CREATE TRIGGER ${table}_star_changes_${event} AFTER ${event.toUpperCase()} ON ${table}
      REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
      )
      .execute(db);
  }
}

/** The rows of the favorites that exist already, numbered in (user, kind, item) order. */
async function backfill(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const now = engine === "sqlite" ? SQLITE_NOW_MS : POSTGRES_NOW_MS;
  const order = "ORDER BY r.user_id, r.item_kind, r.item_id";
  const number =
    engine === "sqlite" ? `${SQLITE_NEXT} - 1 + row_number() OVER (${order})` : `nextval('item_change_seq')`;
  await sql
    .raw(
      `INSERT INTO item_changes (${COLUMNS})
    SELECT kind, group_id, parent_id, item_id, 0, n, n, ${now}, 0 FROM (
      SELECT '${STAR_KIND_PREFIX}' || r.item_kind AS kind, -r.user_id AS group_id, r.group_id AS parent_id,
        r.item_id AS item_id, ${number} AS n
      FROM favorites AS r ${order}) AS b`,
    )
    .execute(db);
}
