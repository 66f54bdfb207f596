import type { Actor } from "../../domain/access.js";
import { requireConfirmableCount } from "../../domain/notification.js";
import type { PageWindow } from "../../store/page-window.js";
import { type RoomView, viewsOf } from "./chat.js";
import type { ServiceContext } from "../context.js";
import { logRead } from "../unread/unread.js";

/** What `GET /api/notification/V2?category=M_CHAT` asks for. */
export interface ChatNotificationQuery {
  readonly unconfirmedOnly: boolean;
  /** Include rooms the caller muted (`include-rule-out=true`). */
  readonly includeRuledOut: boolean;
  readonly page: PageWindow;
}

/**
 * The caller's M_CHAT notifications: one per room holding a message, latest first, each with the
 * room's latest message and the caller's unconfirmed count. Muted rooms are left out unless asked for.
 */
export async function listChatNotifications(
  ctx: ServiceContext,
  actor: Actor,
  input: ChatNotificationQuery,
): Promise<RoomView[]> {
  return ctx.store.read(async (tx) => {
    const filter = {
      type: null,
      withUserId: null,
      withMessages: true,
      hideMuted: !input.includeRuledOut,
      unconfirmedOnly: input.unconfirmedOnly,
    };
    return viewsOf(tx, await tx.chat.rooms(actor.user.id, filter, input.page), 1);
  });
}

/**
 * Confirms the caller's M_CHAT notifications of these rooms and answers one entry per requested
 * room the caller is in, confirmed before or not, always with its latest message (a bot posts the
 * same room every ten seconds and reads the one entry); rooms the caller is not in are left out.
 * @throws ValidationError TOO_MANY_ENTRIES (more than 100 ids: nothing is confirmed)
 */
export async function confirmChatNotifications(
  ctx: ServiceContext,
  actor: Actor,
  ids: readonly (number | undefined)[],
): Promise<RoomView[]> {
  requireConfirmableCount(ids.length);
  const roomIds = [...new Set(ids.filter((id): id is number => id !== undefined))];
  return ctx.store.transaction(async (tx) => {
    // Only the rooms the caller may still use are confirmed (a former member's rooms are not theirs).
    const rooms = await tx.chat.roomsByIds(actor.user.id, roomIds);
    const changed = await tx.chat.confirm(
      actor.user.id,
      rooms.map((room) => room.id),
    );
    if (changed > 0) await logRead(tx, actor.user.id, "chat", ctx.clock.now());
    return viewsOf(
      tx,
      rooms.map((room) => ({ ...room, unconfirmed: 0 })),
      1,
    );
  });
}
