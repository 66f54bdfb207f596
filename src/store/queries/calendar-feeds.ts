import type { Kysely } from "kysely";
import type { User } from "../../domain/user.js";
import type { Database } from "../schema.js";
import { toUser } from "./users.js";

/** Calendar feed secrets: one per user at most, kept as SHA-256 (migration 0026). */
export interface CalendarFeedRepo {
  /** The owner of the secret with this hash, unless their account is disabled. */
  findOwner(secretHash: string): Promise<User | undefined>;
  /** When the user's live secret was made; undefined when they have none. */
  createdAtOf(userId: number): Promise<number | undefined>;
  /** Makes `secretHash` the user's only secret (any earlier one stops matching). */
  replace(userId: number, secretHash: string, at: number): Promise<void>;
  /** Removes the user's secret; false when they had none. */
  remove(userId: number): Promise<boolean>;
}

/** Calendar feed queries. */
export function calendarFeedRepo(db: Kysely<Database>): CalendarFeedRepo {
  return {
    async findOwner(secretHash) {
      const row = await db
        .selectFrom("calendar_feeds")
        .innerJoin("users", "users.id", "calendar_feeds.user_id")
        .select(["users.id", "users.name", "users.email", "users.family_kana", "users.given_kana"])
        .where("calendar_feeds.secret_hash", "=", secretHash)
        .where("users.disabled_at", "is", null)
        .executeTakeFirst();
      return row && toUser(row);
    },
    async createdAtOf(userId) {
      const row = await db
        .selectFrom("calendar_feeds")
        .select("created_at")
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return row?.created_at;
    },
    async replace(userId, secretHash, at) {
      await db.deleteFrom("calendar_feeds").where("user_id", "=", userId).execute();
      await db
        .insertInto("calendar_feeds")
        .values({ user_id: userId, secret_hash: secretHash, created_at: at })
        .execute();
    },
    async remove(userId) {
      const result = await db.deleteFrom("calendar_feeds").where("user_id", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
