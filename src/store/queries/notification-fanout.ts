import { type Kysely, sql } from "kysely";
import type { NotificationEvent } from "../../domain/notification.js";
import type { Database } from "../schema.js";
import {
  COMMON_VALUES,
  DELETED_VALUES,
  EXCLUDED,
  type FanOutValues,
  type Incoming,
  NEW_COLUMNS,
  type Variant,
  newNotifications,
  type Audience,
  audienceOf,
  participantOf,
  updateOf,
  valuesOf,
  variantOf,
} from "./notification-rows.js";
import { type PreparedQuery, prepared } from "./prepared.js";

/** The upsert: PostgreSQL's fan-out. */
function upsertStatement(db: Kysely<Database>, variant: Variant, values: FanOutValues, audience: Audience) {
  return db
    .insertInto("notifications")
    .columns(NEW_COLUMNS)
    .expression(newNotifications(db, values, audience))
    .onConflict((oc) =>
      oc.columns(["item_kind", "item_id", "user_id"]).doUpdateSet(updateOf(variant, values, EXCLUDED)),
    );
}

/** SQLite's first step: the members' existing notifications of the item. */
function updateStatement(db: Kysely<Database>, variant: Variant, values: FanOutValues, audience: Audience) {
  const incoming: Incoming = {
    actor_id: values.actorId,
    event: values.event,
    updated_at: values.at,
    comment_number: values.commentNumber,
    summary_updated_at: values.summaryUpdatedAt,
    summary_updator_id: values.summaryUpdatorId,
  };
  // Off the item's part of the unique index: nothing to read for a new item.
  const query = db
    .updateTable("notifications")
    .set(updateOf(variant, values, incoming))
    .where("item_kind", "=", values.itemKind)
    .where("item_id", "=", values.itemId)
    .where("user_id", "<>", values.skippedUserId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("memberships")
          .select(sql<number>`1`.as("one"))
          .where("memberships.group_id", "=", values.groupId)
          .whereRef("memberships.user_id", "=", "notifications.user_id")
          .where("memberships.status", "=", "JOIN"),
      ),
    );
  return audience === "participants" ? query.where(participantOf(values, "notifications.user_id")) : query;
}

/** SQLite's second step: the members who had none yet (those that exist were just updated). */
function insertMissingStatement(db: Kysely<Database>, values: FanOutValues, audience: Audience) {
  return db
    .insertInto("notifications")
    .columns(NEW_COLUMNS)
    .expression(newNotifications(db, values, audience))
    .onConflict((oc) => oc.columns(["item_kind", "item_id", "user_id"]).doNothing());
}

/** The values a variant's statement takes (prepared() refuses a listed value the statement does not take). */
function namesOf(variant: Variant, statement: "upsert" | "update" | "insert"): readonly (keyof FanOutValues)[] {
  if (statement === "insert") return COMMON_VALUES;
  if (statement === "upsert")
    return variant === "commentDeleted" ? [...COMMON_VALUES, ...DELETED_VALUES] : COMMON_VALUES;
  const names: (keyof FanOutValues)[] = ["groupId", "itemKind", "itemId", "actorId", "skippedUserId", "event", "at"];
  if (variant === "comment" || variant === "commentDeleted") names.push("commentNumber");
  if (variant === "updatedBody") names.push("summaryUpdatedAt", "summaryUpdatorId");
  if (variant === "commentDeleted") names.push(...DELETED_VALUES);
  return names;
}

/**
 * One compiled statement per variant and step: Kysely took about 160 µs to build and compile the
 * fan-out on every write; compiled once, a fan-out to an empty group costs about 40 µs in all
 * (measured).
 */
const STATEMENTS = new Map<string, PreparedQuery<FanOutValues, unknown>>();

function statementOf(
  variant: Variant,
  audience: Audience,
  statement: "upsert" | "update" | "insert",
  build: (
    db: Kysely<Database>,
    values: FanOutValues,
  ) =>
    ReturnType<typeof upsertStatement> | ReturnType<typeof updateStatement> | ReturnType<typeof insertMissingStatement>,
): PreparedQuery<FanOutValues, unknown> {
  const key = `${statement}:${variant}:${audience}`;
  let compiled = STATEMENTS.get(key);
  if (compiled === undefined) {
    compiled = prepared<FanOutValues, unknown>(namesOf(variant, statement), build);
    STATEMENTS.set(key, compiled);
  }
  return compiled;
}

/**
 * Creates, or brings to the top unconfirmed, the item's notification of every joined member of its
 * group but the actor: one INSERT ... SELECT over the memberships with an upsert, whatever the
 * group's size. PostgreSQL's: the upsert takes each row's lock, so two transactions fanning out
 * the same item at once both count (the second updates what the first inserted).
 */
export async function fanOutNotifications(db: Kysely<Database>, event: NotificationEvent): Promise<void> {
  const variant = variantOf(event.cause);
  const audience = audienceOf(event);
  await statementOf(variant, audience, "upsert", (handle, values) =>
    upsertStatement(handle, variant, values, audience),
  )(db, valuesOf(event));
}

/**
 * The same as {@link fanOutNotifications} in two set-based statements, for SQLite: update the
 * members' notifications of the item that exist, then insert the missing ones. SQLite's writers
 * take turns, so nothing comes between the two. Why not the upsert: inside a transaction SQLite
 * first copies each page a statement changes into a statement journal, to undo that statement
 * alone if it aborts, and an upsert's update part always may. These two can only fail, given the
 * table's `on conflict fail` constraints (migrations/0008-notification-layout.ts), so they need no
 * such copy; a failed statement's rows go with its transaction (the fan-out always runs in one).
 * In the steady state of a group of 5,000 members that copy was about a quarter of the fan-out's
 * time.
 */
export async function fanOutNotificationsInTwoSteps(db: Kysely<Database>, event: NotificationEvent): Promise<void> {
  const variant = variantOf(event.cause);
  const values = valuesOf(event);
  const audience = audienceOf(event);
  await statementOf(variant, audience, "update", (handle, named) => updateStatement(handle, variant, named, audience))(
    db,
    values,
  );
  await statementOf(variant, audience, "insert", (handle, named) => insertMissingStatement(handle, named, audience))(
    db,
    values,
  );
}
