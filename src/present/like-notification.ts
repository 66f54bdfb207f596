import { element } from "../atom/build.js";
import { formatChatMessageId, formatCommentId, formatContentId, formatPair } from "../domain/item-id.js";
import type { ChatLikeNotification, LikeNotification } from "../domain/notification.js";
import { chatRoomLinks } from "./chat.js";
import type { LikeNotificationsView } from "../services/notification/like-notification.js";
import { type Viewer, authorElement, feedDocument, newestOf, EMPTY_AUTHOR, itemEntry } from "./feed.js";
import { commentLinks, contentLinks } from "../domain/item-links.js";

/**
 * A like notification entry (docs/api.md "Like notifications"): title, links, the item's kinds plus GOOD, one
 * `author` per liker (first liker first), id, updated, summary, `cbl:confirmed`, `cbl:group`.
 */
export function likeNotificationEntry(baseUrl: string, notification: LikeNotification): string {
  if (notification.kind === "chat") return chatLikeNotificationEntry(baseUrl, notification);
  const { parent, commentNumber } = notification.item;
  const id = commentNumber === 0 ? formatContentId(parent) : formatCommentId(parent, commentNumber);
  const links = commentNumber === 0 ? contentLinks(baseUrl, parent) : commentLinks(baseUrl, parent, commentNumber);
  const author = likersElements(notification);
  return itemEntry(
    {
      id,
      title: notification.title,
      links,
      terms: ["GOOD"],
      author,
      updated: notification.updatedAt,
      summary: notification.body,
    },
    element("cbl:confirmed", {}, String(notification.confirmed)) +
      element("cbl:group", { valueString: notification.groupName, id: formatPair(parent.groupId) }),
  );
}

/** One `author` per liker, first liker first (an empty one when none is left). */
function likersElements(notification: LikeNotification): string {
  return notification.likers.length === 0
    ? EMPTY_AUTHOR
    : notification.likers.map((liker) => authorElement(liker.name, liker.id)).join("");
}

/**
 * A chat message's like notification: as an item's, its id and links those of the message from
 * the owner's side, the room's title, and no `cbl:group` (a room is in no group).
 */
function chatLikeNotificationEntry(baseUrl: string, notification: ChatLikeNotification): string {
  const { roomId, messageNumber } = notification.message;
  const room = chatRoomLinks(baseUrl, roomId);
  const anchor = `#comment-${messageNumber}`;
  return itemEntry(
    {
      id: formatChatMessageId(notification.ownerId, roomId, messageNumber),
      title: notification.title,
      links: { alternate: room.alternate + anchor, mobile: room.mobile + anchor },
      terms: ["GOOD"],
      author: likersElements(notification),
      updated: notification.updatedAt,
      summary: notification.body,
    },
    element("cbl:confirmed", {}, String(notification.confirmed)),
  );
}

/** `GET|POST /api/goodNotification/V2`: `cbl:totalCount` after `updated`, then the entries newest first. */
export function likeNotificationsFeed(
  baseUrl: string,
  viewer: Viewer,
  view: LikeNotificationsView,
  now: number,
): string {
  const updated = newestOf(view.notifications, now);
  return feedDocument(
    {
      title: "Like notifications",
      id: `${baseUrl}/api/goodNotification/V2`,
      alternate: `${baseUrl}/notifications/likes`,
      viewer,
      updated,
      extra:
        element("cbl:totalCount", {}, String(view.totalCount)) +
        element("subtitle", { type: "text" }, `Likes of ${viewer.name}'s items`),
    },
    view.notifications.map((notification) => likeNotificationEntry(baseUrl, notification)),
  );
}
