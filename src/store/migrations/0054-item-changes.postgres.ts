import { POSTGRES_NOW_MS } from "./0009-change-versions.postgres.js";

// PostgreSQL: the numbers of item_changes are given at commit, in commit order per group. 0016's
// bump notes the changed groups and users in a temporary table and applies them from a deferred
// trigger as the transaction commits, locking each group's version row until the commit ends (a
// second writer of the group waits there). This bump does the same and then, still holding those
// locks, numbers the transaction's item_changes rows (those without a number: no other
// transaction's are visible) from item_change_seq. So a later commit in the same group always gets
// higher numbers, and a reader that sees a group's number n has seen every change of the group
// numbered below n: the cursor never skips a change committed late (docs/architecture.md
// "Delta sync"). Numbers of different groups may interleave out of commit order; every cursor
// belongs to one group's feed.
//
// The temporary table and function get new names: a session that made 0016's before this
// migration keeps them, unused (their trigger never fires again), and makes these on its next bump.

const PENDING = "kairan_pending_changes2";

const APPLY_BODY = `DECLARE
  now_ms bigint := ${POSTGRES_NOW_MS};
BEGIN
  INSERT INTO group_changes AS c (group_id, version, changed_at)
    SELECT id, 1, now_ms FROM pg_temp.${PENDING} WHERE kind = 1 ORDER BY id
    ON CONFLICT (group_id) DO UPDATE SET version = c.version + 1, changed_at = greatest(c.changed_at, excluded.changed_at);
  INSERT INTO member_changes AS c (user_id, version, changed_at)
    SELECT id, 1, now_ms FROM pg_temp.${PENDING} WHERE kind = 2 ORDER BY id
    ON CONFLICT (user_id) DO UPDATE SET version = c.version + 1, changed_at = greatest(c.changed_at, excluded.changed_at);
  UPDATE item_changes AS c SET seq = s.n, first_seq = coalesce(c.first_seq, s.n)
    FROM (SELECT kind, group_id, item_id, nextval('item_change_seq') AS n FROM item_changes WHERE seq IS NULL) AS s
    WHERE c.kind = s.kind AND c.group_id = s.group_id AND c.item_id = s.item_id;
  RETURN NULL;
END`;

/** kairan_bump of 0016, whose commit also numbers the transaction's item_changes rows. */
export const BUMP_WITH_ITEM_STAMPS = `CREATE OR REPLACE FUNCTION kairan_bump(group_ids bigint[], user_ids bigint[]) RETURNS void LANGUAGE plpgsql AS $bump$
BEGIN
  IF to_regclass('pg_temp.${PENDING}') IS NULL THEN
    CREATE TEMPORARY TABLE ${PENDING} (kind smallint NOT NULL, id bigint NOT NULL, PRIMARY KEY (kind, id))
      ON COMMIT DELETE ROWS;
    CREATE OR REPLACE FUNCTION pg_temp.kairan_apply_changes2() RETURNS trigger LANGUAGE plpgsql AS $apply$ ${APPLY_BODY} $apply$;
    CREATE CONSTRAINT TRIGGER ${PENDING}_apply AFTER INSERT ON pg_temp.${PENDING}
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.kind = 0) EXECUTE FUNCTION pg_temp.kairan_apply_changes2();
  END IF;
  INSERT INTO pg_temp.${PENDING} (kind, id)
    SELECT 0, 0
    UNION ALL SELECT 1, g FROM unnest(group_ids) AS g WHERE g IS NOT NULL
    UNION ALL SELECT 2, u FROM unnest(user_ids) AS u WHERE u IS NOT NULL
    ON CONFLICT DO NOTHING;
END $bump$`;
