import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * The live event log (docs/architecture.md "Live updates"): one row per change a stream reports
 * (a notification fan-out, a like notification, a chat message), written in the transaction of the
 * change, never one per recipient: the reader resolves the audience when it fans the row out. Its
 * id is the stream's event id; rows older than an hour and a bit are pruned by the serving processes.
 */
export const liveEvents = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("live_events")
      .addColumn("id", t.int64, t.id)
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("group_id", t.int64)
      .addColumn("item_kind", "text")
      .addColumn("item_id", t.int64)
      .addColumn("number", t.int32)
      .addColumn("user_id", t.int64)
      .addColumn("at", t.int64, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("live_events_at").on("live_events").column("at").execute();
  },
});
