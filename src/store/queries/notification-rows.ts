// What a notification fan-out writes, the same on both engines: the values of an event, the rows
// of the new notifications and what an event changes in an existing one. notification-fanout.ts
// builds each engine's statements from them.
import { type Kysely, type RawBuilder, sql } from "kysely";
import {
  type NotificationCause,
  type NotificationEvent,
  type NotificationEventName,
  eventNameOf,
} from "../../domain/notification.js";
import { KINDS } from "../../domain/kinds.js";
import type { Database } from "../schema.js";
import type { NotificationsTable } from "../schema-activity.js";

// A value in the SELECT list of INSERT ... SELECT: PostgreSQL cannot type a bare parameter there
// (it would guess text), so each one is cast; SQLite reads the same casts as no-ops.
const int = (value: number | null): RawBuilder<number> => sql<number>`cast(${value} as bigint)`;
const text = (value: string): RawBuilder<string> => sql<string>`cast(${value} as text)`;

/** What an event brings to an existing notification: the insert's `excluded` row, or the values themselves. */
export interface Incoming {
  readonly actor_id: number | null | RawBuilder<number | null>;
  readonly event: NotificationEventName | RawBuilder<NotificationEventName>;
  readonly updated_at: number | RawBuilder<number>;
  readonly comment_number: number | null | RawBuilder<number | null>;
  readonly summary_updated_at: number | null | RawBuilder<number | null>;
  readonly summary_updator_id: number | null | RawBuilder<number | null>;
}

/** {@link Incoming} as the upsert sees it: the row it could not insert. */
export const EXCLUDED: Incoming = {
  actor_id: sql<number | null>`excluded.actor_id`,
  event: sql<NotificationEventName>`excluded.event`,
  updated_at: sql<number>`excluded.updated_at`,
  comment_number: sql<number | null>`excluded.comment_number`,
  summary_updated_at: sql<number | null>`excluded.summary_updated_at`,
  summary_updator_id: sql<number | null>`excluded.summary_updator_id`,
};

/**
 * The statements' shape depends only on the cause's kind (and, for an update, on whether the body
 * changed): one compiled statement per variant. Everything else is a value.
 */
export type Variant = NotificationCause["kind"] | "updatedBody";

export function variantOf(cause: NotificationCause): Variant {
  return cause.kind === "updated" && cause.bodyChanged ? "updatedBody" : cause.kind;
}

// A type, not an interface: prepared() needs a record type.
/** Every value of a fan-out, as statement parameters. */
export type FanOutValues = {
  groupId: number;
  itemKind: NotificationsTable["item_kind"];
  itemId: number;
  actorId: number | null;
  /** The member left out: the actor, or 0 (no user) for an operator's change. */
  skippedUserId: number;
  event: NotificationEventName;
  unconfirmedComments: number;
  commentNumber: number | null;
  commentDeleted: number;
  summaryUpdatedAt: number | null;
  summaryUpdatorId: number | null;
  at: number;
  /** The deleted comment's author and time (commentDeleted only). */
  deletedAuthorId: number;
  deletedCreatedAt: number;
};

/** The values of one event. */
export function valuesOf(event: NotificationEvent): FanOutValues {
  const { cause, item } = event;
  const bodyChanged = cause.kind === "updated" && cause.bodyChanged;
  return {
    groupId: item.groupId,
    itemKind: item.kind,
    itemId: item.id,
    actorId: event.actorId,
    // User ids start at 1: with no actor (an operator's change) nobody is left out.
    skippedUserId: event.actorId ?? 0,
    event: eventNameOf(cause),
    unconfirmedComments: cause.kind === "comment" ? 1 : 0,
    commentNumber: cause.kind === "comment" || cause.kind === "commentDeleted" ? cause.number : null,
    commentDeleted: cause.kind === "commentDeleted" ? 1 : 0,
    summaryUpdatedAt: bodyChanged ? event.at : null,
    summaryUpdatorId: bodyChanged ? event.actorId : null,
    at: event.at,
    deletedAuthorId: cause.kind === "commentDeleted" ? cause.authorId : 0,
    deletedCreatedAt: cause.kind === "commentDeleted" ? cause.createdAt : 0,
  };
}

/**
 * What an event writes into an existing notification: every event brings it to the top
 * unconfirmed with its actor; the rest depends on the cause.
 */
