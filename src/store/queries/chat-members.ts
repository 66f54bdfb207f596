import { type Kysely, sql } from "kysely";
import type { ChatMember } from "../../domain/chat.js";
import type { Database } from "../schema.js";
import { sharesAGroup } from "./chat-sharing.js";

/** A member of a room. */
export interface RoomMember {
  readonly roomId: number;
  readonly userId: number;
}

/** Who is in a room, with each member's own setting (migration 0017). */
export interface ChatMemberRepo {
  /** Adds members (those already in stay as they are). */
  addMembers(roomId: number, userIds: readonly number[], at: number): Promise<void>;
  removeMember(roomId: number, userId: number): Promise<void>;
  /**
   * Holds the room's row until the transaction ends (PostgreSQL; SQLite writes one at a time): a
   * departure takes it before the member's row, as a push does before the members' unread counts.
   */
  lockRoom(roomId: number): Promise<void>;
  setMuted(roomId: number, userId: number, muted: boolean): Promise<void>;
  /** Members of each room, by name. */
  members(roomIds: readonly number[]): Promise<Map<number, ChatMember[]>>;
  /** The user ids of a room's members. */
  memberIds(roomId: number): Promise<number[]>;
  /** Of these users, those sharing a joined group with `userId` (and `userId` itself). */
  sharingAGroup(userId: number, userIds: readonly number[]): Promise<Set<number>>;
  /**
   * Once `userId` has left a group, who breaks the sharing rule (docs/api.md "Chat"): `userId` in
   * THEME rooms whose creator they share no group with now; the members of THEME rooms `userId`
   * created who share none with them; both people of `userId`'s DIRECT rooms that share none.
   */
  strandedMembers(userId: number): Promise<RoomMember[]>;
  /** Sets the user's unread count of these rooms to 0; returns how many rooms had any. */
  confirm(userId: number, roomIds: readonly number[]): Promise<number>;
  /** People sharing a joined group with the user (not the user), by name: who a room may hold. */
  contacts(userId: number): Promise<{ readonly id: number; readonly name: string }[]>;
}

/** The member queries over a connection or transaction. */
export function chatMemberRepo(db: Kysely<Database>): ChatMemberRepo {
  return {
    async addMembers(roomId, userIds, at) {
      if (userIds.length === 0) return;
      await db
        .insertInto("chat_members")
        .values(userIds.map((userId) => ({ room_id: roomId, user_id: userId, joined_at: at })))
        .onConflict((oc) => oc.columns(["room_id", "user_id"]).doNothing())
        .execute();
    },
    async lockRoom(roomId) {
      await db
        .updateTable("chat_rooms")
        .set({ last_number: sql`last_number` })
        .where("id", "=", roomId)
        .execute();
    },
    async removeMember(roomId, userId) {
      await db.deleteFrom("chat_members").where("room_id", "=", roomId).where("user_id", "=", userId).execute();
    },
    async setMuted(roomId, userId, muted) {
      await db
        .updateTable("chat_members")
        .set({ muted: muted ? 1 : 0 })
        .where("room_id", "=", roomId)
        .where("user_id", "=", userId)
        .execute();
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
    async strandedMembers(userId) {
      const creator = sql.ref<number>("r.creator_id");
      const member = sql.ref<number>("m.user_id");
      const rooms = db
        .selectFrom("chat_members as m")
        .innerJoin("chat_rooms as r", "r.id", "m.room_id")
        .select(["m.room_id as roomId", "m.user_id as userId"]);
      const inOthers = await rooms
        .where("m.user_id", "=", userId)
        .where("r.type", "=", "THEME")
        .where("r.creator_id", "<>", userId)
        .where(sql<boolean>`not ${sharesAGroup(userId, creator)}`)
        .execute();
      // No index leads from a creator to their rooms: this runs once per membership that ends.
      const inOwn = await rooms
        .where("r.creator_id", "=", userId)
        .where("r.type", "=", "THEME")
        .where("m.user_id", "<>", userId)
        .where(sql<boolean>`not ${sharesAGroup(userId, member)}`)
        .execute();
      const direct = await rooms
        .innerJoin("chat_members as me", (join) => join.onRef("me.room_id", "=", "r.id").on("me.user_id", "=", userId))
        .where("r.type", "=", "DIRECT")
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("chat_members as o")
                .select("o.room_id")
                .whereRef("o.room_id", "=", "r.id")
                .where("o.user_id", "<>", userId)
                .where(sharesAGroup(userId, sql.ref<number>("o.user_id"))),
            ),
          ),
        )
        .execute();
      return [...inOthers, ...inOwn, ...direct];
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
    async confirm(userId, roomIds) {
      if (roomIds.length === 0) return 0;
      const result = await db
        .updateTable("chat_members")
        .set({ unconfirmed: 0 })
        .where("user_id", "=", userId)
        .where("room_id", "in", roomIds)
        .where("unconfirmed", ">", 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
