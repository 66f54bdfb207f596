import { type Kysely, type Migration, sql } from "kysely";

/**
 * Indexes of a group's event list (docs/architecture.md "Event windows"), one per kind of event.
 * One-off events: a range on start_at whose entries hold every column the list places them by,
 * so they are placed without reading the table (a 2,000-event group read about 1,200 table rows
 * a request through `events_group_start` to keep 130). Repeating events: only the group's series,
 * however many one-off events it has. Both are partial on `rule` (both engines have partial
 * indexes), and the list's queries repeat that condition word for word so that each engine picks
 * them. `rule` is in the one-off index although always null there: SQLite counts a column named
 * by the query's condition as one the index must hold to cover the query.
 */
export const eventWindows = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex("events_one_off_window")
      .on("events")
      .columns(["group_id", "start_at", "end_at", "id", "all_day", "time_zone", "rule"])
      .where(sql.ref("rule"), "is", null)
      .execute();
    await db.schema
      .createIndex("events_series_window")
      .on("events")
      .columns(["group_id", "start_at"])
      .where(sql.ref("rule"), "is not", null)
      .execute();
  },
});
