import { element } from "../atom/build.js";
import { formatCommentId, formatContentId, formatPair } from "../domain/item-id.js";
import type { LikeNotification } from "../domain/notification.js";
import type { LikeNotificationsView } from "../services/like-notification.js";
import { type Viewer, authorElement, feedDocument, newestOf, EMPTY_AUTHOR, itemEntry } from "./feed.js";
import { commentLinks, contentLinks } from "./links.js";

/**
 * A like notification entry (docs/api.md "Like notifications"): title, links, the item's kinds plus GOOD, one
 * `author` per liker (first liker first), id, updated, summary, `cbl:confirmed`, `cbl:group`.
 */
export function likeNotificationEntry(baseUrl: string, notification: LikeNotification): string {
  const { parent, commentNumber } = notification.item;
  const id = commentNumber === 0 ? formatContentId(parent) : formatCommentId(parent, commentNumber);
  const links = commentNumber === 0 ? contentLinks(baseUrl, parent) : commentLinks(baseUrl, parent, commentNumber);
  const author =
    notification.likers.length === 0
      ? EMPTY_AUTHOR
      : notification.likers.map((liker) => authorElement(liker.name, liker.id)).join("");
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
