import type { Actor } from "../../domain/access.js";
import type { ChatMember, ChatMessage } from "../../domain/chat.js";
import { NotFoundError } from "../../domain/errors.js";
import type { LikedChatMessage } from "../../domain/notification.js";
import type { Liker } from "../../domain/reaction.js";
import type { MemberRoom } from "../../store/queries/chat.js";
import type { Tx } from "../../store/store.js";
import { requireRoom } from "./chat.js";
import type { ServiceContext } from "../context.js";

/** A liked (or unliked) chat message with its room as the caller sees it and everyone who likes it. */
export interface ChatLikersView {
  readonly room: MemberRoom;
  readonly members: readonly ChatMember[];
  readonly message: ChatMessage;
  readonly likers: readonly Liker[];
  /** The caller is among them. */
  readonly mine: boolean;
}

async function requireMessage(tx: Tx, actor: Actor, target: LikedChatMessage) {
  const room = await requireRoom(tx, actor.user.id, target.roomId);
  const message = await tx.chat.message(target.roomId, target.messageNumber);
  if (message === undefined) throw new NotFoundError("COMMENT_NOT_FOUND", "The message does not exist.");
  return { room, message, members: (await tx.chat.members([room.id])).get(room.id) ?? [] };
}

async function likersView(tx: Tx, actor: Actor, target: LikedChatMessage): Promise<ChatLikersView> {
  const found = await requireMessage(tx, actor, target);
  const likers = await tx.chatLikes.likers(target.roomId, target.messageNumber);
  return { ...found, likers, mine: likers.some((liker) => liker.userId === actor.user.id) };
}

/**
 * Likes (`on`) or unlikes a message of a room the caller is in; repeating either changes nothing.
 * The message's author hears of a new like through their like notifications (while in the room);
 * when the last liker is gone, so is the notification.
 * @throws NotFoundError NOT_FOUND (not the caller's room), COMMENT_NOT_FOUND
 */
export async function setChatLike(
  ctx: ServiceContext,
  actor: Actor,
  input: { message: LikedChatMessage; on: boolean },
): Promise<ChatLikersView> {
  return ctx.store.transaction(async (tx) => {
    const { message: target, on } = input;
    const { message } = await requireMessage(tx, actor, target);
    const at = ctx.clock.now();
    const changed = on
      ? await tx.chatLikes.add(target.roomId, target.messageNumber, actor.user.id, at)
      : await tx.chatLikes.remove(target.roomId, target.messageNumber, actor.user.id);
    const ownerId = message.authorId;
    if (changed && ownerId !== actor.user.id) {
      if (on) {
        if (await tx.chat.room(target.roomId, ownerId)) await tx.chatLikeNotifications.touch(ownerId, target, at);
      } else {
        const likers = await tx.chatLikes.likers(target.roomId, target.messageNumber);
        if (likers.some((liker) => liker.userId !== ownerId)) await tx.chatLikeNotifications.refresh(ownerId, target);
        else await tx.chatLikeNotifications.remove(ownerId, target);
      }
    }
    return likersView(tx, actor, target);
  });
}

/** Who likes a message of a room the caller is in. @throws NotFoundError NOT_FOUND, COMMENT_NOT_FOUND */
export async function listChatLikers(
  ctx: ServiceContext,
  actor: Actor,
  input: { message: LikedChatMessage },
): Promise<ChatLikersView> {
  return ctx.store.read((tx) => likersView(tx, actor, input.message));
}
