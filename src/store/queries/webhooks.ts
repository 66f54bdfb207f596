// Outgoing webhooks (migration 0052): the registrations, and the deliveries queue that is also
// their log. A change enqueues with one INSERT ... SELECT per audience, whatever the number of
// webhooks, and costs one indexed read when a group has none.
import { randomBytes } from "node:crypto";
import { type Kysely, type Selectable, type SelectQueryBuilder, sql } from "kysely";
import type { NotificationEvent } from "../../domain/notification.js";
import { type WebhookDeliveryStatus, type WebhookEvent, eventBit, itemEvent } from "../../domain/webhook.js";
import type { Database } from "../schema.js";
import type { WebhookDeliveriesTable, WebhooksTable } from "../schema-webhooks.js";
import type { Engine } from "./engine.js";
import { leaseQueue } from "./lease-queue.js";
import { type ItemTextRow, textOf, withItemText } from "./notification-items.js";

/** A registered webhook as the store holds it (the secret still sealed). */
export type WebhookRow = Selectable<WebhooksTable>;

/** A delivery (queue row and log line). */
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

/** A change some webhooks may hear of. */
export interface WebhookChange {
  readonly event: WebhookEvent;
  /** What the row names as its event, when not `event` (`notification:topic.created`). */
  readonly label?: string;
  /** The item's group; null for a chat room's message. */
  readonly groupId: number | null;
  readonly itemKind: string;
  readonly itemId: number;
  readonly number: number | null;
  readonly actorId: number | null;
  readonly at: number;
  /** The body, when it must be fixed at the change (a deletion: the item is gone after). */
  readonly payload?: string;
}

/** Who hears of a change besides the group's webhooks. */
export type PersonalAudience =
  | { readonly kind: "groupMembers"; readonly groupId: number }
  | { readonly kind: "roomMembers"; readonly roomId: number };

/** The outcome of one attempt. */
export interface WebhookAttempt {
  readonly at: number;
  readonly status: number | null;
  readonly excerpt: string | null;
  readonly error: string | null;
  /** Where the delivery goes next: sent, retried at `nextAt`, or failed. */
  readonly outcome:
    { readonly kind: "sent" } | { readonly kind: "retry"; readonly nextAt: number } | { readonly kind: "failed" };
}

/** The webhook queries. */
export interface WebhookRepo {
  create(input: {
    groupId: number | null;
    ownerId: number | null;
    url: string;
    secret: string;
    events: number;
    at: number;
  }): Promise<number>;
  /** The webhooks of a group (groupId) or a person's own (ownerId, groupId null), oldest first. */
  list(scope: { groupId: number } | { ownerId: number }): Promise<WebhookRow[]>;
  find(id: number): Promise<WebhookRow | undefined>;
  /** Every webhook (`kairan webhook list` without a group). */
  all(): Promise<WebhookRow[]>;
  remove(id: number): Promise<void>;
  /** Enables (failures back to 0) or disables a webhook; disabling fails its queued deliveries. */
  setDisabled(id: number, at: number | null): Promise<void>;
  /** Queues the change for the group's enabled webhooks that chose its event; returns how many. */
  enqueueForGroup(change: WebhookChange & { readonly groupId: number }): Promise<number>;
  /** Queues the change for the enabled personal webhooks of the audience (not the actor's) that chose `event`. */
  enqueueForPeople(change: WebhookChange, audience: PersonalAudience): Promise<number>;
  nextAttemptAt(now: number): Promise<number | undefined>;
  claimDue(now: number, until: number, limit: number): Promise<WebhookDeliveryRow[]>;
  /** Gives back every claim (at start: a stopped process's); returns how many. */
  releaseAllClaims(): Promise<number>;
  releaseClaims(ids: readonly number[]): Promise<void>;
  setPayload(id: number, payload: string): Promise<void>;
  /** Records an attempt; returns the webhook's consecutive failed attempts after it. */
  recordAttempt(delivery: WebhookDeliveryRow, attempt: WebhookAttempt): Promise<number>;
  /** Marks a delivery not sent: its owner may no longer read what it tells. */
  skip(id: number, at: number, reason: string): Promise<void>;
  /** A webhook's deliveries, newest first. */
  deliveries(webhookId: number, limit: number): Promise<WebhookDeliveryRow[]>;
  findDelivery(id: number): Promise<WebhookDeliveryRow | undefined>;
  /** Queues a copy of a delivery (same message id and body) due at once; returns its id. */
  redeliver(delivery: WebhookDeliveryRow, at: number): Promise<number>;
  /** Deletes finished deliveries made before `before`. */
  prune(before: number): Promise<void>;
  /** Seals the secret of a webhook just made (its id is part of what the seal is bound to). */
  setSecret(id: number, sealed: string): Promise<void>;
  /** The group's name and the item's title and text, as a delivery names them; undefined when the item is gone. */
  itemText(deliveryId: number): Promise<{ groupName: string; title: string; body: string } | undefined>;
}

/** A Standard Webhooks message id: `msg_` and random characters; the webhook's id is appended per row. */
function messagePrefix(): string {
  return `msg_${randomBytes(12).toString("base64url")}_`;
}

