import { type Kysely, type Migration, sql } from "kysely";
import { CHANGE_TRACKING, DIRECTORY_ROW, ROW_EVENTS } from "../change-tracking.js";
import { createChangeVersionTables } from "./0009-change-versions.tables.js";
import { columnTypes } from "./columns.js";

/** The current time in epoch milliseconds, the same for every row of one statement. */
export const SQLITE_NOW_MS = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

type Row = "NEW" | "OLD";
type Event = (typeof ROW_EVENTS)[number];

/**
 * Change versions kept by the database itself, so that every writer (the server, the CLI, seed,
 * generate, another process) moves them: group_changes per group, member_changes per user,
 * bumped by triggers in the writing transaction. Which table moves what, and why, is listed in
 * store/change-tracking.ts. `version` only grows; `changed_at` (epoch ms, the database's clock)
 * never goes back. Rows are created by their first bump; the directory row exists from the start,
 * so that every caller has a change time.
 */
export const changeVersions: Migration = {
  async up(db: Kysely<unknown>) {
    await createChangeVersionTables(db, columnTypes("sqlite"), SQLITE_NOW_MS);
    const groupOf = (column: string): Target => ({ table: "group_changes", key: (row) => `${row}.${column}` });
    const memberOf: Target = { table: "member_changes", key: (row) => `${row}.user_id` };
    for (const table of CHANGE_TRACKING.groupRows) await rowTriggers(db, table, [groupOf("group_id")]);
    for (const table of CHANGE_TRACKING.memberRows) await rowTriggers(db, table, [memberOf]);
    await rowTriggers(db, "groups", [groupOf("id")]);
    await rowTriggers(db, "file_versions", [
      { table: "group_changes", key: (row) => `(SELECT group_id FROM files WHERE id = ${row}.file_id)` },
    ]);
    // Groups before members, as on PostgreSQL (one lock order there).
    await rowTriggers(db, "memberships", [groupOf("group_id"), memberOf]);
    for (const { table, column } of CHANGE_TRACKING.confirmations) {
      await sql`CREATE TRIGGER ${sql.raw(`${table}_confirmed`)} AFTER UPDATE OF ${sql.raw(column)} ON ${sql.table(table)}
        WHEN OLD.confirmed IS NOT NEW.confirmed OR OLD.${sql.raw(column)} IS NOT NEW.${sql.raw(column)}
        BEGIN ${sql.raw(bump("member_changes", "NEW.user_id"))}; END`.execute(db);
    }
    const columns = CHANGE_TRACKING.userColumns;
    await sql`CREATE TRIGGER users_renamed AFTER UPDATE OF ${sql.raw(columns.join(", "))} ON users
      WHEN ${sql.raw(columns.map((column) => `OLD.${column} IS NOT NEW.${column}`).join(" OR "))}
      BEGIN ${sql.raw(bump("group_changes", String(DIRECTORY_ROW)))}; END`.execute(db);
  },
};

/** A version row a trigger moves: its table, and the key as an expression over NEW or OLD. */
export interface Target {
  readonly table: "group_changes" | "member_changes";
  readonly key: (row: Row) => string;
}

/**
 * One trigger per event. An UPDATE moves the row's version as it is, and as it was when that
 * differs (a row moved to another group or user, which no write does today).
 */
export async function rowTriggers(db: Kysely<unknown>, table: string, targets: readonly Target[]): Promise<void> {
  for (const event of ROW_EVENTS) {
    const statements =
      event === "UPDATE"
        ? targets.flatMap((target) => [
            bump(target.table, target.key("NEW")),
            bump(target.table, target.key("OLD"), target.key("NEW")),
          ])
        : targets.map((target) => bump(target.table, target.key(rowOf(event))));
    await sql`CREATE TRIGGER ${sql.raw(`${table}_changes_${event.toLowerCase()}`)} AFTER ${sql.raw(event)} ON ${sql.table(table)}
      BEGIN ${sql.raw(statements.join(";\n"))}; END`.execute(db);
  }
}

function rowOf(event: Exclude<Event, "UPDATE">): Row {
  return event === "INSERT" ? "NEW" : "OLD";
}

/**
 * Adds 1 to the version of the row with this key (creating it) unless the key is null or equals
 * `unless`, and moves its change time to now unless it is later already (the clock stepped back).
 * A second bump of one row in one transaction is harmless: versions only need to grow.
 */
export function bump(table: Target["table"], key: string, unless?: string): string {
  const column = table === "group_changes" ? "group_id" : "user_id";
  const skip = unless === undefined ? "" : ` AND k IS NOT ${unless}`;
  // The WHERE is also what SQLite's parser needs between INSERT ... SELECT and ON CONFLICT.
  return `INSERT INTO ${table} (${column}, version, changed_at) SELECT k, 1, ${SQLITE_NOW_MS} FROM (SELECT ${key} AS k) WHERE k IS NOT NULL${skip}
    ON CONFLICT (${column}) DO UPDATE SET version = version + 1, changed_at = max(changed_at, excluded.changed_at)`;
}
