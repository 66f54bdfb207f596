import { ValidationError } from "./errors.js";
import { type ContentRef, type ItemRef, parseChatId, parseItemId } from "./item-id.js";
import { KINDS, kindOfCategory } from "./kinds.js";
import { LIMITS } from "./limits.js";
import type { Locale } from "./task.js";

/**
 * What a notification is about: a topic, task or file, or a group's member list (`GROUP,1:n`,
 * for joins and leaves). One notification per (user, item) (docs/api.md "Notifications").
 */
export type NotificationItem = ContentRef | { readonly kind: "GROUP"; readonly groupId: number; readonly id: number };

/** The kinds of {@link NotificationItem}. */
export type NotificationItemKind = NotificationItem["kind"];

/**
 * An update a reader wants named in words rather than "changed it": a task given to someone,
 * finished or taken up again, a file's new version.
 */
export type ItemChange = "assigned" | "completed" | "reopened" | "version";

/** The change that (last) raised a notification. */
export type NotificationCause =
  | { readonly kind: "created" }
  /**
   * `bodyChanged`: the body (summary) differs, which sets `cbl:summaryUpdated`/`cbl:summaryUpdator`.
   * `change`: what the update did, when it has a name of its own.
   */
  | { readonly kind: "updated"; readonly bodyChanged: boolean; readonly change?: ItemChange }
  | { readonly kind: "comment"; readonly number: number }
  /** `authorId`/`createdAt` of the deleted comment: readers who had not seen it count one fewer. */
  | { readonly kind: "commentDeleted"; readonly number: number; readonly authorId: number; readonly createdAt: number }
  | { readonly kind: "joined" }
  | { readonly kind: "left" };

/** The stored name of each cause: its kind, or an update's {@link ItemChange}. */
export type NotificationEventName = NotificationCause["kind"] | ItemChange;

/** The name a cause is stored under. */
export function eventNameOf(cause: NotificationCause): NotificationEventName {
  return cause.kind === "updated" && cause.change !== undefined ? cause.change : cause.kind;
}

/**
 * What a task's update did, for its notification: a status change says more than a new assignee
 * (both at once is the rarer case), and an update that did neither has no name of its own.
 */
export function taskChangeOf(
  before: { readonly status: string; readonly assigneeId: number | null },
  after: { readonly status?: string; readonly assigneeId?: number | null },
): ItemChange | undefined {
  const status = after.status ?? before.status;
  if (status !== before.status) {
    if (status === "COMPLETED") return "completed";
    if (before.status === "COMPLETED") return "reopened";
  }
  if (after.assigneeId !== undefined && after.assigneeId !== null && after.assigneeId !== before.assigneeId)
    return "assigned";
  return undefined;
}

/** One change in a group: every joined member but the actor is notified of it. */
export interface NotificationEvent {
  readonly item: NotificationItem;
  /** Who made the change; null for an operator's change (then every member is notified). */
  readonly actorId: number | null;
  readonly cause: NotificationCause;
  readonly at: number;
}

/** A user as a notification names them. */
export interface UserMention {
  readonly id: number;
  readonly name: string;
}

/** A notification as its user sees it. */
export interface Notification {
  readonly item: NotificationItem;
  readonly groupName: string;
  /** The item's title (the group's name for member-list notifications). */
  readonly title: string;
  /** The item's body (topic body, task summary, file memo); "" for member-list notifications. */
  readonly body: string;
  /** Who made the last change; null for an operator's change. */
  readonly actor: UserMention | null;
  /** A task's assignee now (null for other kinds), which "assigned you" is read against. */
  readonly assigneeId: number | null;
  /** A file's current version number and file name (null for other kinds), which "version n of NAME" names. */
  readonly fileVersion: { readonly number: number; readonly name: string } | null;
  /** The last change's cause; "mention" for a mention notification (the actor named the user). */
  readonly event: NotificationEventName | "mention";
  readonly confirmed: boolean;
  readonly unconfirmedComments: number;
  /** The comment of the last change, when a comment caused it. */
  readonly commentNumber: number | null;
  /** Who wrote the comment that this comment answers (null when it answers none), for "replied to you". */
  readonly repliedToId: number | null;
  readonly commentDeleted: boolean;
  /** When and by whom the body was last changed (absent until the first body edit). */
  readonly summaryUpdatedAt: number | null;
  readonly summaryUpdator: UserMention | null;
  readonly updatedAt: number;
  readonly createdAt: number;
  /** When the user last confirmed it; null when never. */
  readonly lastAccessAt: number | null;
}

/** The `category` values of the notification list (docs/api.md "Notifications") and what they select. */
export const NOTIFICATION_CATEGORIES = [
  "M_SCHEDULE",
  "G_SCHEDULE",
  "M_CHAT",
  "TASK",
  "BOARD",
  "CABINET",
  "MEMBER_LIST",
  "MENTION",
] as const;

/** One of {@link NOTIFICATION_CATEGORIES}. */
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/**
 * The item kind a category selects; null for categories of areas this server does not hold
 * (personal schedule, chat), which therefore list nothing, and for MENTION, which
 * selects mention notifications of every kind.
 */
export function itemKindOfCategory(category: NotificationCategory): NotificationItemKind | null {
  if (category === "MEMBER_LIST") return "GROUP";
  return kindOfCategory(category) ?? null;
}

/** The category of an item kind: also what `cblNtf:icon` says, so a client can pick an icon per area. */
export function categoryOfItemKind(kind: NotificationItemKind): NotificationCategory {
  return kind === "GROUP" ? "MEMBER_LIST" : KINDS[kind].category;
}

