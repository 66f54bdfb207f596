// What the browser's chat pages read: the room list with unread counts, and a conversation.
import type { Actor } from "../../domain/access.js";
import type { ChatMessage } from "../../domain/chat.js";
import { CHAT_LIMITS } from "../../domain/limits.js";
import type { PageWindow } from "../../store/page-window.js";
import { type RoomView, requireRoom, viewsOf } from "./chat.js";
import { decorateMessages } from "./chat-files.js";
import type { ServiceContext } from "../context.js";
import { logRead } from "../unread/unread.js";

/** The room list page: the caller's rooms and the people a new room may hold. */
export interface ChatHome {
  readonly rooms: readonly RoomView[];
  readonly contacts: readonly { readonly id: number; readonly name: string }[];
}

/** The caller's rooms, latest first, and the people who share a group with them. */
export async function readChatHome(ctx: ServiceContext, actor: Actor, page: PageWindow): Promise<ChatHome> {
  return ctx.store.read(async (tx) => {
    const rooms = await tx.chat.rooms(actor.user.id, { type: null, withUserId: null }, page);
    return { rooms: await viewsOf(tx, rooms, 1), contacts: await tx.chat.contacts(actor.user.id) };
  });
}

/** A conversation as its page shows it: the room, the newest messages (oldest first), the people who may be added. */
export interface Conversation {
  readonly view: RoomView;
  readonly messages: readonly ChatMessage[];
  readonly contacts: readonly { readonly id: number; readonly name: string }[];
}

/**
 * Opens a room for its page: the newest messages, and the room counts as read (as a confirmation
 * of its M_CHAT notification does). @throws NotFoundError NOT_FOUND
 */
export async function openConversation(ctx: ServiceContext, actor: Actor, roomId: number): Promise<Conversation> {
  return ctx.store.transaction(async (tx) => {
    const userId = actor.user.id;
    if ((await tx.chat.confirm(userId, [roomId])) > 0) await logRead(tx, userId, "chat", ctx.clock.now());
    const [view] = await viewsOf(tx, [await requireRoom(tx, userId, roomId)], 1);
    const page = await tx.chat.messages(roomId, { offset: 0, limit: CHAT_LIMITS.pageMessages });
    const newest = await decorateMessages(tx, roomId, page, userId);
    return { view: view!, messages: [...newest].reverse(), contacts: await tx.chat.contacts(userId) };
  });
}

/** Messages after `number`, oldest first (the page's live updates and polling). @throws NotFoundError NOT_FOUND */
export async function messagesSince(
  ctx: ServiceContext,
  actor: Actor,
  roomId: number,
  number: number,
): Promise<ChatMessage[]> {
  return ctx.store.transaction(async (tx) => {
    await requireRoom(tx, actor.user.id, roomId);
    const after = await tx.chat.messagesAfter(roomId, number, CHAT_LIMITS.pageMessages);
    const messages = await decorateMessages(tx, roomId, after, actor.user.id);
    // Seen on the open page: the room stays read.
    if (messages.length > 0 && (await tx.chat.confirm(actor.user.id, [roomId])) > 0)
      await logRead(tx, actor.user.id, "chat", ctx.clock.now());
    return messages;
  });
}
