import { type ExpressionBuilder, type Kysely, type RawBuilder, sql } from "kysely";
import type { NotificationCause, NotificationEvent } from "../../domain/notification.js";
import type { Database, NotificationsTable } from "../schema.js";

// A value in the SELECT list of INSERT ... SELECT: PostgreSQL cannot type a bare parameter there
// (it would guess text), so each one is cast; SQLite reads the same casts as no-ops.
const int = (value: number | null): RawBuilder<number> => sql<number>`cast(${value} as bigint)`;
const text = (value: string): RawBuilder<string> => sql<string>`cast(${value} as text)`;

type Excluded = ExpressionBuilder<Database & { excluded: NotificationsTable }, "notifications" | "excluded">;

/**
 * What an event writes into an existing notification (the insert's values are in `excluded`):
 * every event brings it to the top unconfirmed with its actor; the rest depends on the cause.
 */
function updateOnConflict(cause: NotificationCause, eb: Excluded) {
  const common = {
    actor_id: eb.ref("excluded.actor_id"),
    event: eb.ref("excluded.event"),
    confirmed: 0,
    updated_at: eb.ref("excluded.updated_at"),
  };
  switch (cause.kind) {
    case "comment":
      return {
        ...common,
        unconfirmed_comments: eb("notifications.unconfirmed_comments", "+", 1),
        comment_number: eb.ref("excluded.comment_number"),
        comment_deleted: 0,
      };
    case "commentDeleted":
      // The deleted comment counted for readers other than its author who had not confirmed since
      // it was written (and whose notification existed when it was).
      return {
        ...common,
        unconfirmed_comments: sql<number>`case when notifications.unconfirmed_comments > 0
          and notifications.user_id <> ${int(cause.authorId)}
          and notifications.created_at <= ${int(cause.createdAt)}
          and (notifications.last_access_at is null or notifications.last_access_at < ${int(cause.createdAt)})
          then notifications.unconfirmed_comments - 1 else notifications.unconfirmed_comments end`,
        comment_number: eb.ref("excluded.comment_number"),
        comment_deleted: 1,
      };
    case "updated":
      return cause.bodyChanged
        ? {
            ...common,
            comment_number: null,
            comment_deleted: 0,
            summary_updated_at: eb.ref("excluded.summary_updated_at"),
            summary_updator_id: eb.ref("excluded.summary_updator_id"),
          }
        : { ...common, comment_number: null, comment_deleted: 0 };
    default:
      return { ...common, comment_number: null, comment_deleted: 0 };
  }
}

/** The fields of a new notification that depend on the cause. */
function causeValues(event: NotificationEvent) {
  const { cause } = event;
  const commentNumber = cause.kind === "comment" || cause.kind === "commentDeleted" ? cause.number : null;
  const bodyChanged = cause.kind === "updated" && cause.bodyChanged;
  return {
    unconfirmed_comments: cause.kind === "comment" ? 1 : 0,
    comment_number: commentNumber,
    comment_deleted: cause.kind === "commentDeleted" ? 1 : 0,
    summary_updated_at: bodyChanged ? event.at : null,
    summary_updator_id: bodyChanged ? event.actorId : null,
  };
}

/**
 * Creates, or brings to the top unconfirmed, the item's notification of every joined member of its
 * group but the actor: one INSERT ... SELECT over the memberships with an upsert, whatever the
 * group's size (the same statement on SQLite and PostgreSQL).
 */
export async function fanOutNotifications(db: Kysely<Database>, event: NotificationEvent): Promise<void> {
  const { item } = event;
  const values = causeValues(event);
  const members = db
    .selectFrom("memberships")
    .select([
      "user_id",
      int(item.groupId).as("group_id"),
      text(item.kind).as("item_kind"),
      int(item.id).as("item_id"),
      int(event.actorId).as("actor_id"),
      text(event.cause.kind).as("event"),
      int(0).as("confirmed"),
      int(values.unconfirmed_comments).as("unconfirmed_comments"),
      int(values.comment_number).as("comment_number"),
      int(values.comment_deleted).as("comment_deleted"),
      int(values.summary_updated_at).as("summary_updated_at"),
      int(values.summary_updator_id).as("summary_updator_id"),
      int(event.at).as("created_at"),
      int(event.at).as("updated_at"),
    ])
    .where("group_id", "=", item.groupId)
    .where("status", "=", "JOIN")
    .where("user_id", "is not", null)
    // User ids start at 1: with no actor (an operator's change) nobody is left out.
    .where("user_id", "<>", event.actorId ?? 0);
  await db
    .insertInto("notifications")
    .columns([
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
    ])
    .expression(members)
    .onConflict((oc) => oc.columns(["item_kind", "item_id", "user_id"]).doUpdateSet((eb) => updateOnConflict(event.cause, eb)))
    .execute();
}