export function updateOf(variant: Variant, values: FanOutValues, incoming: Incoming) {
  const common = {
    actor_id: incoming.actor_id,
    event: incoming.event,
    confirmed: 0,
    updated_at: incoming.updated_at,
  };
  switch (variant) {
    case "comment":
      return {
        ...common,
        unconfirmed_comments: sql<number>`notifications.unconfirmed_comments + 1`,
        comment_number: incoming.comment_number,
        comment_deleted: 0,
      };
    case "commentDeleted":
      // The deleted comment counted for readers other than its author who had not confirmed since
      // it was written (and whose notification existed when it was).
      return {
        ...common,
        unconfirmed_comments: sql<number>`case when notifications.unconfirmed_comments > 0
          and notifications.user_id <> ${int(values.deletedAuthorId)}
          and notifications.created_at <= ${int(values.deletedCreatedAt)}
          and (notifications.last_access_at is null or notifications.last_access_at < ${int(values.deletedCreatedAt)})
          then notifications.unconfirmed_comments - 1 else notifications.unconfirmed_comments end`,
        comment_number: incoming.comment_number,
        comment_deleted: 1,
      };
    case "updatedBody":
      return {
        ...common,
        comment_number: null,
        comment_deleted: 0,
        summary_updated_at: incoming.summary_updated_at,
        summary_updator_id: incoming.summary_updator_id,
      };
    default:
      return { ...common, comment_number: null, comment_deleted: 0 };
  }
}

/** The joined members of the item's group but the actor, as the rows of their new notifications. */
export function newNotifications(db: Kysely<Database>, values: FanOutValues, audience: Audience = "members") {
  const query = db
    .selectFrom("memberships")
    .select([
      "user_id",
      int(values.groupId).as("group_id"),
      text(values.itemKind).as("item_kind"),
      int(values.itemId).as("item_id"),
      int(values.actorId).as("actor_id"),
      text(values.event).as("event"),
      int(0).as("confirmed"),
      int(values.unconfirmedComments).as("unconfirmed_comments"),
      int(values.commentNumber).as("comment_number"),
      int(values.commentDeleted).as("comment_deleted"),
      int(values.summaryUpdatedAt).as("summary_updated_at"),
      int(values.summaryUpdatorId).as("summary_updator_id"),
      int(values.at).as("created_at"),
      int(values.at).as("updated_at"),
    ])
    .where("group_id", "=", values.groupId)
    .where("status", "=", "JOIN")
    .where("user_id", "is not", null)
    .where("user_id", "<>", values.skippedUserId);
  return audience === "participants" ? query.where(participantOf(values, "memberships.user_id")) : query;
}

/**
 * Who an item's notifications go to: every joined member, or for an event its participants when
 * it names any (docs/api.md "Events"). Part of the compiled statement's key.
 */
export type Audience = "members" | "participants";

/** The audience of an item kind. */
export function audienceOf(event: NotificationEvent): Audience {
  return event.item.kind === "GROUP" ? "members" : KINDS[event.item.kind].audience;
}

/** True for a user an event's notification goes to: the event names no participant, or names them. */
export function participantOf(values: FanOutValues, userColumn: string): RawBuilder<boolean> {
  return sql<boolean>`(not exists (select 1 from event_participants ep where ep.event_id = ${values.itemId})
    or exists (select 1 from event_participants ep where ep.event_id = ${values.itemId} and ep.user_id = ${sql.ref(userColumn)}))`;
}

/** The columns {@link newNotifications} selects, in its order. */
export const NEW_COLUMNS = [
  "user_id",
  "group_id",
  "item_kind",
  "item_id",
  "actor_id",
  "event",
  "confirmed",
  "unconfirmed_comments",
  "comment_number",
  "comment_deleted",
  "summary_updated_at",
  "summary_updator_id",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof NotificationsTable)[];

export const COMMON_VALUES = [
  "groupId",
  "itemKind",
  "itemId",
  "actorId",
  "skippedUserId",
  "event",
  "unconfirmedComments",
  "commentNumber",
  "commentDeleted",
  "summaryUpdatedAt",
  "summaryUpdatorId",
  "at",
] as const satisfies readonly (keyof FanOutValues)[];

/** The values of a deleted comment, which only its variant's update reads. */
export const DELETED_VALUES = [
  "deletedAuthorId",
  "deletedCreatedAt",
] as const satisfies readonly (keyof FanOutValues)[];
