import { type Kysely, sql } from "kysely";
import { DIRECTORY_ROW, type ViewVersion } from "../change-tracking.js";
import type { Database } from "../schema.js";
import { toApplication } from "./apps.js";
import { prepared } from "./prepared.js";
import type { TokenOrigin } from "../../domain/session.js";
import type { TokenGrant } from "./tokens.js";
import { toUser } from "./users.js";

interface VersionColumns {
  readonly member_version: number;
  readonly member_changed_at: number | null;
  readonly group_versions: number;
  readonly group_changed_at: number | null;
  readonly now: number;
}

/**
 * The view version of the user `userId` (an SQL expression) as columns of one row. `userId` is
 * spliced in twice: the member row and the joined groups.
 */
function versionColumns(userId: ReturnType<typeof sql>, nowMs: string) {
  return sql`
      coalesce((SELECT version FROM member_changes WHERE user_id = ${userId}), 0) AS member_version,
      (SELECT changed_at FROM member_changes WHERE user_id = ${userId}) AS member_changed_at,
      CAST(coalesce(sum(v.version), 0) AS bigint) AS group_versions,
      max(v.changed_at) AS group_changed_at,
      ${sql.raw(nowMs)} AS now
    FROM (
      SELECT version, changed_at FROM group_changes WHERE group_id = ${sql.lit(DIRECTORY_ROW)}
      UNION ALL
      SELECT c.version, c.changed_at FROM memberships m INNER JOIN group_changes c ON c.group_id = m.group_id
      WHERE m.user_id = ${userId} AND m.status = 'JOIN'
    ) v`;
}

function toViewVersion(row: VersionColumns): ViewVersion {
  return {
    memberVersion: Number(row.member_version),
    groupVersions: Number(row.group_versions),
    changedAt: Math.max(Number(row.member_changed_at ?? 0), Number(row.group_changed_at ?? 0)),
    now: Number(row.now),
  };
}

/**
 * Reads a user's {@link ViewVersion} in one statement (one snapshot), compiled once: it runs
 * before every GET feed. `nowMs` is the engine's SQL for the current epoch milliseconds, the
 * clock the triggers stamp changes with.
 */
export function viewVersionReader(db: Kysely<Database>, nowMs: string): (userId: number) => Promise<ViewVersion> {
  const rows = prepared(["user"], (root, { user }: { user: number }) => ({
    compile: () => sql<VersionColumns>`SELECT ${versionColumns(sql`${user}`, nowMs)}`.compile(root),
  }));
  return async (userId) => {
    const [row] = await rows(db, { user: userId });
    if (!row) throw new Error("the view version query returned no row");
    return toViewVersion(row);
  };
}

/** A live Bearer token's grant and its user's view version, read together. */
export interface CallerView {
  readonly grant: TokenGrant;
  readonly version: ViewVersion;
}

interface CallerRow extends VersionColumns {
  readonly token_id: number;
  readonly token_secret: string;
  readonly token_origin: TokenOrigin;
  readonly user_id: number;
  readonly user_name: string;
  readonly email: string;
  readonly family_kana: string;
  readonly given_kana: string;
  readonly app_id: number;
  readonly app_name: string;
  readonly consumer_key: string;
  readonly consumer_secret: string;
  readonly access_level: string;
  readonly app_created_at: number;
}

/**
 * The conditional GET's one query: the live Bearer token with this hash (the same conditions as
 * the Bearer scheme: not revoked, the account not disabled, a personal token), its user and application, and the
 * user's view version, in one statement (one snapshot), compiled once. Undefined when the token
 * is not live. The token's user is found twice (the view version's subqueries cannot see the
 * outer row on SQLite, which has no LATERAL): both in the same snapshot, so the same user.
 */
export function callerViewReader(
  db: Kysely<Database>,
  nowMs: string,
): (tokenHash: string) => Promise<CallerView | undefined> {
  const rows = prepared(["tokenHash"], (root, { tokenHash }: { tokenHash: string }) => {
    const userOfToken = sql`(SELECT user_id FROM tokens WHERE token_hash = ${tokenHash})`;
    return {
      compile: () =>
        sql<CallerRow>`SELECT t.id AS token_id, t.secret AS token_secret, t.origin AS token_origin, u.id AS user_id, u.name AS user_name,
      u.email, u.family_kana, u.given_kana, a.id AS app_id, a.name AS app_name, a.consumer_key, a.consumer_secret,
      a.access_level, a.created_at AS app_created_at, vv.*
    FROM tokens t
    INNER JOIN users u ON u.id = t.user_id
    INNER JOIN applications a ON a.id = t.app_id
    CROSS JOIN (SELECT ${versionColumns(userOfToken, nowMs)}) vv
    WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL AND u.disabled_at IS NULL AND t.origin = 'personal'`.compile(
          root,
        ),
    };
  });
  return async (tokenHash) => {
    const [row] = await rows(db, { tokenHash });
    if (!row) return undefined;
    const app = toApplication({ ...row, id: row.app_id, name: row.app_name, created_at: row.app_created_at });
    const grant = {
      tokenId: row.token_id,
      secret: row.token_secret,
      origin: row.token_origin,
      user: toUser({ ...row, id: row.user_id, name: row.user_name }),
      app,
    };
    return { grant, version: toViewVersion(row) };
  };
}