/** Webhook queries over a connection or transaction. */
export function webhookRepo(db: Kysely<Database>, engine: Engine): WebhookRepo {
  /** The delivery rows of `change` for the webhooks `chosen` selects. */
  const enqueue = async (change: WebhookChange, chosen: (query: EnabledQuery) => EnabledQuery): Promise<number> => {
    const prefix = messagePrefix();
    const base = db
      .selectFrom("webhooks as w")
      .where("w.disabled_at", "is", null)
      .where(sql<boolean>`(w.events & ${eventBit(change.event)}) <> 0`);
    // Typed values: PostgreSQL infers no type for a bare parameter in a SELECT list.
    const int = (value: number | null) => sql<number | null>`cast(${value} as bigint)`;
    const text = (value: string | null) => sql<string | null>`cast(${value} as text)`;
    const select = chosen(base).select((eb) => [
      "w.id as webhook_id",
      sql<string>`${text(prefix)} || cast(${eb.ref("w.id")} as text)`.as("message_id"),
      text(change.label ?? change.event).as("event"),
      int(change.groupId).as("group_id"),
      text(change.itemKind).as("item_kind"),
      int(change.itemId).as("item_id"),
      int(change.number).as("number"),
      int(change.actorId).as("actor_id"),
      int(change.at).as("changed_at"),
      text(change.payload ?? null).as("payload"),
      int(change.at).as("created_at"),
      int(change.at).as("next_attempt_at"),
    ]);
    const inserted = await db
      .insertInto("webhook_deliveries")
      .columns([
        "webhook_id",
        "message_id",
        "event",
        "group_id",
        "item_kind",
        "item_id",
        "number",
        "actor_id",
        "changed_at",
        "payload",
        "created_at",
        "next_attempt_at",
      ])
      .expression(select)
      .returning("id")
      .execute();
    const queued = inserted.length;
    if (queued > 0) enqueuedTally.count += 1;
    return queued;
  };
  const lease = leaseQueue(db, engine, "webhook_deliveries", true);
  return {
    nextAttemptAt: lease.nextAttemptAt,
    claimDue: lease.claimDue,
    releaseAllClaims: lease.releaseAllClaims,
    releaseClaims: lease.releaseClaims,
    async create(input) {
      const row = await db
        .insertInto("webhooks")
        .values({
          group_id: input.groupId,
          owner_id: input.ownerId,
          url: input.url,
          secret: input.secret,
          events: input.events,
          created_at: input.at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async list(scope) {
      let query = db.selectFrom("webhooks").selectAll();
      query =
        "groupId" in scope
          ? query.where("group_id", "=", scope.groupId)
          : query.where("owner_id", "=", scope.ownerId).where("group_id", "is", null);
      return query.orderBy("id").execute();
    },
    async find(id) {
      return db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async all() {
      return db.selectFrom("webhooks").selectAll().orderBy("id").execute();
    },
    async remove(id) {
      await db.deleteFrom("webhook_deliveries").where("webhook_id", "=", id).execute();
      await db.deleteFrom("webhooks").where("id", "=", id).execute();
    },
    async setDisabled(id, at) {
      await db
        .updateTable("webhooks")
        .set(at === null ? { disabled_at: null, failures: 0 } : { disabled_at: at })
        .where("id", "=", id)
        .execute();
      if (at !== null)
        await db
          .updateTable("webhook_deliveries")
          .set({ status: "failed", claimed_until: null, last_error: "the webhook is disabled" })
          .where("webhook_id", "=", id)
          .where("status", "=", "queued")
          .execute();
    },
    enqueueForGroup(change) {
      return enqueue(change, (query) => query.where("w.group_id", "=", change.groupId));
    },
    enqueueForPeople(change, audience) {
      return enqueue(change, (query) => {
        const personal = query.where("w.group_id", "is", null);
        const notActor = change.actorId === null ? personal : personal.where("w.owner_id", "<>", change.actorId);
        return audience.kind === "groupMembers"
          ? notActor.where(({ exists, selectFrom }) =>
              exists(
                selectFrom("memberships as m")
                  .select(sql<number>`1`.as("one"))
                  .whereRef("m.user_id", "=", "w.owner_id")
                  .where("m.group_id", "=", audience.groupId)
                  .where("m.status", "=", "JOIN")
                  .where("m.notify", "=", 1),
              ),
            )
          : notActor.where(({ exists, selectFrom }) =>
              exists(
                selectFrom("chat_members as c")
                  .select(sql<number>`1`.as("one"))
                  .whereRef("c.user_id", "=", "w.owner_id")
                  .where("c.room_id", "=", audience.roomId),
              ),
            );
      });
    },
    async setPayload(id, payload) {
      await db.updateTable("webhook_deliveries").set({ payload }).where("id", "=", id).execute();
    },
    async recordAttempt(delivery, attempt) {
      const status: WebhookDeliveryStatus =
        attempt.outcome.kind === "sent" ? "sent" : attempt.outcome.kind === "retry" ? "queued" : "failed";
      await db
        .updateTable("webhook_deliveries")
        .set((eb) => ({
          status,
          attempts: eb("attempts", "+", 1),
          next_attempt_at: attempt.outcome.kind === "retry" ? attempt.outcome.nextAt : eb.ref("next_attempt_at"),
          claimed_until: null,
          last_attempt_at: attempt.at,
          response_status: attempt.status,
          response_excerpt: attempt.excerpt,
          last_error: attempt.error,
        }))
        .where("id", "=", delivery.id)
        .execute();
      const sent = attempt.outcome.kind === "sent";
      await db
        .updateTable("webhooks")
        .set((eb) => ({ failures: sent ? 0 : eb("failures", "+", 1) }))
        .where("id", "=", delivery.webhook_id)
        .execute();
      const row = await db
        .selectFrom("webhooks")
        .select("failures")
        .where("id", "=", delivery.webhook_id)
        .executeTakeFirst();
      return row?.failures ?? 0;
    },
    async skip(id, at, reason) {
      await db
        .updateTable("webhook_deliveries")
        .set({ status: "skipped", claimed_until: null, last_attempt_at: at, last_error: reason })
        .where("id", "=", id)
        .execute();
    },
    async deliveries(webhookId, limit) {
      return db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("webhook_id", "=", webhookId)
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },
    async findDelivery(id) {
      return db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async redeliver(delivery, at) {
      const row = await db
        .insertInto("webhook_deliveries")
        .values({
          webhook_id: delivery.webhook_id,
          message_id: delivery.message_id,
          event: delivery.event,
          group_id: delivery.group_id,
          item_kind: delivery.item_kind,
          item_id: delivery.item_id,
          number: delivery.number,
          actor_id: delivery.actor_id,
          changed_at: delivery.changed_at,
          payload: delivery.payload,
          created_at: at,
          next_attempt_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      enqueuedTally.count += 1;
      return row.id;
    },
    async setSecret(id, sealed) {
      await db.updateTable("webhooks").set({ secret: sealed }).where("id", "=", id).execute();
    },
    async itemText(deliveryId) {
      const row = await withItemText(
        db
          .selectFrom("webhook_deliveries as n")
          .innerJoin("groups as g", "g.id", "n.group_id")
          .select(["n.item_kind", "n.item_id"])
          .where("n.id", "=", deliveryId),
      )
        .select(["t.id as topic_id", "k.id as task_id", "f.id as file_id", "e.id as event_id"])
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const kind = row.item_kind as ItemTextRow["item_kind"];
      const exists =
        kind === "GROUP" ||
        (kind === "BOARD" && row.topic_id !== null) ||
        (kind === "TASK" && row.task_id !== null) ||
        (kind === "CABINET" && row.file_id !== null) ||
        (kind === "GW_SCHEDULE" && row.event_id !== null);
      if (!exists) return undefined;
      const text = textOf({ ...row, item_kind: kind });
      return { groupName: row.group_name, title: text.title, body: text.body };
    },
    async prune(before) {
      await db
        .deleteFrom("webhook_deliveries")
        .where("status", "<>", "queued")
        .where("created_at", "<", before)
        .execute();
    },
  };
}

/** The base of an enqueue's SELECT: the webhooks, as `w`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Kysely's type of "nothing selected yet"
type EnabledQuery = SelectQueryBuilder<Database & { w: WebhooksTable }, "w", {}>;

/** Changes enqueued by this process so far: the sender's wake compares it around a transaction. */
export const enqueuedTally = { count: 0 };

/** The webhook event of a notification fan-out's change. */
export function webhookEventOf(event: NotificationEvent): WebhookEvent {
  const { cause, item } = event;
  if (item.kind === "GROUP") return cause.kind === "left" ? "member.left" : "member.joined";
  switch (cause.kind) {
    case "comment":
      return "comment.created";
    case "commentDeleted":
      return "comment.deleted";
    case "updated":
      return itemEvent(item.kind, "updated");
    default:
      return itemEvent(item.kind, "created");
  }
}

/**
 * Queues what a notification fan-out tells: the change for the group's webhooks, and a
 * `notification` for the personal webhooks of the members it notifies (not the actor, nor those
 * who turned the group's notifications off). Called by the fan-out itself, in its transaction, so
 * every service's writes reach webhooks without each service knowing of them.
 */
export async function enqueueNotificationEvent(repo: WebhookRepo, event: NotificationEvent): Promise<void> {
  const { cause, item } = event;
  const number = cause.kind === "comment" || cause.kind === "commentDeleted" ? cause.number : null;
  const change = {
    groupId: item.groupId,
    itemKind: item.kind,
    itemId: item.id,
    number,
    actorId: event.actorId,
    at: event.at,
  };
  await repo.enqueueForGroup({ ...change, event: webhookEventOf(event) });
  const label = `notification:${webhookEventOf(event)}`;
  await repo.enqueueForPeople(
    { ...change, event: "notification", label },
    { kind: "groupMembers", groupId: item.groupId },
  );
}
