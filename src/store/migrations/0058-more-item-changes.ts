import { type Kysely, type Migration, sql } from "kysely";
import {
  ITEM_PART_SOURCES_0058,
  ITEM_ROW_SOURCES_0058,
  type ItemPartSource,
  type ItemRowSource,
  TODO_TASK_KIND,
} from "../item-change-sources-0058.js";
import type { Engine } from "./columns.js";
import { POSTGRES_NOW_MS } from "./0009-change-versions.postgres.js";
import { SQLITE_NOW_MS } from "./0009-change-versions.sqlite.js";

/**
 * Delta sync for the member list and the group events (issue #34, docs/architecture.md "Delta
 * sync"): the same change index as migration 0054 (`item_changes`, numbered the same way), with
 * triggers on memberships (kind MEMBER, one row per membership, joined or invited) and on events
 * (kind GW_SCHEDULE). A write of an event's participants, facilities or exceptions (a moved or
 * cancelled occurrence of a repeating event) renumbers the event's row: one row per event, however
 * many parts it has. Existing memberships and events get their rows here.
 *
 * The ToDo list is a person's scope (group_id = minus the user's id): their personal tasks (kind
 * TODO) and the group tasks assigned to them (kind TODO_TASK, parent = the task's group), one row
 * per task for its assignee (a reassignment also leaves a tombstone for the previous one). Leaving
 * or joining a group renumbers the person's TODO_TASK rows of that group: the read then decides
 * (a group the caller left shows none of them).
 *
 * Numbering on PostgreSQL: memberships, events and their parts, and tasks are change-tracked
 * (migrations 0009 and 0021), their trigger of the same statement calling kairan_bump with the
 * group and, for memberships, the user; the personal-scope triggers here call kairan_bump with the
 * person, so the commit numbers those rows under that person's version lock (member_changes): a
 * later commit of the same person's rows waits for it, as a later commit of a group does.
 */
export function moreItemChanges(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const source of ITEM_ROW_SOURCES_0058) {
        if (engine === "sqlite") await sqliteRowTriggers(db, source);
        else await postgresRowTriggers(db, source);
      }
      for (const source of ITEM_PART_SOURCES_0058) {
        if (engine === "sqlite") await sqlitePartTriggers(db, source);
        else await postgresPartTriggers(db, source);
      }
      if (engine === "sqlite") await sqliteTodoTriggers(db);
      else await postgresTodoTriggers(db);
      await backfill(db, engine);
    },
  };
}

/** The columns every trigger writes, in this order (as 0054's). */
const COLUMNS = "kind, group_id, parent_id, item_id, ref_number, seq, first_seq, changed_at, deleted";
const ON_CONFLICT = `ON CONFLICT (kind, group_id, item_id) DO UPDATE SET parent_id = excluded.parent_id,
  ref_number = excluded.ref_number, seq = excluded.seq, changed_at = excluded.changed_at, deleted = excluded.deleted`;

/** SQLite: the next number, above every number given and every number pruned (as 0054's). */
const SQLITE_NEXT = `(SELECT coalesce(max(n), 0) + 1 FROM (SELECT max(seq) AS n FROM item_changes
  UNION ALL SELECT max(pruned_seq) FROM item_change_horizons))`;

async function sqliteRowTriggers(db: Kysely<unknown>, source: ItemRowSource): Promise<void> {
  for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
    const row = event === "DELETE" ? "OLD" : "NEW";
    const deleted = event === "DELETE" ? 1 : 0;
    await sql
      .raw(
        `CREATE TRIGGER ${source.table}_item_changes_${event.toLowerCase()} AFTER ${event} ON ${source.table}
      BEGIN INSERT INTO item_changes (${COLUMNS})
        SELECT ${source.kind}, ${source.owner(row)}, 0, ${row}.id, 0, n, n, ${SQLITE_NOW_MS}, ${deleted}
        FROM (SELECT ${SQLITE_NEXT} AS n) WHERE 1
        ${ON_CONFLICT}; END`,
      )
      .execute(db);
  }
}

/** A part's write: its item's row (while the item exists) takes the next number. */
async function sqlitePartTriggers(db: Kysely<unknown>, source: ItemPartSource): Promise<void> {
  for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
    const row = event === "DELETE" ? "OLD" : "NEW";
    await sql
      .raw(
        `CREATE TRIGGER ${source.table}_item_changes_${event.toLowerCase()} AFTER ${event} ON ${source.table}
      BEGIN UPDATE item_changes SET seq = ${SQLITE_NEXT}, changed_at = ${SQLITE_NOW_MS}
        WHERE kind = ${source.kind} AND group_id = ${row}.group_id AND item_id = ${row}.${source.item} AND deleted = 0; END`,
      )
      .execute(db);
  }
}

