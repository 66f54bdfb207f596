import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Personal events (docs/api.md "Personal schedule"): a user's own events and the exceptions of
 * the repeating ones. Their own tables rather than the group events' with a nullable group: group
 * events keep their group-first indexes and change triggers untouched, and a personal event can
 * never be read through a group by mistake. No change triggers: the personal schedule is built
 * afresh on every request, outside the feed cache.
 */
export const personalEvents = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("personal_events")
      .addColumn("id", t.int64, t.id)
      .addColumn("owner_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("memo", "text", (c) => c.notNull())
      .addColumn("start_at", t.int64, (c) => c.notNull())
      .addColumn("end_at", t.int64, (c) => c.notNull())
      .addColumn("all_day", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("time_zone", "text", (c) => c.notNull())
      .addColumn("rule", "text")
      .addColumn("series_end", t.int64)
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .execute();
    // A window of one owner's one-off events is a range on start_at, as for a group's events.
    await db.schema
      .createIndex("personal_events_owner_start")
      .on("personal_events")
      .columns(["owner_id", "start_at", "id"])
      .execute();
    await db.schema
      .createTable("personal_event_exceptions")
      .addColumn("event_id", t.int64, (c) => c.notNull().references("personal_events.id").onDelete("cascade"))
      .addColumn("original_start", t.int64, (c) => c.notNull())
      .addColumn("cancelled", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("start_at", t.int64)
      .addColumn("end_at", t.int64)
      .addPrimaryKeyConstraint("personal_event_exceptions_pk", ["event_id", "original_start"])
      .execute();
  },
});
