// What a logged live event means to each reader: the audience is resolved when the event is read,
// with one query for every stream a process holds, so that writing it stays one row whatever the
// group's size.
import type { ChatMessage } from "../../domain/chat.js";
import type { LikeNotification, Notification } from "../../domain/notification.js";
import type { LoggedLiveEvent, ReadWhat } from "../../store/queries/live-events.js";
import type { Tx } from "../../store/store.js";
import { chatMessageAudience, chatMessageFor } from "../chat/chat-live.js";
import type { ServiceContext } from "../context.js";

/** One event for one stream: the id is the log's, the stream's `id:` line. */
export type LiveDelivery =
  | { readonly id: number; readonly kind: "notification"; readonly notification: Notification }
  | { readonly id: number; readonly kind: "likeNotification"; readonly notification: LikeNotification }
  | { readonly id: number; readonly kind: "chat"; readonly viewerId: number; readonly message: ChatMessage }
  | { readonly id: number; readonly kind: "read"; readonly what: ReadWhat };

/** A delivery and the user it is for. */
export interface Addressed {
  readonly userId: number;
  readonly delivery: LiveDelivery;
}

/** Events a stream may have missed are kept this long (docs/api.md "Live updates"). */
export const LIVE_RESUME_WINDOW_MS = 60 * 60 * 1000;

/**
 * The deliveries of one logged event to those of `userIds` who are its audience: members with the
 * item's notification unconfirmed (and the group not muted), the liked item's owner, a chat room's
 * members. Nobody else: a non-member's stream never hears of another group's or room's event.
 */
export async function resolveLiveEvent(
  tx: Tx,
  event: LoggedLiveEvent,
  userIds: readonly number[],
): Promise<Addressed[]> {
  const { id } = event;
  switch (event.kind) {
    case "notification": {
      const found = await tx.notifications.unconfirmedFor(event.item, userIds);
      return found.map(({ userId, notification }) => ({ userId, delivery: { id, kind: event.kind, notification } }));
    }
    case "likeNotification": {
      if (!userIds.includes(event.ownerId)) return [];
      const notification = await tx.likeNotifications.unconfirmedOf(event.ownerId, event.item);
      return notification ? [{ userId: event.ownerId, delivery: { id, kind: event.kind, notification } }] : [];
    }
    case "chatLikeNotification": {
      if (!userIds.includes(event.ownerId)) return [];
      const notification = await tx.chatLikeNotifications.unconfirmedOf(event.ownerId, event.message);
      const kind = "likeNotification";
      return notification ? [{ userId: event.ownerId, delivery: { id, kind, notification } }] : [];
    }
    case "read":
      return userIds.includes(event.userId)
        ? [{ userId: event.userId, delivery: { id, kind: "read", what: event.what } }]
        : [];
    case "chat": {
      const wanted = new Set(userIds);
      const out: Addressed[] = [];
      for (const userId of await chatMessageAudience(tx, event.roomId)) {
        if (!wanted.has(userId)) continue;
        const message = await chatMessageFor(tx, userId, event.roomId, event.messageNumber);
        if (message !== undefined) out.push({ userId, delivery: { id, kind: "chat", viewerId: userId, message } });
      }
      return out;
    }
  }
}

/** Log rows read per query while replaying. */
const REPLAY_PAGE = 500;

/**
 * Hands `deliver` the deliveries to `userId` of the logged events in (`after`, `upTo`], oldest first,
 * none older than the resume window: what a stream resumed with Last-Event-ID missed.
 */
export async function replayLiveEvents(
  ctx: ServiceContext,
  userId: number,
  range: { readonly after: number; readonly upTo: number },
  deliver: (delivery: LiveDelivery) => void,
): Promise<void> {
  let from = range.after;
  while (from < range.upTo) {
    const since = ctx.clock.now() - LIVE_RESUME_WINDOW_MS;
    const page = await ctx.store.read((tx) => tx.liveEvents.after(from, since, REPLAY_PAGE));
    const events = page.filter((event) => event.id <= range.upTo);
    for (const event of events) {
      const addressed = await ctx.store.read((tx) => resolveLiveEvent(tx, event, [userId]));
      for (const { delivery } of addressed) deliver(delivery);
    }
    if (events.length < REPLAY_PAGE) return;
    from = events[events.length - 1]?.id ?? range.upTo;
  }
}
