import { type Kysely, type Migration, sql } from "kysely";
import type { Engine } from "./columns.js";
import { POSTGRES_NOW_MS } from "./0009-change-versions.postgres.js";

// PostgreSQL: the change versions move at commit instead of at the write (docs/architecture.md
// "The feed cache and change versions"). 0009's bump updated the group's version row at the first
// write, and the row stayed locked until commit: a second process writing to the same group waited
// for the first one's whole transaction. Now a bump only notes the ids in a temporary table of the
// session (emptied at every commit), and one deferred trigger applies them as the transaction
// commits: the version rows are locked only for the commit's last moment, in id order, groups
// first. The versions still move in commit order (the updates take turns on the row) and become
// visible with the data, in the same commit; a rolled-back transaction (or savepoint) moves
// nothing, its notes go with it.
//
// SQLite has nothing to do: it runs one write transaction at a time, so a version row never makes
// a writer wait on another's open transaction.

const PENDING = "kairan_pending_changes";

/**
 * At commit (the marker's deferred trigger, once per transaction): adds 1 to the version of each
 * noted group and user (creating rows), groups first, each in id order, and moves their change
 * time to now unless it is later already (the clock stepped back), as 0009's bump did.
 */
const APPLY_BODY = `DECLARE
  now_ms bigint := ${POSTGRES_NOW_MS};
BEGIN
  INSERT INTO group_changes AS c (group_id, version, changed_at)
    SELECT id, 1, now_ms FROM pg_temp.${PENDING} WHERE kind = 1 ORDER BY id
    ON CONFLICT (group_id) DO UPDATE SET version = c.version + 1, changed_at = greatest(c.changed_at, excluded.changed_at);
  INSERT INTO member_changes AS c (user_id, version, changed_at)
    SELECT id, 1, now_ms FROM pg_temp.${PENDING} WHERE kind = 2 ORDER BY id
    ON CONFLICT (user_id) DO UPDATE SET version = c.version + 1, changed_at = greatest(c.changed_at, excluded.changed_at);
  RETURN NULL;
END`;

/**
 * Notes the ids in the session's pending table, with the commit marker (kind 0). The table, the
 * function that applies it and its deferred trigger are made on the session's first bump, all
 * three temporary: nothing of the schema depends on them, nor they on the schema, so a session
 * ending (its temporary objects dropped) never contends with DDL on the schema (a DROP SCHEMA
 * CASCADE deadlocked against exiting sessions while the trigger called a function of the schema).
 */
const BUMP_AT_COMMIT = `CREATE OR REPLACE FUNCTION kairan_bump(group_ids bigint[], user_ids bigint[]) RETURNS void LANGUAGE plpgsql AS $bump$
BEGIN
  IF to_regclass('pg_temp.${PENDING}') IS NULL THEN
    CREATE TEMPORARY TABLE ${PENDING} (kind smallint NOT NULL, id bigint NOT NULL, PRIMARY KEY (kind, id))
      ON COMMIT DELETE ROWS;
    CREATE OR REPLACE FUNCTION pg_temp.kairan_apply_changes() RETURNS trigger LANGUAGE plpgsql AS $apply$ ${APPLY_BODY} $apply$;
    CREATE CONSTRAINT TRIGGER ${PENDING}_apply AFTER INSERT ON pg_temp.${PENDING}
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.kind = 0) EXECUTE FUNCTION pg_temp.kairan_apply_changes();
  END IF;
  INSERT INTO pg_temp.${PENDING} (kind, id)
    SELECT 0, 0
    UNION ALL SELECT 1, g FROM unnest(group_ids) AS g WHERE g IS NOT NULL
    UNION ALL SELECT 2, u FROM unnest(user_ids) AS u WHERE u IS NOT NULL
    ON CONFLICT DO NOTHING;
END $bump$`;

/** 0016: change versions bumped at commit on PostgreSQL; nothing on SQLite. */
export function versionsAtCommit(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine === "sqlite") return;
      await sql.raw(BUMP_AT_COMMIT).execute(db);
    },
  };
}
