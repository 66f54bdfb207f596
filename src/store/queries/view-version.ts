import { type Kysely, sql } from "kysely";
import { DIRECTORY_ROW, type ViewVersion } from "../change-tracking.js";
import type { Database } from "../schema.js";
import { prepared } from "./prepared.js";

interface Row {
  readonly member_version: number;
  readonly member_changed_at: number | null;
  readonly group_versions: number;
  readonly group_changed_at: number | null;
  readonly now: number;
}

/**
 * Reads a user's {@link ViewVersion} in one statement (one snapshot), compiled once: it runs
 * before every GET feed. `nowMs` is the engine's SQL for the current epoch milliseconds, the
 * clock the triggers stamp changes with.
 */
export function viewVersionReader(db: Kysely<Database>, nowMs: string): (userId: number) => Promise<ViewVersion> {
  const rows = prepared(["user"], (root, { user }: { user: number }) => ({
    compile: () =>
      sql<Row>`SELECT
      coalesce((SELECT version FROM member_changes WHERE user_id = ${user}), 0) AS member_version,
      (SELECT changed_at FROM member_changes WHERE user_id = ${user}) AS member_changed_at,
      CAST(coalesce(sum(v.version), 0) AS bigint) AS group_versions,
      max(v.changed_at) AS group_changed_at,
      ${sql.raw(nowMs)} AS now
    FROM (
      SELECT version, changed_at FROM group_changes WHERE group_id = ${sql.lit(DIRECTORY_ROW)}
      UNION ALL
      SELECT c.version, c.changed_at FROM memberships m INNER JOIN group_changes c ON c.group_id = m.group_id
      WHERE m.user_id = ${user} AND m.status = 'JOIN'
    ) v`.compile(root),
  }));
  return async (userId) => {
    const [row] = await rows(db, { user: userId });
    if (!row) throw new Error("the view version query returned no row");
    return {
      memberVersion: Number(row.member_version),
      groupVersions: Number(row.group_versions),
      changedAt: Math.max(Number(row.member_changed_at ?? 0), Number(row.group_changed_at ?? 0)),
      now: Number(row.now),
    };
  };
}
