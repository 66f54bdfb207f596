import { type Kysely, type Migration, sql } from "kysely";
import type { Engine } from "./columns.js";
import { POSTGRES_NOW_MS } from "./0009-change-versions.postgres.js";
import { SQLITE_NOW_MS } from "./0009-change-versions.sqlite.js";

/**
 * Delta sync of a chat room's messages (issue #34, docs/architecture.md "Delta sync"): the same
 * change index as migrations 0054 and 0058 (`item_changes`), with triggers on `chat_messages`
 * (kind MP_CHAT_COMMENT, one row per message keyed by its number in the room, which is never
 * reused) and a departure row (kind MEMBER_LEFT, item = the user) when a member leaves a room.
 *
 * A room is not a group: its scope owner is ROOM_SCOPE_BASE + the room's id (groups are numbered
 * below it, a person's own scope is minus their id), so a room's numbers, tombstones, departures
 * and pruning horizon are its own, as a group's are.
 *
 * Numbering on PostgreSQL: chat is not change-tracked (no version follows it), so the triggers
 * here take the room's row lock (FOR NO KEY UPDATE, the lock a push's update of `last_number`
 * takes) and call kairan_bump with no group and no user: the commit then numbers the rows while
 * the room stays locked, and a later write in the same room waits for that commit. A member's
 * departure takes the room before the member's row (services/chat/chat-membership.ts), the order
 * a push follows (the room, then the members' unread counts), so the two never wait for each other.
 */
export function chatChanges(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine === "sqlite") await sqliteTriggers(db);
      else await postgresTriggers(db);
      await backfill(db, engine);
    },
  };
}

/** Frozen with this migration: the first scope owner of the rooms (domain/changes.ts names it too). */
const ROOM_SCOPE_BASE = "100000000000000";
const KIND = "'MP_CHAT_COMMENT'";
const MEMBER_LEFT = "'MEMBER_LEFT'";

/** The columns every trigger writes, in this order (as 0054's). */
const COLUMNS = "kind, group_id, parent_id, item_id, ref_number, seq, first_seq, changed_at, deleted";
const ON_CONFLICT = `ON CONFLICT (kind, group_id, item_id) DO UPDATE SET parent_id = excluded.parent_id,
  ref_number = excluded.ref_number, seq = excluded.seq, changed_at = excluded.changed_at, deleted = excluded.deleted`;

/** SQLite: the next number, above every number given and every number pruned (as 0054's). */
const SQLITE_NEXT = `(SELECT coalesce(max(n), 0) + 1 FROM (SELECT max(seq) AS n FROM item_changes
  UNION ALL SELECT max(pruned_seq) FROM item_change_horizons))`;

const message = (row: string, seq: string, now: string, deleted: number) =>
  `${KIND}, ${ROOM_SCOPE_BASE} + ${row}.room_id, ${row}.room_id, ${row}.number, ${row}.number, ${seq}, ${seq}, ${now}, ${deleted}`;
const departure = (row: string, seq: string, now: string) =>
  `${MEMBER_LEFT}, ${ROOM_SCOPE_BASE} + ${row}.room_id, 0, ${row}.user_id, 0, ${seq}, ${seq}, ${now}, 0`;

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
    const row = event === "DELETE" ? "OLD" : "NEW";
    await sql
      .raw(
        `CREATE TRIGGER chat_messages_item_changes_${event.toLowerCase()} AFTER ${event} ON chat_messages
      BEGIN INSERT INTO item_changes (${COLUMNS})
        SELECT ${message(row, "n", SQLITE_NOW_MS, event === "DELETE" ? 1 : 0)} FROM (SELECT ${SQLITE_NEXT} AS n) WHERE 1
        ${ON_CONFLICT}; END`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `CREATE TRIGGER chat_members_departures_delete AFTER DELETE ON chat_members
    BEGIN INSERT INTO item_changes (${COLUMNS})
      SELECT ${departure("OLD", "n", SQLITE_NOW_MS)} FROM (SELECT ${SQLITE_NEXT} AS n) WHERE 1
      ${ON_CONFLICT}; END`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  // Per statement: the rooms locked until the commit ends, the rows without a number, given at
  // commit (kairan_bump's apply).
  const lock = (rows: string) =>
    `PERFORM 1 FROM chat_rooms WHERE id IN (SELECT r.room_id FROM ${rows} AS r) ORDER BY id FOR NO KEY UPDATE;`;
  const bump = `PERFORM kairan_bump('{}'::bigint[], '{}'::bigint[]);`;
  const write = (rows: string, deleted: number) =>
    `${lock(rows)} INSERT INTO item_changes (${COLUMNS}) SELECT ${message("r", "NULL", "now_ms", deleted)} FROM ${rows} AS r
      ${ON_CONFLICT}; ${bump}`;
  await sql
    .raw(
      `CREATE FUNCTION kairan_chat_messages_item_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := ${POSTGRES_NOW_MS};
BEGIN
  IF TG_OP = 'DELETE' THEN ${write("old_rows", 1)}
  ELSE ${write("new_rows", 0)}
  END IF;
  RETURN NULL;
END $$`,
    )
    .execute(db);
  for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
    const referencing = event === "DELETE" ? "OLD TABLE AS old_rows" : "NEW TABLE AS new_rows";
    await sql
      .raw(
        `CREATE TRIGGER chat_messages_item_changes_${event.toLowerCase()} AFTER ${event} ON chat_messages
      REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION kairan_chat_messages_item_changes()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `CREATE FUNCTION kairan_chat_members_departures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${lock("old_rows")}
  INSERT INTO item_changes (${COLUMNS}) SELECT ${departure("r", "NULL", POSTGRES_NOW_MS)} FROM old_rows AS r
    ${ON_CONFLICT};
  ${bump}
  RETURN NULL;
END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER chat_members_departures_delete AFTER DELETE ON chat_members
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kairan_chat_members_departures()`,
    )
    .execute(db);
}

/** The rows of the messages that exist already, numbered in id order. */
async function backfill(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const now = engine === "sqlite" ? SQLITE_NOW_MS : POSTGRES_NOW_MS;
  const number =
    engine === "sqlite" ? `${SQLITE_NEXT} - 1 + row_number() OVER (ORDER BY r.id)` : `nextval('item_change_seq')`;
  await sql
    .raw(
      `INSERT INTO item_changes (${COLUMNS})
    SELECT ${message("b", "b.n", now, 0)} FROM (
      SELECT r.room_id, r.number, ${number} AS n FROM chat_messages AS r ORDER BY r.id) AS b`,
    )
    .execute(db);
}
