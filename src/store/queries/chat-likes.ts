import { type Kysely, sql } from "kysely";
import type { Liker, LikeSummary } from "../../domain/reaction.js";
import type { Database } from "../schema.js";

/** Likes of chat messages (migration 0027): one row per (message, user). */
export interface ChatLikeRepo {
  /** Idempotent: liking twice leaves one like; true when this call added it. */
  add(roomId: number, number: number, userId: number, at: number): Promise<boolean>;
  /** True when there was a like to remove. */
  remove(roomId: number, number: number, userId: number): Promise<boolean>;
  /** Who liked the message, first liker first. */
  likers(roomId: number, number: number): Promise<Liker[]>;
  /** Count and the viewer's own like of each of these messages of one room (absent = no likes). */
  summarize(roomId: number, numbers: readonly number[], viewerId: number): Promise<Map<number, LikeSummary>>;
  /** Removes the message's likes and like notifications (it is being deleted). */
  removeOf(roomId: number, number: number): Promise<void>;
}

/** The chat like queries over a connection or transaction. */
export function chatLikeRepo(db: Kysely<Database>): ChatLikeRepo {
  const ofMessage = (roomId: number, number: number) =>
    db.selectFrom("chat_likes").where("room_id", "=", roomId).where("message_number", "=", number);
  return {
    async add(roomId, number, userId, at) {
      const result = await db
        .insertInto("chat_likes")
        .values({ room_id: roomId, message_number: number, user_id: userId, created_at: at })
        .onConflict((oc) => oc.columns(["room_id", "message_number", "user_id"]).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async remove(roomId, number, userId) {
      const result = await db
        .deleteFrom("chat_likes")
        .where("room_id", "=", roomId)
        .where("message_number", "=", number)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async likers(roomId, number) {
      const rows = await ofMessage(roomId, number)
        .innerJoin("users as u", "u.id", "chat_likes.user_id")
        .select(["u.id as userId", "u.name as name"])
        .orderBy("chat_likes.created_at")
        .orderBy("u.id")
        .execute();
      return rows.map((row) => ({ userId: row.userId, name: row.name }));
    },
    async summarize(roomId, numbers, viewerId) {
      const out = new Map<number, LikeSummary>();
      if (numbers.length === 0) return out;
      const rows = await db
        .selectFrom("chat_likes")
        .select((eb) => [
          "message_number",
          eb.fn.countAll<number | string>().as("count"),
          // Portable: SUM of a CASE works the same on SQLite and PostgreSQL.
          sql<number | string>`sum(case when ${eb.ref("user_id")} = ${viewerId} then 1 else 0 end)`.as("mine"),
        ])
        .where("room_id", "=", roomId)
        .where("message_number", "in", numbers)
        .groupBy("message_number")
        .execute();
      for (const row of rows) out.set(row.message_number, { count: Number(row.count), mine: Number(row.mine) > 0 });
      return out;
    },
    async removeOf(roomId, number) {
      await db.deleteFrom("chat_likes").where("room_id", "=", roomId).where("message_number", "=", number).execute();
      await db
        .deleteFrom("chat_like_notifications")
        .where("room_id", "=", roomId)
        .where("message_number", "=", number)
        .execute();
    },
  };
}
