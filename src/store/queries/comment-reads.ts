import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { CommentReadRepo } from "../store.js";

/** Comment confirmation queries. */
export function commentReadRepo(db: Kysely<Database>): CommentReadRepo {
  return {
    async find(userId, parent) {
      const row = await db
        .selectFrom("comment_reads")
        .select("confirmed_at")
        .where("user_id", "=", userId)
        .where("parent_kind", "=", parent.kind)
        .where("parent_id", "=", parent.id)
        .executeTakeFirst();
      return row?.confirmed_at;
    },
    async confirm(userId, parent, at) {
      await db
        .insertInto("comment_reads")
        .values({ user_id: userId, parent_kind: parent.kind, parent_id: parent.id, confirmed_at: at })
        .onConflict((oc) => oc.columns(["user_id", "parent_kind", "parent_id"]).doUpdateSet({ confirmed_at: at }))
        .execute();
    },
    async confirmMany(userId, parents, at) {
      if (parents.length === 0) return;
      await db
        .insertInto("comment_reads")
        .values(
          parents.map((parent) => ({
            user_id: userId,
            parent_kind: parent.kind,
            parent_id: parent.id,
            confirmed_at: at,
          })),
        )
        .onConflict((oc) => oc.columns(["user_id", "parent_kind", "parent_id"]).doUpdateSet({ confirmed_at: at }))
        .execute();
    },
    async removeAllOf(parent) {
      await db
        .deleteFrom("comment_reads")
        .where("parent_kind", "=", parent.kind)
        .where("parent_id", "=", parent.id)
        .execute();
    },
  };
}
