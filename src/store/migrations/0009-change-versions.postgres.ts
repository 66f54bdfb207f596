import { type Kysely, type Migration, sql } from "kysely";
import { CHANGE_TRACKING, DIRECTORY_ROW, ROW_EVENTS } from "../change-tracking.js";
import { createChangeVersionTables } from "./0009-change-versions.tables.js";
import { columnTypes } from "./columns.js";

// PostgreSQL's own triggers for what 0009-change-versions.sqlite.ts does; store/change-tracking.ts
// lists what moves which version, and why.
//
// Row triggers would run a function per row: `kairan generate` inserts a million topics in one
// statement. So the tables of groups and members get statement triggers over transition tables
// (one call per statement, whatever its size; PostgreSQL allows one event per such trigger, hence
// three). Confirmations and renames are rare single-row updates: row triggers on the columns only
// they write, with a WHEN; a fan-out's 5,000-row upsert never fires one.
//
// Locks: a bump holds its version row until commit, so writers of one group take turns from their
// first write on. Every bump takes group rows before member rows, each in id order.

/** The current time in epoch milliseconds: the time of the bump, not of the transaction's start. */
export const POSTGRES_NOW_MS = "CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS bigint)";

/** Change versions per group and per user, moved by triggers (see the SQLite migration). */
export const changeVersions: Migration = {
  async up(db: Kysely<unknown>) {
    await createChangeVersionTables(db, columnTypes("postgres"), POSTGRES_NOW_MS);
    await sql.raw(BUMP_FUNCTION).execute(db);
    const groupIds = (rows: string) => `SELECT group_id FROM ${rows}`;
    const userIds = (rows: string) => `SELECT user_id FROM ${rows}`;
    await statementFunction(db, "kairan_group_rows_changed", groupIds, undefined);
    await statementFunction(db, "kairan_member_rows_changed", undefined, userIds);
    await statementFunction(db, "kairan_groups_changed", (rows) => `SELECT id FROM ${rows}`, undefined);
    await statementFunction(
      db,
      "kairan_file_versions_changed",
      (rows) => `SELECT f.group_id FROM ${rows} r JOIN files f ON f.id = r.file_id`,
      undefined,
    );
    await statementFunction(db, "kairan_memberships_changed", groupIds, userIds);
    for (const table of CHANGE_TRACKING.groupRows) await statementTriggers(db, table, "kairan_group_rows_changed");
    for (const table of CHANGE_TRACKING.memberRows) await statementTriggers(db, table, "kairan_member_rows_changed");
    await statementTriggers(db, "groups", "kairan_groups_changed");
    await statementTriggers(db, "file_versions", "kairan_file_versions_changed");
    await statementTriggers(db, "memberships", "kairan_memberships_changed");

    await sql
      .raw(
        `CREATE FUNCTION kairan_confirmed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM kairan_bump('{}', ARRAY[NEW.user_id]); RETURN NULL; END $$`,
      )
      .execute(db);
    for (const { table, column } of CHANGE_TRACKING.confirmations) {
      await sql
        .raw(
          `CREATE TRIGGER ${table}_confirmed AFTER UPDATE OF ${column} ON ${table} FOR EACH ROW
        WHEN (OLD.confirmed IS DISTINCT FROM NEW.confirmed OR OLD.${column} IS DISTINCT FROM NEW.${column})
        EXECUTE FUNCTION kairan_confirmed()`,
        )
        .execute(db);
    }
    const columns = CHANGE_TRACKING.userColumns;
    await sql
      .raw(
        `CREATE FUNCTION kairan_user_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM kairan_bump(ARRAY[${DIRECTORY_ROW}]::bigint[], '{}'); RETURN NULL; END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER users_renamed AFTER UPDATE OF ${columns.join(", ")} ON users FOR EACH ROW
      WHEN (${columns.map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(" OR ")})
      EXECUTE FUNCTION kairan_user_renamed()`,
      )
      .execute(db);
  },
};

/**
 * Adds 1 to the version of each group and user (creating rows), groups first, each in id order,
 * and moves their change time to now unless it is later already (the clock stepped back).
 */
const BUMP_FUNCTION = `CREATE FUNCTION kairan_bump(group_ids bigint[], user_ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := ${POSTGRES_NOW_MS};
BEGIN
  IF cardinality(group_ids) > 0 THEN
    INSERT INTO group_changes AS c (group_id, version, changed_at)
      SELECT id, 1, now_ms FROM (SELECT DISTINCT unnest(group_ids) AS id) AS d WHERE id IS NOT NULL ORDER BY id
      ON CONFLICT (group_id) DO UPDATE SET version = c.version + 1, changed_at = greatest(c.changed_at, excluded.changed_at);
  END IF;
  IF cardinality(user_ids) > 0 THEN
    INSERT INTO member_changes AS c (user_id, version, changed_at)
      SELECT id, 1, now_ms FROM (SELECT DISTINCT unnest(user_ids) AS id) AS d WHERE id IS NOT NULL ORDER BY id
      ON CONFLICT (user_id) DO UPDATE SET version = c.version + 1, changed_at = greatest(c.changed_at, excluded.changed_at);
  END IF;
END $$`;

/**
 * A statement trigger function: the group ids and user ids of the rows the statement touched
 * (`new_rows` and `old_rows`, the transition tables; both for an UPDATE).
 */
export async function statementFunction(
  db: Kysely<unknown>,
  name: string,
  groups: ((rows: string) => string) | undefined,
  users: ((rows: string) => string) | undefined,
): Promise<void> {
  const ids = (select: ((rows: string) => string) | undefined, op: "INSERT" | "DELETE" | "UPDATE") => {
    if (select === undefined) return "'{}'::bigint[]";
    if (op === "UPDATE") return `ARRAY(${select("new_rows")} UNION ${select("old_rows")})`;
    return `ARRAY(${select(op === "INSERT" ? "new_rows" : "old_rows")})`;
  };
  const call = (op: "INSERT" | "DELETE" | "UPDATE") => `PERFORM kairan_bump(${ids(groups, op)}, ${ids(users, op)});`;
  await sql
    .raw(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN ${call("INSERT")}
  ELSIF TG_OP = 'DELETE' THEN ${call("DELETE")}
  ELSE ${call("UPDATE")}
  END IF;
  RETURN NULL;
END $$`,
    )
    .execute(db);
}

/** The three statement triggers of a table (a trigger with transition tables has one event). */
export async function statementTriggers(db: Kysely<unknown>, table: string, fn: string): Promise<void> {
  for (const event of ROW_EVENTS) {
    const referencing = {
      INSERT: "NEW TABLE AS new_rows",
      DELETE: "OLD TABLE AS old_rows",
      UPDATE: "NEW TABLE AS new_rows OLD TABLE AS old_rows",
    }[event];
    await sql
      .raw(
        `CREATE TRIGGER ${table}_changes_${event.toLowerCase()} AFTER ${event} ON ${table}
      REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      )
      .execute(db);
  }
}
