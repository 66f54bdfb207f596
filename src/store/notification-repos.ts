// The store's notification repositories (part of Tx, store.ts): update and like notifications,
// and the comment confirmations they write.
import type { ContentRef } from "../domain/item-id.js";
import type {
  LikedItem,
  LikeNotification,
  Notification,
  NotificationEvent,
  NotificationFilter,
  NotificationItem,
  NotificationItemKind,
} from "../domain/notification.js";
import type { ItemKey } from "../domain/reaction.js";
import type { Page } from "./store.js";

/** When each user last confirmed a parent's comments (written by notifications). */
export interface CommentReadRepo {
  /** The time of the user's last confirmation of the parent; undefined when never. */
  find(userId: number, parent: ContentRef): Promise<number | undefined>;
  confirm(userId: number, parent: ContentRef, at: number): Promise<void>;
  /** Records a confirmation of each parent at once (confirming notifications). */
  confirmMany(userId: number, parents: readonly ContentRef[], at: number): Promise<void>;
  /** Forgets every confirmation of the parent (it is being deleted). */
  removeAllOf(parent: ContentRef): Promise<void>;
}

/** Notification counts the web interface shows. */
export interface NotificationCountRepo {
  /** The user's unconfirmed notifications per group (groups without any are absent). */
  unconfirmedByGroup(userId: number): Promise<Map<number, number>>;
}

/** Update notifications: one per (user, item). */
export interface NotificationRepo {
  /**
   * Creates, or brings to the top unconfirmed, the item's notification of every joined member of
   * its group but the actor: one set-based statement, whatever the group's size.
   */
  fanOut(event: NotificationEvent): Promise<void>;
  /** Groups the user has joined and set to "do not notify". */
  mutedGroupIds(userId: number): Promise<number[]>;
  /** A page of the user's notifications, newest first (updated, then id). */
  list(userId: number, filter: NotificationFilter, page: Page): Promise<Notification[]>;
  /**
   * Confirms the user's notifications of these items; returns every one of them the user has,
   * newest first, those confirmed before included (confirming is idempotent).
   */
  confirm(userId: number, items: readonly NotificationItem[], at: number): Promise<Notification[]>;
  /** Of these items of one kind, the ids whose notification for the user is unconfirmed. */
  unconfirmedOf(userId: number, kind: NotificationItemKind, ids: readonly number[]): Promise<Set<number>>;
  /** Removes every notification of these items (they are being deleted). */
  removeItems(kind: NotificationItemKind, ids: readonly number[]): Promise<void>;
  /** Removes a user's notifications and like notifications of a group (they left it). */
  removeOfMember(userId: number, groupId: number): Promise<void>;
}

/** Like notifications: one per (owner, liked item). */
export interface LikeNotificationRepo {
  /** Creates, or brings to the top unconfirmed, the owner's like notification of the item. */
  touch(ownerId: number, item: LikedItem, commentId: number | null, at: number): Promise<void>;
  remove(ownerId: number, item: LikedItem): Promise<void>;
  /** A page of the user's like notifications, newest first, with their likers. */
  list(userId: number, filter: { readonly unconfirmedOnly: boolean }, page: Page): Promise<LikeNotification[]>;
  count(userId: number, filter: { readonly unconfirmedOnly: boolean }): Promise<number>;
  /** Confirms the user's like notifications of these items; returns every one of them, newest first (idempotent). */
  confirm(userId: number, items: readonly LikedItem[], at: number): Promise<LikeNotification[]>;
  /**
   * Removes the like notifications of deleted items: a topic, task or file with its comments', or
   * comments by row id.
   */
  removeItems(kind: ItemKey["kind"], ids: readonly number[]): Promise<void>;
}
