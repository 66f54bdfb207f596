// Outgoing webhooks (issue #34): which changes a webhook hears of, its address's shape, its limits
// and its retry schedule. Pure: the queue lives in the store, the sender in services/webhook.
import { ValidationError } from "./errors.js";
import type { ContentKind } from "./kinds.js";

/** Every event a webhook may choose, in the order of their bits (stored as one integer mask). */
export const WEBHOOK_EVENTS = [
  "topic.created",
  "topic.updated",
  "topic.deleted",
  "comment.created",
  "comment.updated",
  "comment.deleted",
  "task.created",
  "task.updated",
  "task.deleted",
  "file.created",
  "file.updated",
  "file.deleted",
  "event.created",
  "event.updated",
  "event.deleted",
  "member.joined",
  "member.left",
  "like.added",
  "chat.message",
  "notification",
] as const;

/** An event a webhook hears of. */
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Events of a group's webhook: its items, members and likes. */
export const GROUP_WEBHOOK_EVENTS: readonly WebhookEvent[] = WEBHOOK_EVENTS.filter(
  (event) => event !== "chat.message" && event !== "notification",
);

/** Events of a person's own webhook: their notifications and the chat rooms they are in. */
export const PERSONAL_WEBHOOK_EVENTS: readonly WebhookEvent[] = ["notification", "chat.message"];

/** Numbers a webhook lives within; docs/api.md "Webhooks". */
export const WEBHOOK_LIMITS = {
  /** Characters of a webhook's address. */
  urlMaxChars: 2_000,
  /** Webhooks of one group, and of one person's own. */
  perOwnerMax: 20,
  /** Characters of a receiver's answer kept in the delivery log. */
  responseExcerptChars: 1_000,
  /** How long one delivery may take, connecting to reading the answer. */
  requestTimeoutMs: 10_000,
  /** Consecutive failed attempts after which a webhook disables itself and tells its owner. */
  disableAfterFailures: 10,
  /** A delivery is retried for this long after its change, then given up. */
  retryForMs: 24 * 3_600_000,
  /** Delivery log rows kept per webhook (older ones are pruned). */
  logKeepMs: 30 * 24 * 3_600_000,
} as const;

/** The waits before each retry; the last repeats until WEBHOOK_LIMITS.retryForMs has passed. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
] as const;

/**
 * When to try a delivery again after its `attempts`-th failed attempt (1 = the first), or undefined
 * when its retry period (from `createdAt`) is over.
 */
export function nextRetryAt(attempts: number, createdAt: number, now: number): number | undefined {
  const index = Math.min(Math.max(attempts, 1), WEBHOOK_RETRY_DELAYS_MS.length) - 1;
  const next = now + (WEBHOOK_RETRY_DELAYS_MS[index] ?? 0);
  return next - createdAt > WEBHOOK_LIMITS.retryForMs ? undefined : next;
}

/** The bit of an event in a webhook's mask. */
export function eventBit(event: WebhookEvent): number {
  return 2 ** WEBHOOK_EVENTS.indexOf(event);
}

/** The mask of a list of events. */
export function eventMask(events: readonly WebhookEvent[]): number {
  return [...new Set(events)].reduce((mask, event) => mask + eventBit(event), 0);
}

/** The events of a mask, in their documented order. */
export function eventsOfMask(mask: number): WebhookEvent[] {
  return WEBHOOK_EVENTS.filter((event) => Math.floor(mask / eventBit(event)) % 2 === 1);
}

/** The event word of each content kind. */
const KIND_WORD: Readonly<Record<ContentKind, "topic" | "task" | "file" | "event">> = {
  BOARD: "topic",
  TASK: "task",
  CABINET: "file",
  GW_SCHEDULE: "event",
};

/** The event of an item's creation, update or deletion. */
export function itemEvent(kind: ContentKind, change: "created" | "updated" | "deleted"): WebhookEvent {
  return `${KIND_WORD[kind]}.${change}`;
}

/** Whether a webhook's owner is a group (its managers) or a person (their own notifications). */
export type WebhookScope = { readonly kind: "group"; readonly groupId: number } | { readonly kind: "personal" };

/**
 * The events asked for, checked against what the scope allows: a comma-separated list of names,
 * or all the scope's events when `list` is undefined or empty.
 * @throws ValidationError WEBHOOK_EVENT_INVALID
 */
export function parseWebhookEvents(list: string | readonly string[] | undefined, scope: WebhookScope): WebhookEvent[] {
  const allowed = scope.kind === "group" ? GROUP_WEBHOOK_EVENTS : PERSONAL_WEBHOOK_EVENTS;
  const names = (typeof list === "string" ? list.split(",") : (list ?? []))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.length === 0) return [...allowed];
  const out: WebhookEvent[] = [];
  for (const name of names) {
    const event = allowed.find((known) => known === name);
    if (event === undefined)
      throw new ValidationError(
        "WEBHOOK_EVENT_INVALID",
        `Unknown event "${name.slice(0, 40)}": choose among ${allowed.join(", ")}.`,
      );
    if (!out.includes(event)) out.push(event);
  }
  return out;
}

/**
 * A webhook's address: an absolute http(s) URL without credentials, at most
 * WEBHOOK_LIMITS.urlMaxChars characters. Whether its host may be reached is decided when it is
 * connected to (services/outbound/guarded-request.ts), never here: a name resolves anew each time.
 * @throws ValidationError WEBHOOK_URL_INVALID, WEBHOOK_URL_TOO_LONG
 */
export function checkWebhookUrl(text: string): string {
  const value = text.trim();
  if (value.length > WEBHOOK_LIMITS.urlMaxChars)
    throw new ValidationError(
      "WEBHOOK_URL_TOO_LONG",
      `The address is ${value.length} characters long; at most ${WEBHOOK_LIMITS.urlMaxChars} are allowed.`,
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError("WEBHOOK_URL_INVALID", "The address must be an absolute http:// or https:// URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ValidationError("WEBHOOK_URL_INVALID", "The address must be an absolute http:// or https:// URL.");
  if (url.username !== "" || url.password !== "")
    throw new ValidationError("WEBHOOK_URL_INVALID", "The address must not carry a user name or password.");
  return value;
}

/** How a delivery stands: waiting (or retrying), delivered, given up, or not sent (the owner may no longer read it). */
export type WebhookDeliveryStatus = "queued" | "sent" | "failed" | "skipped";
