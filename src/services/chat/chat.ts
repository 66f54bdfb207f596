import type { Actor } from "../../domain/access.js";
import {
  type ChatMember,
  type ChatMessage,
  type ChatRoomType,
  checkMemberCount,
  checkRoomTitle,
  directKey,
  roomNotFound,
} from "../../domain/chat.js";
import { ForbiddenError, ValidationError } from "../../domain/errors.js";
import type { PageWindow } from "../../store/page-window.js";
import type { MemberRoom } from "../../store/queries/chat.js";
import type { Tx } from "../../store/store.js";
import { decorateMessages } from "./chat-files.js";
import { leaveRoom } from "./chat-membership.js";
import type { ServiceContext } from "../context.js";

/** A room as its member sees it: the room, its members and its latest messages (newest first). */
export interface RoomView {
  readonly room: MemberRoom;
  readonly members: readonly ChatMember[];
  /** The newest messages: one (the latest) unless more were asked for. */
  readonly messages: readonly ChatMessage[];
}

/** What `GET /api/mpChat/V2` asks for. */
export interface RoomQuery {
  readonly roomId: number | null;
  readonly type: ChatRoomType | null;
  readonly withUserId: number | null;
  readonly page: PageWindow;
  /** How many newest messages each room carries (1: the latest, for `summary`). */
  readonly messages: number;
}

/** A room write (`POST /api/mpChat/V2`). */
export type RoomWrite =
  | { readonly op: "mute"; readonly roomId: number; readonly muted: boolean }
  | {
      readonly op: "create";
      readonly type: ChatRoomType;
      readonly title: string | undefined;
      readonly memberIds: readonly number[];
    }
  | {
      readonly op: "update";
      readonly roomId: number;
      readonly title: string | undefined;
      readonly memberIds: readonly number[] | undefined;
    }
  | { readonly op: "leave"; readonly roomId: number };

/** The room if the user is in it. @throws NotFoundError NOT_FOUND */
export async function requireRoom(tx: Tx, userId: number, roomId: number): Promise<MemberRoom> {
  const room = await tx.chat.room(roomId, userId);
  if (room === undefined) throw roomNotFound();
  return room;
}

/** Members and newest messages of each room, in the rooms' order. */
export async function viewsOf(
  tx: Tx,
  rooms: readonly MemberRoom[],
  messages: number,
  viewerId?: number,
): Promise<RoomView[]> {
  const ids = rooms.map((room) => room.id);
  const members = await tx.chat.members(ids);
  const latest = messages <= 1 ? await tx.chat.latest(ids) : undefined;
  const out: RoomView[] = [];
  for (const room of rooms) {
    const newest = latest
      ? [latest.get(room.id)].filter((m): m is ChatMessage => m !== undefined)
      : await tx.chat.messages(room.id, { offset: 0, limit: messages });
    // Embedded messages carry their files and likes, as the message feed's do.
    const shown = viewerId === undefined ? newest : await decorateMessages(tx, room.id, newest, viewerId);
    out.push({ room, members: members.get(room.id) ?? [], messages: shown });
  }
  return out;
}

/**
 * The caller's rooms (or one of them), latest message first.
 * @throws NotFoundError NOT_FOUND for an `id` the caller is not in
 */
export async function listRooms(ctx: ServiceContext, actor: Actor, input: RoomQuery): Promise<RoomView[]> {
  return ctx.store.read(async (tx) => {
    const userId = actor.user.id;
    const rooms =
      input.roomId !== null
        ? [await requireRoom(tx, userId, input.roomId)]
        : await tx.chat.rooms(userId, { type: input.type, withUserId: input.withUserId }, input.page);
    return viewsOf(tx, rooms, input.messages, input.messages > 1 ? userId : undefined);
  });
}

/**
 * Creates, renames, changes the members of, mutes or leaves a room; the room as the caller sees
 * it afterwards (a room just left: as it was).
 * @throws ValidationError CHAT_ROOM_TITLE_TOO_LONG, CHAT_ROOM_TITLE_REQUIRED, CHAT_TOO_MANY_MEMBERS, CHAT_MEMBER_INVALID, CHAT_DIRECT_FIXED
 * @throws NotFoundError NOT_FOUND; ForbiddenError CHAT_NOT_CREATOR
 */
export async function writeRoom(ctx: ServiceContext, actor: Actor, input: RoomWrite): Promise<RoomView> {
  return ctx.store.transaction(async (tx) => {
    const userId = actor.user.id;
    const at = ctx.clock.now();
    const roomId = input.op === "create" ? await createRoom(tx, userId, input, at) : input.roomId;
    const room = await requireRoom(tx, userId, roomId);
    if (input.op === "mute") await tx.chat.setMuted(roomId, userId, input.muted);
    if (input.op === "update") await updateRoom(tx, userId, room, input, at);
    if (input.op === "leave") {
      if (room.type === "DIRECT")
        throw new ValidationError("CHAT_DIRECT_FIXED", "A DIRECT conversation cannot be left.");
      const [view] = await viewsOf(tx, [room], 1);
      await leaveRoom(tx, roomId, userId);
      return view!;
    }
    const [view] = await viewsOf(tx, [await requireRoom(tx, userId, roomId)], 1);
    return view!;
  });
}