/** Parses `category` (one value, any letter case). @throws ValidationError INVALID_CATEGORY */
export function parseCategory(text: string): NotificationCategory {
  const upper = text.trim().toUpperCase();
  const found = NOTIFICATION_CATEGORIES.find((category) => category === upper);
  if (found === undefined) {
    throw new ValidationError(
      "INVALID_CATEGORY",
      `category must be one of ${NOTIFICATION_CATEGORIES.join(", ")} (got "${text.slice(0, 40)}").`,
    );
  }
  return found;
}

/** Which of a user's notifications a list shows. */
export interface NotificationFilter {
  readonly unconfirmedOnly: boolean;
  /** Mention notifications: beside the others ("with"), alone (category MENTION) or not at all (another category). */
  readonly mentions: "with" | "only" | "without";
  /** null: every kind; a kind: only that kind. */
  readonly itemKind: NotificationItemKind | null;
  readonly groupId: number | null;
  /** Groups the user set to "do not notify" whose notifications stay hidden (empty with include-rule-out=true). */
  readonly hiddenGroupIds: readonly number[];
}

/** The notification an item id names, for confirming; undefined for ids that can name none. */
export function notificationItemOf(ref: ItemRef): NotificationItem | undefined {
  if (ref.kind === "GROUP") return { kind: "GROUP", groupId: ref.groupId, id: ref.groupId };
  if (ref.kind === "BOARD" || ref.kind === "TASK" || ref.kind === "CABINET") return ref;
  return undefined;
}

/** The member-list item of a group. */
export function memberListItem(groupId: number): NotificationItem {
  return { kind: "GROUP", groupId, id: groupId };
}

/**
 * Asserts a confirmation names at most 100 entries (docs/api.md "Notifications": confirmation is the one write of
 * several items, up to 100).
 * @throws ValidationError TOO_MANY_ENTRIES
 */
export function requireConfirmableCount(count: number): void {
  if (count > LIMITS.confirmPerRequest) {
    throw new ValidationError(
      "TOO_MANY_ENTRIES",
      `At most ${LIMITS.confirmPerRequest} entries can be confirmed per request; the feed holds ${count}. Nothing was confirmed.`,
    );
  }
}

/** A like notification's item: a topic, task or file, or one of their comments (by number). */
export interface LikedItem {
  readonly parent: ContentRef;
  /** 0 for the topic, task or file itself; the comment's number otherwise. */
  readonly commentNumber: number;
}

/** The liked item an id names, for confirming; undefined for ids that can name none. */
export function likedItemOf(ref: ItemRef): LikedItem | undefined {
  if (ref.kind === "COMMENT") return { parent: ref.parent, commentNumber: ref.number };
  if (ref.kind === "BOARD" || ref.kind === "TASK" || ref.kind === "CABINET") return { parent: ref, commentNumber: 0 };
  return undefined;
}

/** A liked chat message (a room is in no group): its room and number. */
export interface LikedChatMessage {
  readonly roomId: number;
  readonly messageNumber: number;
}

/** What a like names: a group's item or comment, or a chat message. */
export type LikeTarget =
  { readonly kind: "item"; readonly ref: ItemRef } | { readonly kind: "chat"; readonly message: LikedChatMessage };

/** The like target an id names; undefined for one that names none (a chat room is not liked, its messages are). */
export function parseLikeTarget(text: string): LikeTarget | undefined {
  const chat = parseChatId(text);
  if (chat !== undefined) {
    const { roomId, messageNumber } = chat;
    return messageNumber === undefined ? undefined : { kind: "chat", message: { roomId, messageNumber } };
  }
  const ref = parseItemId(text);
  return ref && { kind: "item", ref };
}

/** What every like notification shows its owner. */
interface LikeNotificationBase {
  /** The item's title (a comment's: its parent's; a chat message's: its room's, as the owner sees it). */
  readonly title: string;
  /** The item's body, or the comment's or message's text. */
  readonly body: string;
  /** Everyone but the owner who likes it now, first liker first. */
  readonly likers: readonly UserMention[];
  readonly confirmed: boolean;
  readonly updatedAt: number;
}

/**
 * `notification` as an application below the `comments` level sees it: the liked comment's or chat
 * message's text is comment contents, so its summary is empty; an item's own body stays.
 */
export function withoutCommentText(notification: LikeNotification): LikeNotification {
  const isComment = notification.kind === "chat" || notification.item.commentNumber !== 0;
  return isComment ? { ...notification, body: "" } : notification;
}

/** A like notification of a group's item or comment. */
export interface ItemLikeNotification extends LikeNotificationBase {
  readonly kind: "item";
  readonly item: LikedItem;
  readonly groupName: string;
}

/** A like notification of a chat message. */
export interface ChatLikeNotification extends LikeNotificationBase {
  readonly kind: "chat";
  readonly message: LikedChatMessage;
  /** The message's author, who owns the notification: ids are written from the owner's side. */
  readonly ownerId: number;
}

/** A like notification as its owner sees it. */
export type LikeNotification = ItemLikeNotification | ChatLikeNotification;

const MEMBER_EVENT_TEXT: Readonly<Record<Locale, Readonly<Record<"joined" | "left", (name: string) => string>>>> = {
  ja: {
    joined: (name) => `${name}さんがグループに参加しました。`,
    left: (name) => `${name}さんがグループから退会しました。`,
  },
  en: { joined: (name) => `${name} joined the group.`, left: (name) => `${name} left the group.` },
};

/** The summary of a member-list notification: who joined or left, in the server's locale. */
export function memberEventText(event: "joined" | "left", name: string, locale: Locale): string {
  return MEMBER_EVENT_TEXT[locale][event](name);
}
