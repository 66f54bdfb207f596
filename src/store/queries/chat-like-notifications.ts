import type { Kysely } from "kysely";
import type { ChatLikeNotification, LikedChatMessage, UserMention } from "../../domain/notification.js";
import type { Database } from "../schema.js";
import type { Engine } from "./engine.js";
import { liveEventRepo } from "./live-events.js";

/** Like notifications of chat messages (migration 0027): one per (author, message). */
export interface ChatLikeNotificationRepo {
  /** Creates, or brings to the top unconfirmed, the author's like notification of the message. */
  touch(ownerId: number, message: LikedChatMessage, at: number): Promise<void>;
  /** Moves the owner's feed version without changing what the notification holds (its likers changed). */
  refresh(ownerId: number, message: LikedChatMessage): Promise<void>;
  /** Moves the feed version of everyone holding a notification of the room (its title changed). */
  refreshRoom(roomId: number): Promise<void>;
  remove(ownerId: number, message: LikedChatMessage): Promise<void>;
  /** Removes the user's notifications of a room (the user left it). */
  removeOfMember(userId: number, roomId: number): Promise<void>;
  /** The owner's notification of the message while it is unconfirmed and the owner is in its room. */
  unconfirmedOf(ownerId: number, message: LikedChatMessage): Promise<ChatLikeNotification | undefined>;
  /** These notifications of the owner (row ids), in no particular order. */
  byIds(ownerId: number, ids: readonly number[]): Promise<ChatLikeNotification[]>;
  /** Confirms the user's notifications of these messages; returns every one of them (idempotent). */
  confirm(userId: number, messages: readonly LikedChatMessage[], at: number): Promise<ChatLikeNotification[]>;
}

/** The user's chat like notifications in rooms the user is still in; `unconfirmedOnly` keeps the unconfirmed. */
export function visibleChatLikeNotifications(db: Kysely<Database>, userId: number, unconfirmedOnly: boolean) {
  const query = db
    .selectFrom("chat_like_notifications")
    .where("user_id", "=", userId)
    .where("room_id", "in", db.selectFrom("chat_members").select("room_id").where("user_id", "=", userId));
  return unconfirmedOnly ? query.where("confirmed", "=", 0) : query;
}

function selectDetails(db: Kysely<Database>, ownerId: number) {
  return db
    .selectFrom("chat_like_notifications as n")
    .innerJoin("chat_rooms as r", "r.id", "n.room_id")
    .leftJoin("chat_messages as m", (join) =>
      join.onRef("m.room_id", "=", "n.room_id").onRef("m.number", "=", "n.message_number"),
    )
    .select(["n.id", "n.room_id", "n.message_number", "n.confirmed", "n.updated_at", "r.type", "r.title", "m.body"])
    .select((eb) =>
      // A DIRECT room is named after the other person, as the room list names it.
      eb
        .selectFrom("chat_members as o")
        .innerJoin("users as u", "u.id", "o.user_id")
        .select("u.name")
        .whereRef("o.room_id", "=", "n.room_id")
        .where("o.user_id", "!=", ownerId)
        .orderBy("u.id")
        .limit(1)
        .as("other_name"),
    )
    .where("n.user_id", "=", ownerId);
}

