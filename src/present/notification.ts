import { element, utcTimestamp } from "../atom/build.js";
import { formatCommentId, formatContentId, formatGroupId, formatPair } from "../domain/item-id.js";
import {
  type Notification,
  type NotificationItem,
  categoryOfItemKind,
  memberEventText,
} from "../domain/notification.js";
import type { Locale } from "../domain/task.js";
import type { NotificationAttachment, NotificationsView } from "../services/notification/notification.js";
import { type Viewer, authorElement, feedDocument, newestOf, type EntryHead, EMPTY_AUTHOR, itemEntry } from "./feed.js";
import { attachmentElement } from "./comment.js";
import { type ItemLinks, commentLinks, contentLinks, groupLinks } from "../domain/item-links.js";

/** The wire id of a notification's item (`GROUP,1:n` for a member list). */
export function notificationItemId(item: NotificationItem): string {
  return item.kind === "GROUP" ? formatGroupId(item.groupId) : formatContentId(item);
}

/** The page a notification leads to: the comment that caused it, the item, or the member list. */
function linksOf(baseUrl: string, notification: Notification): ItemLinks {
  const { item } = notification;
  if (item.kind === "GROUP") {
    const group = groupLinks(baseUrl, item.groupId);
    return { alternate: `${group.alternate}/members`, mobile: `${group.mobile}/members` };
  }
  if (notification.commentNumber !== null && !notification.commentDeleted)
    return commentLinks(baseUrl, item, notification.commentNumber);
  return contentLinks(baseUrl, item);
}

function summaryOf(notification: Notification, locale: Locale): string {
  const { event } = notification;
  if (event === "joined" || event === "left") return memberEventText(event, notification.actor?.name ?? "", locale);
  return notification.body;
}

/**
 * `cbl:attachment` as comment entries carry it (with `entryId` and `number`). A shared file is the
 * one file of its item: its `entryId` is the file's id and its `number` is 1.
 */
function notificationAttachmentElement(file: NotificationAttachment): string {
  if (file.kind === "comment") {
    return attachmentElement({ parent: file.parent, number: file.commentNumber }, file.attachment);
  }
  const { file: shared } = file;
  const id = formatContentId({ kind: "CABINET", groupId: shared.groupId, id: shared.id });
  return element("cbl:attachment", {
    fileName: shared.current.fileName,
    id,
    size: shared.current.size,
    type: shared.current.mimeType,
    entryId: id,
    number: 1,
  });
}

/**
 * A notification entry: the shared fields in the order of docs/api.md "Answers", then `cbl:group`,
 * `cbl:confirmed`, the summary update, the unconfirmed comment count, files, the comment that
 * caused it, `cblNtf:lastAccess` (the last confirmation; before the first one, when the
 * notification began: the point since which changes are unseen) and `cblNtf:icon` (the area:
 * BOARD, TASK, CABINET or MEMBER_LIST; MENTION for a mention, which also has that category).
 */
export function notificationEntry(
  baseUrl: string,
  notification: Notification,
  files: readonly NotificationAttachment[] | undefined,
  locale: Locale,
): string {
  const { item, actor, summaryUpdator } = notification;
  const id = notificationItemId(item);
  const commentId =
    notification.commentNumber === null || item.kind === "GROUP"
      ? undefined
      : formatCommentId(item, notification.commentNumber);
  const head: EntryHead = {
    id,
    title: notification.title,
    links: linksOf(baseUrl, notification),
    author: actor === null ? EMPTY_AUTHOR : authorElement(actor.name, actor.id),
    updated: notification.updatedAt,
    summary: summaryOf(notification, locale),
    ...(notification.event === "mention" ? { terms: ["MENTION"] } : {}),
  };
  return itemEntry(
    head,
    element("cbl:group", { valueString: notification.groupName, id: formatPair(item.groupId) }) +
      element("cbl:confirmed", {}, String(notification.confirmed)) +
      (notification.summaryUpdatedAt === null
        ? ""
        : element("cbl:summaryUpdated", {}, utcTimestamp(notification.summaryUpdatedAt))) +
      (summaryUpdator === null
        ? ""
        : element("cbl:summaryUpdator", { valueString: summaryUpdator.name, id: formatPair(summaryUpdator.id) })) +
      element("cbl:unconfirmedCommentCount", {}, String(notification.unconfirmedComments)) +
      (files ?? []).map(notificationAttachmentElement).join("") +
      (commentId === undefined
        ? ""
        : element("cblNtf:commentId", {}, commentId) +
          element("cblNtf:commentDeleted", {}, String(notification.commentDeleted))) +
      element("cblNtf:lastAccess", {}, utcTimestamp(notification.lastAccessAt ?? notification.createdAt)) +
      element("cblNtf:icon", {}, notification.event === "mention" ? "MENTION" : categoryOfItemKind(item.kind)),
  );
}

/** The head every notification feed shares (chat's M_CHAT feed included). */
export function notificationFeedHead(baseUrl: string, viewer: Viewer, updated: number) {
  return {
    title: "Notifications",
    id: `${baseUrl}/api/notification/V2`,
    alternate: `${baseUrl}/notifications`,
    viewer,
    updated,
    extra:
      element("subtitle", { type: "text" }, `Updates for ${viewer.name}`) +
      element("dc:date", {}, utcTimestamp(updated)),
  };
}

/** `GET|POST /api/notification/V2`: the caller's notifications (or those just confirmed), newest first. */
export function notificationsFeed(
  baseUrl: string,
  viewer: Viewer,
  view: NotificationsView,
  locale: Locale,
  now: number,
): string {
  const updated = newestOf(view.notifications, now);
  return feedDocument(
    notificationFeedHead(baseUrl, viewer, updated),
    view.notifications.map((notification, index) =>
      notificationEntry(baseUrl, notification, view.attachments?.[index], locale),
    ),
  );
}