/** PostgreSQL: per statement over the transition table, rows without a number (0054's way). */
async function postgresRowTriggers(db: Kysely<unknown>, source: ItemRowSource): Promise<void> {
  const fn = `kairan_${source.table}_item_changes`;
  const insert = (rows: string, deleted: number) =>
    `INSERT INTO item_changes (${COLUMNS})
      SELECT ${source.kind}, ${source.owner("r")}, 0, r.id, 0, NULL, NULL, now_ms, ${deleted}
      FROM ${rows} AS r
      ${ON_CONFLICT};
      ${source.user === undefined ? "" : bumpUsers(`SELECT ${source.user("r")} FROM ${rows} AS r`)}`;
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
  await statementTriggers(db, source.table, fn);
}

/** A part's write: its item's row loses its number, given again at commit (kairan_bump's apply). */
async function postgresPartTriggers(db: Kysely<unknown>, source: ItemPartSource): Promise<void> {
  const fn = `kairan_${source.table}_item_changes`;
  const touch = (rows: string) =>
    `UPDATE item_changes AS c SET seq = NULL, changed_at = now_ms
      FROM (SELECT DISTINCT r.group_id, r.${source.item} AS item_id FROM ${rows} AS r) AS p
      WHERE c.kind = ${source.kind} AND c.group_id = p.group_id AND c.item_id = p.item_id AND c.deleted = 0;`;
  await sql
    .raw(
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := ${POSTGRES_NOW_MS};
BEGIN
  IF TG_OP = 'DELETE' THEN ${touch("old_rows")}
  ELSE ${touch("new_rows")}
  END IF;
  RETURN NULL;
END $$`,
    )
    .execute(db);
  await statementTriggers(db, source.table, fn);
}

async function statementTriggers(db: Kysely<unknown>, table: string, fn: string, name = "item_changes"): Promise<void> {
  for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
    const referencing =
      event === "DELETE"
        ? "OLD TABLE AS old_rows"
        : event === "INSERT" || name === "item_changes"
          ? "NEW TABLE AS new_rows"
          : "OLD TABLE AS old_rows NEW TABLE AS new_rows";
    await sql
      .raw(
        `CREATE TRIGGER ${table}_${name}_${event.toLowerCase()} AFTER ${event} ON ${table}
      REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      )
      .execute(db);
  }
}

/** PostgreSQL: notes these users for the commit, whose apply then numbers under their locks. */
function bumpUsers(users: string): string {
  return `PERFORM kairan_bump('{}'::bigint[], ARRAY(SELECT DISTINCT u FROM (${users}) AS t(u) WHERE u IS NOT NULL));`;
}

/** A TODO_TASK row of a task for one assignee (a SQL select list over the task row alias). */
const todoTask = (row: string, assignee: string, seq: string, deleted: number) =>
  `'${TODO_TASK_KIND}', -${assignee}, ${row}.group_id, ${row}.id, 0, ${seq}, ${seq}, NOW_MS, ${deleted}`;

/**
 * SQLite: a task's row in its assignee's ToDo scope (a tombstone for the previous assignee), and
 * the renumbering of a person's TODO_TASK rows of a group they join or leave. Rows renumbered by
 * one statement get distinct numbers: the next number plus their rank among them.
 */
async function sqliteTodoTriggers(db: Kysely<unknown>): Promise<void> {
  const write = (row: string, assignee: string, deleted: number, when: string) =>
    `INSERT INTO item_changes (${COLUMNS})
      SELECT ${todoTask(row, assignee, "n", deleted).replace("NOW_MS", SQLITE_NOW_MS)}
      FROM (SELECT ${SQLITE_NEXT} AS n) WHERE ${when}
      ${ON_CONFLICT};`;
  const statements = {
    insert: write("NEW", "NEW.assignee_id", 0, "NEW.assignee_id IS NOT NULL"),
    update:
      write("OLD", "OLD.assignee_id", 1, "OLD.assignee_id IS NOT NULL AND OLD.assignee_id IS NOT NEW.assignee_id") +
      write("NEW", "NEW.assignee_id", 0, "NEW.assignee_id IS NOT NULL"),
    delete: write("OLD", "OLD.assignee_id", 1, "OLD.assignee_id IS NOT NULL"),
  };
  for (const [event, body] of Object.entries(statements)) {
    await sql
      .raw(`CREATE TRIGGER tasks_todo_changes_${event} AFTER ${event.toUpperCase()} ON tasks BEGIN ${body} END`)
      .execute(db);
  }
  const touch = (row: string) =>
    `UPDATE item_changes SET changed_at = ${SQLITE_NOW_MS}, seq = ${SQLITE_NEXT} + (SELECT count(*) FROM item_changes AS o
        WHERE o.kind = '${TODO_TASK_KIND}' AND o.group_id = item_changes.group_id AND o.parent_id = item_changes.parent_id
          AND o.deleted = 0 AND o.item_id < item_changes.item_id)
      WHERE kind = '${TODO_TASK_KIND}' AND group_id = -${row}.user_id AND parent_id = ${row}.group_id AND deleted = 0;`;
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
        `CREATE TRIGGER memberships_todo_changes_${event} AFTER ${event.toUpperCase()} ON memberships ${when}
      BEGIN ${touch(row)} END`,
      )
      .execute(db);
  }
}

