import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** Notification counts the web interface shows. */
export interface NotificationCountRepo {
  /** The user's unconfirmed notifications per group (groups without any are absent). */
  unconfirmedByGroup(userId: number): Promise<Map<number, number>>;
  /** The user's unconfirmed mentions per group (groups without any are absent). */
  unconfirmedMentionsByGroup(userId: number): Promise<Map<number, number>>;
}

/** Counts of a user's notifications for the web's "my groups" page. */
export function notificationCountRepo(db: Kysely<Database>): NotificationCountRepo {
  return {
    async unconfirmedByGroup(userId) {
      const rows = await db
        .selectFrom("notifications")
        .select((eb) => ["group_id", eb.fn.countAll<number | string>().as("count")])
        .where("user_id", "=", userId)
        .where("confirmed", "=", 0)
        .groupBy("group_id")
        .execute();
      return new Map(rows.map((row) => [row.group_id, Number(row.count)]));
    },
    async unconfirmedMentionsByGroup(userId) {
      const rows = await db
        .selectFrom("mentions")
        .select((eb) => ["group_id", eb.fn.countAll<number | string>().as("count")])
        .where("user_id", "=", userId)
        .where("confirmed", "=", 0)
        .groupBy("group_id")
        .execute();
      return new Map(rows.map((row) => [Number(row.group_id), Number(row.count)]));
    },
  };
}
