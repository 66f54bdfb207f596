import { type Kysely, type RawBuilder, sql } from "kysely";
import type { NotificationCause, NotificationEvent, NotificationEventName } from "../../domain/notification.js";
import type { Database, NotificationsTable } from "../schema.js";

// A value in the SELECT list of INSERT ... SELECT: PostgreSQL cannot type a bare parameter there
// (it would guess text), so each one is cast; SQLite reads the same casts as no-ops.
const int = (value: number | null): RawBuilder<number> => sql<number>`cast(${value} as bigint)`;
const text = (value: string): RawBuilder<string> => sql<string>`cast(${value} as text)`;

/** What an event brings to an existing notification: the insert's `excluded` row, or the values themselves. */
interface Incoming {
  readonly actor_id: number | null | RawBuilder<number | null>;
  readonly event: NotificationEventName | RawBuilder<NotificationEventName>;
  readonly updated_at: number | RawBuilder<number>;
  readonly comment_number: number | null | RawBuilder<number | null>;
  readonly summary_updated_at: number | null | RawBuilder<number | null>;
  readonly summary_updator_id: number | null | RawBuilder<number | null>;
}

/** {@link Incoming} as the upsert sees it: the row it could not insert. */
const EXCLUDED: Incoming = {
  actor_id: sql<number | null>`excluded.actor_id`,
  event: sql<NotificationEventName>`excluded.event`,
  updated_at: sql<number>`excluded.updated_at`,
  comment_number: sql<number | null>`excluded.comment_number`,
  summary_updated_at: sql<number | null>`excluded.summary_updated_at`,
  summary_updator_id: sql<number | null>`excluded.summary_updator_id`,
};

/**
 * What an event writes into an existing notification: every event brings it to the top
 * unconfirmed with its actor; the rest depends on the cause.
 */
function updateOf(cause: NotificationCause, incoming: Incoming) {
  const common = {
    actor_id: incoming.actor_id,
    event: incoming.event,
    confirmed: 0,
    updated_at: incoming.updated_at,
  };
  switch (cause.kind) {
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
          and notifications.user_id <> ${int(cause.authorId)}
          and notifications.created_at <= ${int(cause.createdAt)}
          and (notifications.last_access_at is null or notifications.last_access_at < ${int(cause.createdAt)})
          then notifications.unconfirmed_comments - 1 else notifications.unconfirmed_comments end`,
        comment_number: incoming.comment_number,
        comment_deleted: 1,
      };
    case "updated":
      return cause.bodyChanged
        ? {
            ...common,
            comment_number: null,
            comment_deleted: 0,
            summary_updated_at: incoming.summary_updated_at,
            summary_updator_id: incoming.summary_updator_id,
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

/** The joined members of the item's group but the actor, as the rows of their new notifications. */
function newNotifications(db: Kysely<Database>, event: NotificationEvent) {
  const { item } = event;
  const values = causeValues(event);
  return (
    db
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
      .where("user_id", "<>", event.actorId ?? 0)
  );
}

/** The columns {@link newNotifications} selects, in its order. */
const NEW_COLUMNS = [
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

/**
 * Creates, or brings to the top unconfirmed, the item's notification of every joined member of its
 * group but the actor: one INSERT ... SELECT over the memberships with an upsert, whatever the
 * group's size. PostgreSQL's: the upsert takes each row's lock, so two transactions fanning out
 * the same item at once both count (the second updates what the first inserted).
 */
export async function fanOutNotifications(db: Kysely<Database>, event: NotificationEvent): Promise<void> {
  await db
    .insertInto("notifications")
    .columns(NEW_COLUMNS)
    .expression(newNotifications(db, event))
    .onConflict((oc) => oc.columns(["item_kind", "item_id", "user_id"]).doUpdateSet(updateOf(event.cause, EXCLUDED)))
    .execute();
}

/**
 * The same as {@link fanOutNotifications} in two set-based statements, for SQLite: update the
 * members' notifications of the item that exist, then insert the missing ones. SQLite's writers
 * take turns, so nothing comes between the two. Why not the upsert: inside a transaction SQLite
 * first copies each page a statement changes into a statement journal, to undo that statement
 * alone if it aborts, and an upsert's update part always may. These two can only fail, given the
 * table's `on conflict fail` constraints (sqlite/migrations/0008), so they need no such copy; a
 * failed statement's rows go with its transaction (the fan-out always runs in one). In the steady
 * state of a group of 5,000 members that copy was about a quarter of the fan-out's time.
 */
export async function fanOutNotificationsInTwoSteps(db: Kysely<Database>, event: NotificationEvent): Promise<void> {
  const { item } = event;
  const values = causeValues(event);
  const incoming: Incoming = {
    actor_id: event.actorId,
    event: event.cause.kind,
    updated_at: event.at,
    comment_number: values.comment_number,
    summary_updated_at: values.summary_updated_at,
    summary_updator_id: values.summary_updator_id,
  };
  // Off the item's part of the unique index: nothing to read for a new item.
  await db
    .updateTable("notifications")
    .set(updateOf(event.cause, incoming))
    .where("item_kind", "=", item.kind)
    .where("item_id", "=", item.id)
    .where("user_id", "<>", event.actorId ?? 0)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("memberships")
          .select(sql<number>`1`.as("one"))
          .where("memberships.group_id", "=", item.groupId)
          .whereRef("memberships.user_id", "=", "notifications.user_id")
          .where("memberships.status", "=", "JOIN"),
      ),
    )
    .execute();
  // The members who had none yet (those that exist were just updated).
  await db
    .insertInto("notifications")
    .columns(NEW_COLUMNS)
    .expression(newNotifications(db, event))
    .onConflict((oc) => oc.columns(["item_kind", "item_id", "user_id"]).doNothing())
    .execute();
}
