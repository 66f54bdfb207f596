import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { mayUseRoom } from "./chat-sharing.js";
import { joinedGroupIds } from "./notification-items.js";

/** What the header's counts show: the reader's unconfirmed notifications and unread chat messages. */
export interface UnreadCounts {
  /** Exactly what `GET /api/notification/V2?unconfirmed=true` lists: notifications and mentions. */
  readonly notifications: number;
  /** Unconfirmed messages of the rooms the reader may use and has not muted (M_CHAT). */
  readonly chat: number;
}

/** Notification counts the web interface shows. */
export interface NotificationCountRepo {
  /** The user's unconfirmed notifications per group (groups without any are absent). */
  unconfirmedByGroup(userId: number): Promise<Map<number, number>>;
  /** The user's unconfirmed mentions per group (groups without any are absent). */
  unconfirmedMentionsByGroup(userId: number): Promise<Map<number, number>>;
  /**
   * The header's counts, with the notification list's own conditions: notifications of joined
   * groups the user did not mute, mentions of joined groups, chat rooms as the M_CHAT list.
   */
  unread(userId: number): Promise<UnreadCounts>;
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
    async unread(userId) {
      const notified = db
        .selectFrom("memberships")
        .select("group_id")
        .where("user_id", "=", userId)
        .where("status", "=", "JOIN")
        .where("notify", "=", 1);
      const notifications = await db
        .selectFrom("notifications")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("user_id", "=", userId)
        .where("confirmed", "=", 0)
        .where("group_id", "in", notified)
        .executeTakeFirst();
      const mentions = await db
        .selectFrom("mentions")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("user_id", "=", userId)
        .where("confirmed", "=", 0)
        .where("group_id", "in", joinedGroupIds(db, userId))
        .executeTakeFirst();
      const chat = await db
        .selectFrom("chat_members as me")
        .innerJoin("chat_rooms as r", "r.id", "me.room_id")
        .select((eb) => eb.fn.sum<number | string | null>("me.unconfirmed").as("count"))
        .where("me.user_id", "=", userId)
        .where("me.muted", "=", 0)
        .where("me.unconfirmed", ">", 0)
        .where(mayUseRoom(userId))
        .executeTakeFirst();
      return {
        notifications: Number(notifications?.count ?? 0) + Number(mentions?.count ?? 0),
        chat: Number(chat?.count ?? 0),
      };
    },
  };
}
