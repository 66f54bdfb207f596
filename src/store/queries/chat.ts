import { type Kysely, sql } from "kysely";
import type { ChatMember, ChatMessage, ChatRoom, ChatRoomType } from "../../domain/chat.js";
import type { PageWindow } from "../page-window.js";
import type { Database } from "../schema.js";

/** A room with the caller's own setting and unread count. */
export interface MemberRoom extends ChatRoom {
  readonly muted: boolean;
  readonly unconfirmed: number;
  readonly lastNumber: number;
}

/** Which of the caller's rooms a list shows. */
export interface RoomFilter {
  readonly type: ChatRoomType | null;
  /** Rooms that also include this user. */
  readonly withUserId: number | null;
  /** Only rooms holding at least one message ever (the M_CHAT notifications). */
  readonly withMessages?: boolean;
  /** Leave out rooms the caller muted. */
  readonly hideMuted?: boolean;
  readonly unconfirmedOnly?: boolean;
}

/** A new room. */
export interface RoomDraft {
  readonly type: ChatRoomType;
  readonly title: string;
  readonly creatorId: number;
  readonly directKey: string | null;
  readonly at: number;
}

/** Chat rooms, members and messages (migration 0017). */
export interface ChatRepo {
  /** Inserts a room; its id. */
  createRoom(draft: RoomDraft): Promise<number>;
  /** The DIRECT room of a pair, by its key. */
  findDirect(key: string): Promise<number | undefined>;
  /** Adds members (those already in stay as they are). */
  addMembers(roomId: number, userIds: readonly number[], at: number): Promise<void>;
  removeMember(roomId: number, userId: number): Promise<void>;
  rename(roomId: number, title: string): Promise<void>;
  setMuted(roomId: number, userId: number, muted: boolean): Promise<void>;
  /** The room as this user sees it; undefined when it does not exist or the user is not in it. */
  room(roomId: number, userId: number): Promise<MemberRoom | undefined>;
  /** A page of the user's rooms, latest activity first. */
  rooms(userId: number, filter: RoomFilter, page: PageWindow): Promise<MemberRoom[]>;
  /** These rooms of the user (those the user is in), latest activity first. */
  roomsByIds(userId: number, roomIds: readonly number[]): Promise<MemberRoom[]>;
  /** Members of each room, by name. */
  members(roomIds: readonly number[]): Promise<Map<number, ChatMember[]>>;
  /** The user ids of a room's members. */
  memberIds(roomId: number): Promise<number[]>;
  /** Of these users, those sharing a joined group with `userId` (and `userId` itself). */
  sharingAGroup(userId: number, userIds: readonly number[]): Promise<Set<number>>;
  /** Writes a message and raises the unread count of every member but its author and those who muted the room; its number. */
  push(roomId: number, authorId: number, body: string, at: number): Promise<number>;
  message(roomId: number, number: number): Promise<ChatMessage | undefined>;
  deleteMessage(roomId: number, number: number): Promise<void>;
  /** A page of a room's messages, newest first; `newest` rows per room when `perRoom` is used. */
  messages(roomId: number, page: PageWindow): Promise<ChatMessage[]>;
  countMessages(roomId: number): Promise<number>;
  /** The latest message of each room (rooms without any are absent). */
  latest(roomIds: readonly number[]): Promise<Map<number, ChatMessage>>;
  /** Sets the user's unread count of these rooms to 0. */
  confirm(userId: number, roomIds: readonly number[]): Promise<void>;
  /** People sharing a joined group with the user (not the user), by name: who a room may hold. */
  contacts(userId: number): Promise<{ readonly id: number; readonly name: string }[]>;
  /** Messages of a room after `number`, oldest first, at most `limit`. */
  messagesAfter(roomId: number, number: number, limit: number): Promise<ChatMessage[]>;
}

function selectRooms(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom("chat_members as me")
    .innerJoin("chat_rooms as r", "r.id", "me.room_id")
    .innerJoin("users as c", "c.id", "r.creator_id")
    .select([
      "r.id as id",
      "r.type as type",
      "r.title as title",
      "r.creator_id as creatorId",
      "c.name as creatorName",
      "r.created_at as createdAt",
      "r.activity_at as activityAt",
      "r.last_number as lastNumber",
      "me.muted as muted",
      "me.unconfirmed as unconfirmed",
    ])
    .where("me.user_id", "=", userId);
}

type RoomRow = Omit<MemberRoom, "muted"> & { muted: number };
const toRoom = (row: RoomRow): MemberRoom => ({ ...row, muted: row.muted === 1 });

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
    ]);
}