/** Opens (or creates) the caller's DIRECT room with another user; its id. @throws ValidationError CHAT_MEMBER_INVALID */
export async function openDirectRoom(ctx: ServiceContext, actor: Actor, otherId: number): Promise<number> {
  return ctx.store.transaction((tx) =>
    createRoom(tx, actor.user.id, { type: "DIRECT", title: undefined, memberIds: [otherId] }, ctx.clock.now()),
  );
}

async function requireShared(tx: Tx, userId: number, memberIds: readonly number[]): Promise<void> {
  const shared = await tx.chat.sharingAGroup(userId, memberIds);
  const stranger = memberIds.find((id) => !shared.has(id));
  if (stranger !== undefined)
    throw new ValidationError(
      "CHAT_MEMBER_INVALID",
      `User 1:${stranger} shares no group with you and cannot be a member of your room.`,
    );
}

/**
 * Creates a room with its members, or opens the pair's DIRECT room again: the one insert of rooms
 * and, with {@link addRoomMembers}, of their members.
 */
async function createRoom(
  tx: Tx,
  userId: number,
  input: { type: ChatRoomType; title: string | undefined; memberIds: readonly number[] },
  at: number,
): Promise<number> {
  const others = [...new Set(input.memberIds)].filter((id) => id !== userId);
  await requireShared(tx, userId, others);
  const draft = roomDraftOf(userId, input, others);
  const id =
    (draft.directKey === null ? undefined : await tx.chat.findDirect(draft.directKey)) ??
    (await tx.chat.createRoom({ ...draft, creatorId: userId, at }));
  // Its two people leave a DIRECT room while they share no group (chat-membership.ts): opening it brings both back.
  await addRoomMembers(tx, id, [userId, ...others], at);
  return id;
}

/** A new room's type, title and pair key. @throws ValidationError CHAT_MEMBER_INVALID, CHAT_ROOM_TITLE_*, CHAT_TOO_MANY_MEMBERS */
function roomDraftOf(
  userId: number,
  input: { type: ChatRoomType; title: string | undefined },
  others: readonly number[],
): { type: ChatRoomType; title: string; directKey: string | null } {
  if (input.type === "DIRECT") {
    if (others.length !== 1)
      throw new ValidationError("CHAT_MEMBER_INVALID", "A DIRECT conversation has exactly one other person.");
    return { type: "DIRECT", title: "", directKey: directKey(userId, others[0]!) };
  }
  const title = checkRoomTitle(input.title);
  checkMemberCount(others.length + 1);
  return { type: "THEME", title, directKey: null };
}

/**
 * Makes a THEME room with its members as an import does (beside {@link createRoom}, the one other
 * insert of rooms): its creator and time are given, and no one is asked whether they share a group
 * (the import has just made every one of them a member of its group). Its id.
 * @throws ValidationError CHAT_ROOM_TITLE_*, CHAT_TOO_MANY_MEMBERS
 */
export async function insertRoom(
  tx: Tx,
  input: { title: string; creatorId: number; memberIds: readonly number[]; at: number },
): Promise<number> {
  const title = checkRoomTitle(input.title);
  const members = [...new Set([input.creatorId, ...input.memberIds])];
  checkMemberCount(members.length);
  const id = await tx.chat.createRoom({
    type: "THEME",
    title,
    creatorId: input.creatorId,
    directKey: null,
    at: input.at,
  });
  await addRoomMembers(tx, id, members, input.at);
  return id;
}

/** Adds members to a room (those already in stay as they are): the one insert of room members. */
export async function addRoomMembers(tx: Tx, roomId: number, userIds: readonly number[], at: number): Promise<void> {
  await tx.chat.addMembers(roomId, userIds, at);
}

async function updateRoom(
  tx: Tx,
  userId: number,
  room: MemberRoom,
  input: { title: string | undefined; memberIds: readonly number[] | undefined },
  at: number,
): Promise<void> {
  if (room.type === "DIRECT")
    throw new ValidationError("CHAT_DIRECT_FIXED", "A DIRECT conversation has no title and its members are fixed.");
  if (input.title !== undefined) {
    await tx.chat.rename(room.id, checkRoomTitle(input.title));
    // Like notifications show the room's title: their owners' cached feeds must not keep the old one.
    await tx.chatLikeNotifications.refreshRoom(room.id);
  }
  if (input.memberIds === undefined) return;
  const wanted = new Set(input.memberIds);
  wanted.add(userId);
  const current = await tx.chat.memberIds(room.id);
  const added = [...wanted].filter((id) => !current.includes(id));
  const removed = current.filter((id) => !wanted.has(id));
  if (removed.length > 0 && room.creatorId !== userId)
    throw new ForbiddenError("CHAT_NOT_CREATOR", "Only the room's creator removes members.");
  await requireShared(tx, room.creatorId, added);
  checkMemberCount(wanted.size);
  await addRoomMembers(tx, room.id, added, at);
  for (const id of removed) await leaveRoom(tx, room.id, id);
}
