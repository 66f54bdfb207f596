import type { Locale } from "../domain/task.js";
import type { LiveDelivery } from "../services/live/live.js";
import { chatMessageEntry } from "./chat.js";
import { likeNotificationEntry } from "./like-notification.js";
import { notificationEntry } from "./notification.js";

/**
 * One Server-Sent Event: `event:`, `id:` (the log's id, what `Last-Event-ID` sends back) and the
 * entry as `data:` lines, one per line of the XML (a text with line breaks stays one event).
 */
export function liveEventText(baseUrl: string, delivery: LiveDelivery, locale: Locale): string {
  // What was read, as one word: the client counts again (docs/api.md "Live updates").
  if (delivery.kind === "read") return `event: read\nid: ${delivery.id}\ndata: ${delivery.what}\n\n`;
  const data =
    delivery.kind === "chat"
      ? chatMessageEntry(baseUrl, delivery.viewerId, delivery.message)
      : delivery.kind === "notification"
        ? notificationEntry(baseUrl, delivery.notification, undefined, locale)
        : likeNotificationEntry(baseUrl, delivery.notification);
  const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`);
  return `event: ${delivery.kind}\nid: ${delivery.id}\n${lines.join("")}\n`;
}

/**
 * The last event of a stream the server ends: `event: end`, the reason as its data, and no `id:`
 * (a reconnecting client resumes after the last event it received).
 */
export function liveEndText(reason: string): string {
  return `event: end\ndata: ${reason}\n\n`;
}

/** The keep-alive line: a comment, which EventSource ignores. */
export const LIVE_PING = ": ping\n\n";
