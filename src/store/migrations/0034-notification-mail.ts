import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Notification mail (docs/operations.md "Notification mail"): each person's choices, the groups
 * they turned off, and the work of the mailer that runs beside the sender.
 *
 * A change is logged once in `mail_changes` in the transaction of the change (one row per write,
 * plus one per person it names: a mention, an assignment, a direct message), never one per member;
 * the mailer turns due rows into outbox messages later, in batches (`mail_batches` keeps how far a
 * batch of recipients got, `mail_digest_slots` how far each daily digest hour got), so a post to a
 * 5,000-member group costs the same with mail on as with mail off.
 */
export const notificationMail = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    // One row per person who chose; no row: the defaults (domain/mail-settings.ts).
    await db.schema
      .createTable("mail_settings")
      .addColumn("user_id", t.int64, (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      // Changes in the person's groups: each | digest | off.
      .addColumn("mode", "text", (c) => c.notNull())
      // The local hour (0-23, the person's time zone) of the daily digest.
      .addColumn("digest_hour", t.int32, (c) => c.notNull())
      // 1: mentions, assignments and unread direct messages are mailed at once.
      .addColumn("personal", t.int32, (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .execute();
    // A row: no mail about this group for this person ("follow the default" is no row).
    await db.schema
      .createTable("mail_group_settings")
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("mail_group_settings_pk", ["user_id", "group_id"])
      .execute();
    await db.schema
      .createTable("mail_changes")
      .addColumn("id", t.int64, t.id)
      // null for a direct message (a room is in no group).
      .addColumn("group_id", t.int64)
      // BOARD, TASK, CABINET, GW_SCHEDULE, GROUP (the member list) or CHAT (a room).
      .addColumn("item_kind", "text", (c) => c.notNull())
      .addColumn("item_id", t.int64, (c) => c.notNull())
      .addColumn("actor_id", t.int64)
      // created, updated, edited, comment, joined, left; for one person: mention, assigned, chat.
      .addColumn("event", "text", (c) => c.notNull())
      // The comment (or chat message) the change wrote, if any.
      .addColumn("number", t.int32)
      // The one person a personal change is for; null: the item's readers.
      .addColumn("user_id", t.int64)
      .addColumn("at", t.int64, (c) => c.notNull())
      // 0 until the mailer took it (into a batch, or mailed or dropped a personal change).
      .addColumn("done", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("batch_id", t.int64)
      .execute();
    await db.schema.createIndex("mail_changes_pending").on("mail_changes").columns(["done", "at"]).execute();
    await db.schema.createIndex("mail_changes_group").on("mail_changes").columns(["group_id", "at"]).execute();
    await db.schema
      .createIndex("mail_changes_item")
      .on("mail_changes")
      .columns(["item_kind", "item_id", "at"])
      .execute();
    // A batch: one item's coalesced changes, mailed to its readers a page of recipients at a time.
    await db.schema
      .createTable("mail_batches")
      .addColumn("id", t.int64, t.id)
      .addColumn("group_id", t.int64, (c) => c.notNull())
      .addColumn("item_kind", "text", (c) => c.notNull())
      .addColumn("item_id", t.int64, (c) => c.notNull())
      // The batch holds the item's changes up to this time.
      .addColumn("window_end", t.int64, (c) => c.notNull())
      // Recipients with a larger user id are still to be mailed.
      .addColumn("next_user_id", t.int64, (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .execute();
    // The daily digest of one local hour of one time zone ("" = the site's): the latest slot and
    // how far its recipients got.
    await db.schema
      .createTable("mail_digest_slots")
      .addColumn("zone", "text", (c) => c.notNull())
      .addColumn("hour", t.int32, (c) => c.notNull())
      .addColumn("slot_at", t.int64, (c) => c.notNull())
      .addColumn("next_user_id", t.int64, (c) => c.notNull().defaultTo(0))
      .addColumn("done", t.int32, (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("mail_digest_slots_pk", ["zone", "hour"])
      .execute();
  },
});
