import type { Kysely } from "kysely";
import type { ChatRoom, ChatRoomType } from "../../domain/chat.js";
import type { PageWindow } from "../page-window.js";
import type { Database } from "../schema.js";
import { mayUseRoom } from "./chat-sharing.js";

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

/** Chat rooms as their members see them (migration 0017). */
export interface ChatRoomRepo {
  /** Inserts a room; its id. */
  createRoom(draft: RoomDraft): Promise<number>;
  /** The DIRECT room of a pair, by its key. */
  findDirect(key: string): Promise<number | undefined>;
  rename(roomId: number, title: string): Promise<void>;
  /** Whether the room is there at all (an import's room deleted since). */
  exists(roomId: number): Promise<boolean>;
  /**
   * The room as this user sees it; undefined when it does not exist, the user is not in it or no
   * longer shares a group as the rule of rooms asks (this and the lists below check it alike).
   */
  room(roomId: number, userId: number): Promise<MemberRoom | undefined>;
  /** A page of the user's rooms, latest activity first. */
  rooms(userId: number, filter: RoomFilter, page: PageWindow): Promise<MemberRoom[]>;
  /** These rooms of the user (those the user is in), latest activity first. */
  roomsByIds(userId: number, roomIds: readonly number[]): Promise<MemberRoom[]>;
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
    .where("me.user_id", "=", userId)
    .where(mayUseRoom(userId));
}

type RoomRow = Omit<MemberRoom, "muted"> & { muted: number };
const toRoom = (row: RoomRow): MemberRoom => ({ ...row, muted: row.muted === 1 });

/** The room queries over a connection or transaction. */
export function chatRoomRepo(db: Kysely<Database>): ChatRoomRepo {
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
    async exists(roomId) {
      return (await db.selectFrom("chat_rooms").select("id").where("id", "=", roomId).executeTakeFirst()) !== undefined;
    },
    async rename(roomId, title) {
      await db.updateTable("chat_rooms").set({ title }).where("id", "=", roomId).execute();
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
  };
}
