// What a notification says happened, in the reader's words: "assigned it to you", "completed it",
// "uploaded version 3 of spec.pdf", "replied to you" where the change has a name, "changed it"
// where it has none.
import type { Notification } from "../../domain/notification.js";
import type { Chrome } from "../chrome.js";
import type { MessageKey } from "../i18n/en.js";

const EVENT_TEXT: Readonly<Record<Notification["event"], MessageKey>> = {
  created: "notifications.created",
  updated: "notifications.updated",
  comment: "notifications.comment",
  commentDeleted: "notifications.commentDeleted",
  joined: "notifications.joined",
  left: "notifications.left",
  mention: "notifications.mention",
  assigned: "notifications.assigned",
  completed: "notifications.completed",
  reopened: "notifications.reopened",
  version: "notifications.version",
};

/** The sentence of a notification as `readerId` reads it. */
export function notificationWords(chrome: Chrome, notification: Notification, readerId: number): string {
  const name = notification.actor?.name ?? "—";
  if (notification.event === "assigned" && notification.assigneeId === readerId)
    return chrome.t("notifications.assignedYou", { name });
  if (notification.event === "comment" && notification.repliedToId === readerId)
    return chrome.t("notifications.replied", { name });
  if (notification.event === "version" && notification.fileVersion !== null) {
    const { number, name: file } = notification.fileVersion;
    return chrome.t("notifications.version", { name, n: number, file });
  }
  return chrome.t(EVENT_TEXT[notification.event], { name });
}