/** The chat repository over a connection or transaction. */
export function chatRepo(db: Kysely<Database>): ChatRepo {
  return {
    async createRoom(draft) {
      const row = await db
        .insertInto("chat_rooms")
        .values({
          type: draft.type,
          title: draft.title,
          creator_id: draft.creatorId,
          direct_key: draft.directKey,
          created_at: draft.at,
          activity_at: draft.at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async findDirect(key) {
      const row = await db.selectFrom("chat_rooms").select("id").where("direct_key", "=", key).executeTakeFirst();
      return row?.id;
    },
    async addMembers(roomId, userIds, at) {
      if (userIds.length === 0) return;
      await db
        .insertInto("chat_members")
        .values(userIds.map((userId) => ({ room_id: roomId, user_id: userId, joined_at: at })))
        .onConflict((oc) => oc.columns(["room_id", "user_id"]).doNothing())
        .execute();
    },
    async removeMember(roomId, userId) {
      await db.deleteFrom("chat_members").where("room_id", "=", roomId).where("user_id", "=", userId).execute();
    },
    async rename(roomId, title) {
      await db.updateTable("chat_rooms").set({ title }).where("id", "=", roomId).execute();
    },
    async setMuted(roomId, userId, muted) {
      await db
        .updateTable("chat_members")
        .set({ muted: muted ? 1 : 0 })
        .where("room_id", "=", roomId)
        .where("user_id", "=", userId)
        .execute();
    },
    async room(roomId, userId) {
      const row = await selectRooms(db, userId).where("r.id", "=", roomId).executeTakeFirst();
      return row && toRoom(row);
    },
    async rooms(userId, filter, page) {
      let query = selectRooms(db, userId);
      if (filter.type !== null) query = query.where("r.type", "=", filter.type);
      if (filter.withUserId !== null) {
        const other = filter.withUserId;
        query = query.where(({ exists, selectFrom }) =>
          exists(
            selectFrom("chat_members as o")
              .select("o.room_id")
              .whereRef("o.room_id", "=", "r.id")
              .where("o.user_id", "=", other),
          ),
        );
      }
      if (filter.withMessages) query = query.where("r.last_number", ">", 0);
      if (filter.hideMuted) query = query.where("me.muted", "=", 0);
      if (filter.unconfirmedOnly) query = query.where("me.unconfirmed", ">", 0);
      const rows = await query
        .orderBy("r.activity_at", "desc")
        .orderBy("r.id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toRoom);
    },
    async roomsByIds(userId, roomIds) {
      if (roomIds.length === 0) return [];
      const rows = await selectRooms(db, userId)
        .where("r.id", "in", roomIds)
        .orderBy("r.activity_at", "desc")
        .orderBy("r.id", "desc")
        .execute();
      return rows.map(toRoom);
    },
    async members(roomIds) {
      const out = new Map<number, ChatMember[]>();
      if (roomIds.length === 0) return out;
      const rows = await db
        .selectFrom("chat_members as m")
        .innerJoin("users as u", "u.id", "m.user_id")
        .select([
          "m.room_id as roomId",
          "m.user_id as userId",
          "u.name as name",
          "m.muted as muted",
          "m.unconfirmed as unconfirmed",
        ])
        .where("m.room_id", "in", roomIds)
        .orderBy("u.name")
        .orderBy("u.id")
        .execute();
      for (const row of rows) {
        const list = out.get(row.roomId) ?? [];
        list.push({ userId: row.userId, name: row.name, muted: row.muted === 1, unconfirmed: row.unconfirmed });
        out.set(row.roomId, list);
      }
      return out;
    },
    async memberIds(roomId) {
      const rows = await db.selectFrom("chat_members").select("user_id").where("room_id", "=", roomId).execute();
      return rows.map((row) => row.user_id);
    },
    async sharingAGroup(userId, userIds) {
      const out = new Set<number>([userId]);
      const others = userIds.filter((id) => id !== userId);
      if (others.length === 0) return out;
      const rows = await db
        .selectFrom("memberships as theirs")
        .innerJoin("memberships as mine", "mine.group_id", "theirs.group_id")
        .select("theirs.user_id as userId")
        .distinct()
        .where("mine.user_id", "=", userId)
        .where("mine.status", "=", "JOIN")
        .where("theirs.status", "=", "JOIN")
        .where("theirs.user_id", "in", others)
        .execute();
      for (const row of rows) if (row.userId !== null) out.add(row.userId);
      return out;
    },
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
    async message(roomId, number) {
      return selectMessages(db).where("m.room_id", "=", roomId).where("m.number", "=", number).executeTakeFirst();
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
    async contacts(userId) {
      return db
        .selectFrom("memberships as theirs")
        .innerJoin("memberships as mine", "mine.group_id", "theirs.group_id")
        .innerJoin("users as u", "u.id", "theirs.user_id")
        .select(["u.id as id", "u.name as name"])
        .distinct()
        .where("mine.user_id", "=", userId)
        .where("mine.status", "=", "JOIN")
        .where("theirs.status", "=", "JOIN")
        .where("u.id", "!=", userId)
        .where("u.disabled_at", "is", null)
        .orderBy("u.name")
        .orderBy("u.id")
        .execute();
    },
    async messagesAfter(roomId, number, limit) {
      return selectMessages(db)
        .where("m.room_id", "=", roomId)
        .where("m.number", ">", number)
        .orderBy("m.number", "asc")
        .limit(limit)
        .execute();
    },
    async confirm(userId, roomIds) {
      if (roomIds.length === 0) return;
      await db
        .updateTable("chat_members")
        .set({ unconfirmed: 0 })
        .where("user_id", "=", userId)
        .where("room_id", "in", roomIds)
        .where("unconfirmed", ">", 0)
        .execute();
    },
  };
}
