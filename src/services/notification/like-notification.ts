import { type Actor, levelAllows } from "../../domain/access.js";
import {
  type LikedChatMessage,
  type LikedItem,
  type LikeNotification,
  type LikeTarget,
  likedItemOf,
  requireConfirmableCount,
  withoutCommentText,
} from "../../domain/notification.js";
import type { PageWindow } from "../../store/page-window.js";
import type { Tx } from "../../store/store.js";
import type { ItemView } from "../item/item.js";
import type { ServiceContext } from "../context.js";

/** A page of like notifications and how many the filter keeps in all (`cbl:totalCount`). */
export interface LikeNotificationsView {
  readonly notifications: readonly LikeNotification[];
  readonly totalCount: number;
}

/** A page of the caller's like notifications, newest first. */
export async function listLikeNotifications(
  ctx: ServiceContext,
  actor: Actor,
  input: { unconfirmedOnly: boolean; page: PageWindow },
): Promise<LikeNotificationsView> {
  return ctx.store.read(async (tx) => {
    const filter = { unconfirmedOnly: input.unconfirmedOnly };
    return asSeenBy(actor, {
      notifications: await tx.likeNotifications.list(actor.user.id, filter, input.page),
      totalCount: await tx.likeNotifications.count(actor.user.id, filter),
    });
  });
}

/** The view with comment and chat texts left out for an application below the `comments` level. */
function asSeenBy(actor: Actor, view: LikeNotificationsView): LikeNotificationsView {
  if (levelAllows(actor.app.accessLevel, "comments")) return view;
  return { ...view, notifications: view.notifications.map(withoutCommentText) };
}

/**
 * Confirms the caller's like notifications of these ids; the answer holds every one the caller has
 * of them, already confirmed or not. Unknown ids are left out.
 * @throws ValidationError TOO_MANY_ENTRIES (more than 100 ids: nothing is confirmed)
 */
export async function confirmLikeNotifications(
  ctx: ServiceContext,
  actor: Actor,
  input: { ids: readonly (LikeTarget | undefined)[] },
): Promise<LikeNotificationsView> {
  requireConfirmableCount(input.ids.length);
  const items = new Map<string, LikedItem>();
  const messages = new Map<string, LikedChatMessage>();
  for (const target of input.ids) {
    if (target?.kind === "chat")
      messages.set(`${target.message.roomId}:${target.message.messageNumber}`, target.message);
    const item = target?.kind === "item" ? likedItemOf(target.ref) : undefined;
    if (item) items.set(`${item.parent.kind}:${item.parent.groupId}:${item.parent.id}:${item.commentNumber}`, item);
  }
  return ctx.store.transaction(async (tx) => {
    const at = ctx.clock.now();
    const confirmed = await tx.likeNotifications.confirm(actor.user.id, [...items.values()], at);
    const chats = await tx.chatLikeNotifications.confirm(actor.user.id, [...messages.values()], at);
    const notifications = [...confirmed, ...chats].sort((a, b) => b.updatedAt - a.updatedAt);
    return asSeenBy(actor, { notifications, totalCount: notifications.length });
  });
}

/**
 * Tells the item's author of a like (`on`) or takes an unlike back: a new like brings the author's
 * like notification to the top unconfirmed; when the last liker is gone, so is the notification.
 * Nothing for likes of one's own items, or for authors who have left the group.
 */
export async function recordLikeChange(tx: Tx, actor: Actor, item: ItemView, on: boolean, at: number): Promise<void> {
  const ownerId = item.authorId;
  if (ownerId === actor.user.id) return;
  const liked: LikedItem =
    item.ref.kind === "COMMENT"
      ? { parent: item.ref.parent, commentNumber: item.ref.number }
      : { parent: item.ref, commentNumber: 0 };
  if (on) {
    if (await tx.memberships.findJoined(item.group.id, ownerId)) {
      await tx.likeNotifications.touch(ownerId, liked, item.key.kind === "COMMENT" ? item.key.id : null, at);
    }
    return;
  }
  const likers = await tx.likes.likers(item.key);
  if (!likers.some((liker) => liker.userId !== ownerId)) await tx.likeNotifications.remove(ownerId, liked);
}