/** Chat like notification queries. */
export function chatLikeNotificationRepo(db: Kysely<Database>, engine: Engine): ChatLikeNotificationRepo {
  const likersOf = async (ownerId: number, messages: readonly LikedChatMessage[]) => {
    const out = new Map<string, UserMention[]>();
    if (messages.length === 0) return out;
    const rows = await db
      .selectFrom("chat_likes as l")
      .innerJoin("users as u", "u.id", "l.user_id")
      .select(["l.room_id", "l.message_number", "u.id", "u.name"])
      .where("l.user_id", "<>", ownerId)
      .where((eb) =>
        eb.or(
          messages.map((m) => eb.and([eb("l.room_id", "=", m.roomId), eb("l.message_number", "=", m.messageNumber)])),
        ),
      )
      .orderBy("l.created_at")
      .orderBy("u.id")
      .execute();
    for (const row of rows) {
      const key = `${row.room_id}:${row.message_number}`;
      out.set(key, [...(out.get(key) ?? []), { id: row.id, name: row.name }]);
    }
    return out;
  };
  const byIds = async (ownerId: number, ids: readonly number[]): Promise<ChatLikeNotification[]> => {
    if (ids.length === 0) return [];
    const rows = await selectDetails(db, ownerId)
      .where("n.id", "in", ids)
      .orderBy("n.updated_at", "desc")
      .orderBy("n.id", "desc")
      .execute();
    const messages = rows.map((row) => ({ roomId: row.room_id, messageNumber: row.message_number }));
    const likers = await likersOf(ownerId, messages);
    return rows.map((row) => ({
      kind: "chat",
      message: { roomId: row.room_id, messageNumber: row.message_number },
      ownerId,
      title: row.type === "DIRECT" ? (row.other_name ?? row.title) : row.title,
      body: row.body ?? "",
      likers: likers.get(`${row.room_id}:${row.message_number}`) ?? [],
      confirmed: row.confirmed === 1,
      updatedAt: row.updated_at,
    }));
  };
  const ofMessage = (ownerId: number, message: LikedChatMessage) =>
    db
      .updateTable("chat_like_notifications")
      .where("user_id", "=", ownerId)
      .where("room_id", "=", message.roomId)
      .where("message_number", "=", message.messageNumber);
  return {
    byIds,
    async touch(ownerId, message, at) {
      await db
        .insertInto("chat_like_notifications")
        .values({
          user_id: ownerId,
          room_id: message.roomId,
          message_number: message.messageNumber,
          confirmed: 0,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc.columns(["room_id", "message_number", "user_id"]).doUpdateSet({ confirmed: 0, updated_at: at }),
        )
        .execute();
      await liveEventRepo(db, engine).append({ kind: "chatLikeNotification", ownerId, message, at });
    },
    async refresh(ownerId, message) {
      // An update that changes nothing still fires the row's change trigger (migration 0027).
      await ofMessage(ownerId, message)
        .set((eb) => ({ confirmed: eb.ref("confirmed") }))
        .execute();
    },
    async refreshRoom(roomId) {
      await db
        .updateTable("chat_like_notifications")
        .set((eb) => ({ confirmed: eb.ref("confirmed") }))
        .where("room_id", "=", roomId)
        .execute();
    },
    async remove(ownerId, message) {
      await db
        .deleteFrom("chat_like_notifications")
        .where("user_id", "=", ownerId)
        .where("room_id", "=", message.roomId)
        .where("message_number", "=", message.messageNumber)
        .execute();
    },
    async removeOfMember(userId, roomId) {
      await db
        .deleteFrom("chat_like_notifications")
        .where("user_id", "=", userId)
        .where("room_id", "=", roomId)
        .execute();
    },
    async unconfirmedOf(ownerId, message) {
      const rows = await visibleChatLikeNotifications(db, ownerId, true)
        .select("id")
        .where("room_id", "=", message.roomId)
        .where("message_number", "=", message.messageNumber)
        .execute();
      return (
        await byIds(
          ownerId,
          rows.map((row) => row.id),
        )
      )[0];
    },
    async confirm(userId, messages, at) {
      if (messages.length === 0) return [];
      const mine = () =>
        visibleChatLikeNotifications(db, userId, false).where((eb) =>
          eb.or(
            messages.map((m) => eb.and([eb("room_id", "=", m.roomId), eb("message_number", "=", m.messageNumber)])),
          ),
        );
      const rows = await mine().select(["id", "confirmed"]).execute();
      const unconfirmed = rows.filter((row) => row.confirmed === 0).map((row) => row.id);
      if (unconfirmed.length > 0)
        await db
          .updateTable("chat_like_notifications")
          .set({ confirmed: 1, confirmed_at: at })
          .where("id", "in", unconfirmed)
          .execute();
      return byIds(
        userId,
        rows.map((row) => row.id),
      );
    },
  };
}
