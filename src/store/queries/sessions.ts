import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { toPreferences, toUser } from "./users.js";
import type { Session } from "../../domain/session.js";

/** Web sign-in sessions, shared by every server process through the database. */
export interface SessionRepo {
  insert(session: {
    tokenHash: string;
    userId: number;
    csrf: string;
    createdAt: number;
    expiresAt: number;
  }): Promise<void>;
  /** The session with this token hash, unless it has expired. */
  findLive(tokenHash: string, now: number): Promise<Session | undefined>;
  extend(id: number, expiresAt: number): Promise<void>;
  remove(tokenHash: string): Promise<void>;
  /** Deletes expired sessions; returns how many. */
  removeExpired(now: number): Promise<number>;
  /** Ends every session of the user (new password, disabled account); returns how many. */
  removeOfUser(userId: number): Promise<number>;
  /** Ends every session of the user but one (the one that changed the password); returns how many. */
  removeOthersOfUser(userId: number, keepId: number): Promise<number>;
}

/** Session queries: looked up by the cookie token's SHA-256, never by the token itself. */
export function sessionRepo(db: Kysely<Database>): SessionRepo {
  return {
    async insert(session) {
      await db
        .insertInto("sessions")
        .values({
          token_hash: session.tokenHash,
          user_id: session.userId,
          csrf: session.csrf,
          created_at: session.createdAt,
          expires_at: session.expiresAt,
        })
        .execute();
    },
    async findLive(tokenHash, now) {
      const row = await db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .select([
          "sessions.id as session_id",
          "sessions.csrf",
          "sessions.created_at",
          "sessions.expires_at",
          "users.id",
          "users.name",
          "users.email",
          "users.family_kana",
          "users.given_kana",
          "users.lang",
          "users.time_zone",
          "users.site_admin",
        ])
        .where("sessions.token_hash", "=", tokenHash)
        .where("sessions.expires_at", ">", now)
        // Also ended when the account is disabled (the disabling removes them too).
        .where("users.disabled_at", "is", null)
        .executeTakeFirst();
      return (
        row && {
          id: row.session_id,
          user: toUser(row),
          preferences: toPreferences(row),
          siteAdmin: row.site_admin === 1,
          csrf: row.csrf,
          createdAt: row.created_at,
          expiresAt: row.expires_at,
        }
      );
    },
    async extend(id, expiresAt) {
      await db.updateTable("sessions").set({ expires_at: expiresAt }).where("id", "=", id).execute();
    },
    async remove(tokenHash) {
      await db.deleteFrom("sessions").where("token_hash", "=", tokenHash).execute();
    },
    async removeOfUser(userId) {
      const result = await db.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async removeOthersOfUser(userId, keepId) {
      const result = await db
        .deleteFrom("sessions")
        .where("user_id", "=", userId)
        .where("id", "<>", keepId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async removeExpired(now) {
      const result = await db.deleteFrom("sessions").where("expires_at", "<=", now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
