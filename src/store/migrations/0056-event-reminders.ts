import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Mail reminders before group events (issue #31, "a calendar to plan with"): one row per person
 * per event they asked to be reminded of, with how long before, and when the next reminder is
 * due (null once the event has no occurrence left). The mailer reads the due ones off `next_at`.
 */
export const eventReminders = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("event_reminders")
      .addColumn("event_id", t.int64, (c) => c.notNull().references("events.id").onDelete("cascade"))
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("minutes_before", "integer", (c) => c.notNull())
      .addColumn("next_at", t.int64)
      .addPrimaryKeyConstraint("event_reminders_pk", ["event_id", "user_id"])
      .execute();
    await db.schema.createIndex("event_reminders_due").on("event_reminders").column("next_at").execute();
  },
});
