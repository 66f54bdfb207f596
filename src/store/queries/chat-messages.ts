import { type Kysely, sql } from "kysely";
import type { ChatMessage } from "../../domain/chat.js";
import type { PageWindow } from "../page-window.js";
import type { Database } from "../schema.js";

/** Messages of a room, numbered per room (migration 0017). */
export interface ChatMessageRepo {
  /** Writes a message and raises the unread count of every member but its author and those who muted the room; its number. */
  push(roomId: number, authorId: number, body: string, at: number): Promise<number>;
  /**
   * Writes messages with their own authors and times (an import), numbered after the room's last,
   * in the order given; nobody's unread count changes. Their numbers.
   */
  insertMany(roomId: number, messages: readonly { authorId: number; body: string; at: number }[]): Promise<number[]>;
  message(roomId: number, number: number): Promise<ChatMessage | undefined>;
  /** The messages of a room among these numbers that exist (delta sync reads its changed ones). */
  messagesNumbered(roomId: number, numbers: readonly number[]): Promise<ChatMessage[]>;
  /** A new text from the message's author, edited at `at`. */
  editMessage(roomId: number, number: number, body: string, at: number): Promise<void>;
  deleteMessage(roomId: number, number: number): Promise<void>;
  /** A page of a room's messages, newest first. */
  messages(roomId: number, page: PageWindow): Promise<ChatMessage[]>;
  countMessages(roomId: number): Promise<number>;
  /** The latest message of each room (rooms without any are absent). */
  latest(roomIds: readonly number[]): Promise<Map<number, ChatMessage>>;
  /** Messages of a room after `number`, oldest first, at most `limit`. */
  messagesAfter(roomId: number, number: number, limit: number): Promise<ChatMessage[]>;
}

function selectMessages(db: Kysely<Database>) {
  return db
    .selectFrom("chat_messages as m")
    .innerJoin("users as u", "u.id", "m.author_id")
    .select([
      "m.room_id as roomId",
      "m.number as number",
      "m.author_id as authorId",
      "u.name as authorName",
      "m.body as body",
      "m.created_at as createdAt",
      "m.edited_at as editedAt",
    ]);
}

/** The message queries over a connection or transaction. */
export function chatMessageRepo(db: Kysely<Database>): ChatMessageRepo {
  return {
    async push(roomId, authorId, body, at) {
      const { last_number: number } = await db
        .updateTable("chat_rooms")
        .set({ last_number: sql`last_number + 1`, activity_at: at })
        .where("id", "=", roomId)
        .returning("last_number")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("chat_messages")
        .values({ room_id: roomId, number, author_id: authorId, body, created_at: at })
        .execute();
      await db
        .updateTable("chat_members")
        .set({ unconfirmed: sql`unconfirmed + 1` })
        .where("room_id", "=", roomId)
        .where("user_id", "!=", authorId)
        .where("muted", "=", 0)
        .execute();
      return number;
    },
    async insertMany(roomId, messages) {
      if (messages.length === 0) return [];
      const newest = Math.max(...messages.map((message) => message.at));
      const { last_number: last } = await db
        .updateTable("chat_rooms")
        .set({
          last_number: sql`last_number + ${messages.length}`,
          activity_at: sql`case when activity_at > ${newest} then activity_at else ${newest} end`,
        })
        .where("id", "=", roomId)
        .returning("last_number")
        .executeTakeFirstOrThrow();
      const first = last - messages.length + 1;
      const rows = messages.map((message, index) => ({
        room_id: roomId,
        number: first + index,
        author_id: message.authorId,
        body: message.body,
        created_at: message.at,
      }));
      // 500 rows of 5 values: far below either engine's limit of bound values per statement.
      for (let start = 0; start < rows.length; start += 500)
        await db
          .insertInto("chat_messages")
          .values(rows.slice(start, start + 500))
          .execute();
      return rows.map((row) => row.number);
    },
    async message(roomId, number) {
      return selectMessages(db).where("m.room_id", "=", roomId).where("m.number", "=", number).executeTakeFirst();
    },
    async messagesNumbered(roomId, numbers) {
      if (numbers.length === 0) return [];
      return selectMessages(db).where("m.room_id", "=", roomId).where("m.number", "in", numbers).execute();
    },
    async editMessage(roomId, number, body, at) {
      await db
        .updateTable("chat_messages")
        .set({ body, edited_at: at })
        .where("room_id", "=", roomId)
        .where("number", "=", number)
        .execute();
    },
    async deleteMessage(roomId, number) {
      await db.deleteFrom("chat_messages").where("room_id", "=", roomId).where("number", "=", number).execute();
    },
    async messages(roomId, page) {
      return selectMessages(db)
        .where("m.room_id", "=", roomId)
        .orderBy("m.number", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    },
    async countMessages(roomId) {
      const row = await db
        .selectFrom("chat_messages")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("room_id", "=", roomId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async latest(roomIds) {
      const out = new Map<number, ChatMessage>();
      if (roomIds.length === 0) return out;
      const rows = await selectMessages(db)
        .where("m.room_id", "in", roomIds)
        .where(({ eb, selectFrom }) =>
          eb(
            "m.number",
            "=",
            selectFrom("chat_messages as n")
              .select((e) => e.fn.max("n.number").as("top"))
              .whereRef("n.room_id", "=", "m.room_id"),
          ),
        )
        .execute();
      for (const row of rows) out.set(row.roomId, row);
      return out;
    },
    async messagesAfter(roomId, number, limit) {
      return selectMessages(db)
        .where("m.room_id", "=", roomId)
        .where("m.number", ">", number)
        .orderBy("m.number", "asc")
        .limit(limit)
        .execute();
    },
  };
}
