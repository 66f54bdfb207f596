import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Outgoing webhooks (issue #34). `webhooks`: an address a group's managers (group_id set) or a
 * person for their own notifications (group_id null) registered, the events it hears of as a bit
 * mask (domain/webhook.ts), its signing secret sealed with the site's key (auth/secret-box.ts), and
 * its run of consecutive failed attempts (it disables itself after WEBHOOK_LIMITS.disableAfterFailures).
 * `webhook_deliveries`: the durable queue and the delivery log at once. A row is written in the
 * transaction of the change it tells of (an outbox, like mail_outbox); its body is fixed at its
 * first attempt and sent unchanged on every retry and redelivery, under the same `message_id`
 * (the Standard Webhooks `webhook-id`, the receiver's idempotency key).
 */
export const webhooks = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("webhooks")
      .addColumn("id", t.int64, (c) => t.id(c))
      .addColumn("group_id", t.int64, (c) => c.references("groups.id").onDelete("cascade"))
      // null: made by the operator (`kairan webhook add`); a person's own webhook always has one.
      .addColumn("owner_id", t.int64, (c) => c.references("users.id").onDelete("cascade"))
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("events", t.int32, (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("disabled_at", t.int64)
      .addColumn("failures", t.int32, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("webhooks_group").on("webhooks").column("group_id").execute();
    await db.schema.createIndex("webhooks_owner").on("webhooks").column("owner_id").execute();
    await db.schema
      .createTable("webhook_deliveries")
      .addColumn("id", t.int64, (c) => t.id(c))
      .addColumn("webhook_id", t.int64, (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
      .addColumn("message_id", "text", (c) => c.notNull())
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("group_id", t.int64)
      .addColumn("item_kind", "text", (c) => c.notNull())
      .addColumn("item_id", t.int64, (c) => c.notNull())
      // The comment or chat message the change wrote.
      .addColumn("number", t.int64)
      .addColumn("actor_id", t.int64)
      .addColumn("changed_at", t.int64, (c) => c.notNull())
      // JSON, fixed at the first attempt (deletions: at the change, since the item is gone after).
      .addColumn("payload", "text")
      .addColumn("created_at", t.int64, (c) => c.notNull())
      // queued → sent, or failed (retries over, or the webhook disabled), or skipped (the owner may no longer read it).
      .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
      .addColumn("attempts", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", t.int64, (c) => c.notNull())
      .addColumn("claimed_until", t.int64)
      .addColumn("last_attempt_at", t.int64)
      .addColumn("response_status", t.int32)
      .addColumn("response_excerpt", "text")
      .addColumn("last_error", "text")
      .execute();
    await db.schema
      .createIndex("webhook_deliveries_due")
      .on("webhook_deliveries")
      .columns(["status", "next_attempt_at"])
      .execute();
    await db.schema
      .createIndex("webhook_deliveries_log")
      .on("webhook_deliveries")
      .columns(["webhook_id", "id"])
      .execute();
  },
});
