import type { Kysely, Migration } from "kysely";
import { EVENT_GROUP_ROWS } from "../change-tracking.js";
import { rowTriggers } from "./0009-change-versions.sqlite.js";
import { statementTriggers } from "./0009-change-versions.postgres.js";
import { type Engine, columnTypes } from "./columns.js";

/**
 * Group events (docs/api.md "Events"): events, their participants, facilities and exceptions,
 * the group's event menus and facilities. Every table names its group in `group_id` (the child
 * tables too, copied from their event), so the change triggers of 0009 move the group's version
 * for any of them, as for topics (store/change-tracking.ts).
 * `series_end` bounds when a repeating event's last occurrence ends (null: the rule never ends),
 * so that a listing window reads only the series that can reach it (domain/recurrence.ts).
 */
export const events = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const t = columnTypes(engine);
    for (const table of ["event_menus", "facilities"]) {
      await db.schema
        .createTable(table)
        .addColumn("id", t.int64, t.id)
        .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", t.int64, (c) => c.notNull())
        .execute();
      await db.schema.createIndex(`${table}_group`).on(table).columns(["group_id", "id"]).execute();
    }
    await db.schema
      .createTable("events")
      .addColumn("id", t.int64, t.id)
      .addColumn("group_id", t.int64, (c) => c.notNull().references("groups.id").onDelete("cascade"))
      .addColumn("creator_id", t.int64, (c) => c.notNull().references("users.id"))
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("memo", "text", (c) => c.notNull())
      .addColumn("start_at", t.int64, (c) => c.notNull())
      .addColumn("end_at", t.int64, (c) => c.notNull())
      .addColumn("all_day", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("time_zone", "text", (c) => c.notNull())
      .addColumn("rule", "text")
      .addColumn("series_end", t.int64)
      .addColumn("menu_id", t.int64, (c) => c.references("event_menus.id").onDelete("set null"))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .execute();
    // One-off events of a window: a range on start_at (an event lasts at most 366 days, so its
    // start lies at most that far before the window); series are few and read by their group.
    await db.schema.createIndex("events_group_start").on("events").columns(["group_id", "start_at", "id"]).execute();
    await childTables(db, engine);
    for (const table of EVENT_GROUP_ROWS) {
      if (engine === "sqlite")
        await rowTriggers(db, table, [{ table: "group_changes", key: (row) => `${row}.group_id` }]);
      else await statementTriggers(db, table, "kairan_group_rows_changed");
    }
  },
});

async function childTables(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  const child = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn("event_id", t.int64, (c) => c.notNull().references("events.id").onDelete("cascade"))
      .addColumn("group_id", t.int64, (c) => c.notNull());
  await child("event_participants")
    .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("event_participants_pk", ["event_id", "user_id"])
    .execute();
  await child("event_facilities")
    .addColumn("facility_id", t.int64, (c) => c.notNull().references("facilities.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("event_facilities_pk", ["event_id", "facility_id"])
    .execute();
  await child("event_exceptions")
    .addColumn("original_start", t.int64, (c) => c.notNull())
    .addColumn("cancelled", t.int32, (c) => c.notNull().defaultTo(0))
    .addColumn("start_at", t.int64)
    .addColumn("end_at", t.int64)
    .addPrimaryKeyConstraint("event_exceptions_pk", ["event_id", "original_start"])
    .execute();
}
