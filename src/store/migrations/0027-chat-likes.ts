import type { Kysely, Migration } from "kysely";
import { CHAT_LIKE_NOTIFICATIONS } from "../change-tracking.js";
import { statementTriggers } from "./0009-change-versions.postgres.js";
import { rowTriggers } from "./0009-change-versions.sqlite.js";
import { type Engine, columnTypes } from "./columns.js";

/**
 * Likes of chat messages and the like notifications they raise (docs/api.md "Chat"). Apart from
 * `likes` and `like_notifications` because a room belongs to no group (those tables key every row
 * by its group); keyed by the message's room and number, as message ids are. Deleting a message
 * removes its rows in the same transaction; deleting a room cascades. Every write of a like
 * notification moves its owner's change version (the like-notification feed is cached; a room is
 * in no group, so no group version covers it): store/change-tracking.ts.
 */
export const chatLikes = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const t = columnTypes(engine);
    await db.schema
      .createTable("chat_likes")
      .addColumn("room_id", t.int64, (c) => c.notNull().references("chat_rooms.id").onDelete("cascade"))
      .addColumn("message_number", t.int32, (c) => c.notNull())
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addPrimaryKeyConstraint("chat_likes_pk", ["room_id", "message_number", "user_id"])
      .execute();
    await db.schema
      .createTable("chat_like_notifications")
      .addColumn("id", t.int64, t.id)
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("room_id", t.int64, (c) => c.notNull().references("chat_rooms.id").onDelete("cascade"))
      .addColumn("message_number", t.int32, (c) => c.notNull())
      .addColumn("confirmed", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .addColumn("confirmed_at", t.int64)
      .addUniqueConstraint("chat_like_notifications_item_user", ["room_id", "message_number", "user_id"])
      .execute();
    // The owner's newest-first pages, as like_notifications_user_page.
    await db.schema
      .createIndex("chat_like_notifications_user_page")
      .on("chat_like_notifications")
      .columns(["user_id", "updated_at", "id", "confirmed"])
      .execute();
    if (engine === "sqlite") {
      await rowTriggers(db, CHAT_LIKE_NOTIFICATIONS, [{ table: "member_changes", key: (row) => `${row}.user_id` }]);
    } else {
      // kairan_member_rows_changed() is 0009's: it moves the touched rows' user_id versions.
      await statementTriggers(db, CHAT_LIKE_NOTIFICATIONS, "kairan_member_rows_changed");
    }
  },
});
