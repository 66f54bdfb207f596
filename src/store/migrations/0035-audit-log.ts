import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * The audit log: one row per administrative action or security event (services/audit/). Who and
 * what are kept as text beside their ids, so that a row still says who did what after the account,
 * group or application it names is deleted; the ids are for filtering and lose nothing when they
 * are set to null.
 */
export const auditLog = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("audit_events")
      .addColumn("id", t.int64, (c) => t.id(c))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      // `user.disable`, `sign-in.failed`... (domain/audit.ts).
      .addColumn("action", "text", (c) => c.notNull())
      // `done`, or `refused` (the action was tried and not allowed; nothing else changed).
      .addColumn("outcome", "text", (c) => c.notNull())
      .addColumn("actor_user_id", t.int64, (c) => c.references("users.id").onDelete("set null"))
      // "Name <email>" when done by a person, "kairan (command line)", "system", or the address tried.
      .addColumn("actor_label", "text", (c) => c.notNull())
      .addColumn("address", "text")
      .addColumn("target_kind", "text")
      .addColumn("target_id", "text")
      .addColumn("target_label", "text")
      // The group an action concerns: its managers see their group's part.
      .addColumn("group_id", t.int64, (c) => c.references("groups.id").onDelete("set null"))
      // JSON object: before/after values and whatever else the action names.
      .addColumn("details", "text", (c) => c.notNull().defaultTo("{}"))
      .execute();
    await db.schema.createIndex("audit_events_time").on("audit_events").columns(["created_at", "id"]).execute();
    await db.schema
      .createIndex("audit_events_group")
      .on("audit_events")
      .columns(["group_id", "created_at", "id"])
      .execute();
    await db.schema
      .createIndex("audit_events_actor")
      .on("audit_events")
      .columns(["actor_user_id", "created_at", "id"])
      .execute();
  },
});