/** PostgreSQL: the same, per statement; the rows are numbered at commit under the persons' locks. */
async function postgresTodoTriggers(db: Kysely<unknown>): Promise<void> {
  const write = (rows: string, assignee: string, deleted: number, where: string) =>
    `INSERT INTO item_changes (${COLUMNS})
      SELECT ${todoTask("r", assignee, "NULL", deleted).replace("NOW_MS", "now_ms")}
      FROM ${rows} WHERE ${where}
      ${ON_CONFLICT};`;
  const changedAssignee = "new_rows AS n JOIN old_rows AS r ON r.id = n.id";
  await sql
    .raw(
      `CREATE FUNCTION kairan_tasks_todo_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := ${POSTGRES_NOW_MS};
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${write("new_rows AS r", "r.assignee_id", 0, "r.assignee_id IS NOT NULL")}
    ${bumpUsers("SELECT assignee_id FROM new_rows")}
  ELSIF TG_OP = 'UPDATE' THEN
    ${write(changedAssignee, "r.assignee_id", 1, "r.assignee_id IS NOT NULL AND r.assignee_id IS DISTINCT FROM n.assignee_id")}
    ${write("new_rows AS r", "r.assignee_id", 0, "r.assignee_id IS NOT NULL")}
    ${bumpUsers("SELECT assignee_id FROM new_rows UNION ALL SELECT assignee_id FROM old_rows")}
  ELSE
    ${write("old_rows AS r", "r.assignee_id", 1, "r.assignee_id IS NOT NULL")}
    ${bumpUsers("SELECT assignee_id FROM old_rows")}
  END IF;
  RETURN NULL;
END $$`,
    )
    .execute(db);
  await statementTriggers(db, "tasks", "kairan_tasks_todo_changes", "todo_changes");
  // Memberships move their user's version already (0009): that call numbers the renumbered rows.
  const touch = (members: string) =>
    `UPDATE item_changes AS c SET seq = NULL, changed_at = now_ms
      FROM (SELECT DISTINCT m.user_id, m.group_id FROM ${members}) AS p
      WHERE c.kind = '${TODO_TASK_KIND}' AND c.group_id = -p.user_id AND c.parent_id = p.group_id AND c.deleted = 0;`;
  const joined = (row: string) => `${row}.status = 'JOIN' AND ${row}.user_id IS NOT NULL`;
  await sql
    .raw(
      `CREATE FUNCTION kairan_memberships_todo_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := ${POSTGRES_NOW_MS};
BEGIN
  IF TG_OP = 'INSERT' THEN ${touch(`new_rows AS m WHERE ${joined("m")}`)}
  ELSIF TG_OP = 'UPDATE' THEN ${touch(
    `new_rows AS m JOIN old_rows AS o ON o.id = m.id WHERE ${joined("m")} AND (o.status <> 'JOIN' OR o.user_id IS DISTINCT FROM m.user_id)`,
  )}
  ELSE ${touch(`old_rows AS m WHERE ${joined("m")}`)}
  END IF;
  RETURN NULL;
END $$`,
    )
    .execute(db);
  await statementTriggers(db, "memberships", "kairan_memberships_todo_changes", "todo_changes");
}

/** The rows of the items that exist already, numbered in id order per kind. */
async function backfill(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const now = engine === "sqlite" ? SQLITE_NOW_MS : POSTGRES_NOW_MS;
  for (const source of ITEM_ROW_SOURCES_0058) {
    const number =
      engine === "sqlite" ? `${SQLITE_NEXT} - 1 + row_number() OVER (ORDER BY r.id)` : `nextval('item_change_seq')`;
    await sql
      .raw(
        `INSERT INTO item_changes (${COLUMNS})
      SELECT kind, group_id, 0, item_id, 0, n, n, ${now}, 0 FROM (
        SELECT ${source.kind} AS kind, ${source.owner("r")} AS group_id, r.id AS item_id, ${number} AS n
        FROM ${source.table} AS r ORDER BY r.id) AS b`,
      )
      .execute(db);
  }
  const number =
    engine === "sqlite" ? `${SQLITE_NEXT} - 1 + row_number() OVER (ORDER BY r.id)` : `nextval('item_change_seq')`;
  await sql
    .raw(
      `INSERT INTO item_changes (${COLUMNS})
    SELECT '${TODO_TASK_KIND}', group_id, parent_id, item_id, 0, n, n, ${now}, 0 FROM (
      SELECT -r.assignee_id AS group_id, r.group_id AS parent_id, r.id AS item_id, ${number} AS n
      FROM tasks AS r WHERE r.assignee_id IS NOT NULL ORDER BY r.id) AS b`,
    )
    .execute(db);
}
