// Table shapes of what users do with items (likes, favorites, confirmations, notifications) and of
// the change versions, part of `Database` (schema.ts).
import type { Generated } from "kysely";
import type { ContentKind } from "../domain/kinds.js";
import type { NotificationEventName } from "../domain/notification.js";

/** Kinds of item a like or favorite row points at (comments by their row id). */
export type ItemKind = ContentKind | "COMMENT";

/** One row per (user, liked item). */
export interface LikesTable {
  user_id: number;
  item_kind: ItemKind;
  item_id: number;
  group_id: number;
  created_at: number;
}

/** One row per (user, favorited item). */
export interface FavoritesTable {
  user_id: number;
  item_kind: ItemKind;
  item_id: number;
  group_id: number;
  created_at: number;
}

/** When a user last confirmed (read) the comments of a parent item. */
/** When a reader last opened an item's page (migration 0048): "new" and "n new comments" are after it. */
export interface ItemVisitsTable {
  user_id: number;
  item_kind: ContentKind;
  item_id: number;
  group_id: number;
  seen_at: number;
}

/** A reader's "mark all read" of a group (migration 0048): what is older counts as seen. */
export interface GroupReadsTable {
  user_id: number;
  group_id: number;
  read_at: number;
}

export interface CommentReadsTable {
  user_id: number;
  parent_kind: ContentKind;
  parent_id: number;
  confirmed_at: number;
}

/**
 * One update notification per (user, item) (docs/api.md "Notifications"). `item_kind` GROUP is a group's
 * member list (item_id = the group id). `event` is the last change's cause; the comment and
 * summary columns describe the last comment and body changes.
 */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  group_id: number;
  item_kind: "GROUP" | ContentKind;
  item_id: number;
  actor_id: number | null;
  event: NotificationEventName;
  confirmed: number;
  unconfirmed_comments: number;
  comment_number: number | null;
  comment_deleted: number;
  summary_updated_at: number | null;
  summary_updator_id: number | null;
  created_at: number;
  updated_at: number;
  last_access_at: number | null;
}

/**
 * One mention notification per (mentioned user, item) (migration 0015): the item's body or one of
 * its comments (`comment_number`, the latest) named the user.
 */
export interface MentionsTable {
  id: Generated<number>;
  user_id: number;
  group_id: number;
  item_kind: ContentKind;
  item_id: number;
  actor_id: number | null;
  comment_number: number | null;
  confirmed: number;
  created_at: number;
  updated_at: number;
  last_access_at: number | null;
}

/**
 * One like notification per (owner, liked item): a topic, task or file (comment_number 0) or one
 * of their comments (its number, and comment_id = its row, which keys its likes).
 */
export interface LikeNotificationsTable {
  id: Generated<number>;
  user_id: number;
  group_id: number;
  item_kind: ContentKind;
  item_id: number;
  comment_number: number;
  comment_id: number | null;
  confirmed: number;
  created_at: number;
  updated_at: number;
  confirmed_at: number | null;
}

/**
 * A group's change version, moved by triggers on every write to what the group's feeds show
 * (store/change-tracking.ts); row 0 counts for everyone (user names).
 */
export interface GroupChangesTable {
  group_id: number;
  version: number;
  /** Epoch ms by the database's clock; never goes back. */
  changed_at: number;
}

/** A user's change version: per-caller state (memberships, favorites, confirmations). */
export interface MemberChangesTable {
  user_id: number;
  version: number;
  changed_at: number;
}

/**
 * One change a live stream reports (migration 0018): `notification` (an item's fan-out: group,
 * item kind and id), `likeNotification` (the owner in `user_id`, the item and its comment number),
 * `chat` (the room in `item_id`, the message number). The id is the stream's event id.
 */
export interface LiveEventsTable {
  id: Generated<number>;
  kind: "notification" | "likeNotification" | "chat" | "read";
  group_id: number | null;
  item_kind: string | null;
  item_id: number | null;
  number: number | null;
  user_id: number | null;
  at: number;
}
