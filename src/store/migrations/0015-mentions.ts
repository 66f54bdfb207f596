import { type Kysely, type Migration, sql } from "kysely";
import { MENTION_CONFIRMATION } from "../change-tracking.js";
import { bump } from "./0009-change-versions.sqlite.js";
import { type Engine, columnTypes } from "./columns.js";

/**
 * Mention notifications (docs/api.md "Mentions"): one per (mentioned user, item), an item being a
 * topic, task or file whose body or comments named the user. `comment_number` is the comment of
 * the latest mention, null for the body. No foreign keys, as for notifications: removing an item
 * or a member removes their rows (services/comment/comment-detail.ts, services/member/member-admin.ts).
 * A confirmation moves the user's change version (store/change-tracking.ts); writing a mention
 * happens in the transaction of the item or comment write, which moves the group's already.
 */
export const mentions = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const t = columnTypes(engine);
    await db.schema
      .createTable("mentions")
      .addColumn("id", t.int64, t.id)
      .addColumn("user_id", t.int64, (c) => c.notNull())
      .addColumn("group_id", t.int64, (c) => c.notNull())
      .addColumn("item_kind", "text", (c) => c.notNull())
      .addColumn("item_id", t.int64, (c) => c.notNull())
      .addColumn("actor_id", t.int64)
      .addColumn("comment_number", t.int32)
      .addColumn("confirmed", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .addColumn("last_access_at", t.int64)
      .addUniqueConstraint("mentions_item_user", ["item_kind", "item_id", "user_id"])
      .execute();
    await db.schema.createIndex("mentions_user_page").on("mentions").columns(["user_id", "updated_at", "id"]).execute();
    const { table, column } = MENTION_CONFIRMATION;
    if (engine === "sqlite") {
      await sql`CREATE TRIGGER ${sql.raw(`${table}_confirmed`)} AFTER UPDATE OF ${sql.raw(column)} ON ${sql.table(table)}
        WHEN OLD.confirmed IS NOT NEW.confirmed OR OLD.${sql.raw(column)} IS NOT NEW.${sql.raw(column)}
        BEGIN ${sql.raw(bump("member_changes", "NEW.user_id"))}; END`.execute(db);
    } else {
      // kairan_confirmed() is 0009's: it moves NEW.user_id's version.
      await sql
        .raw(
          `CREATE TRIGGER ${table}_confirmed AFTER UPDATE OF ${column} ON ${table} FOR EACH ROW
        WHEN (OLD.confirmed IS DISTINCT FROM NEW.confirmed OR OLD.${column} IS DISTINCT FROM NEW.${column})
        EXECUTE FUNCTION kairan_confirmed()`,
        )
        .execute(db);
    }
  },
});
