import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { ContentRef } from "../../domain/item-id.js";

/** When each user last confirmed a parent's comments (written by notifications). */
export interface CommentReadRepo {
  /** The time of the user's last confirmation of the parent; undefined when never. */
  find(userId: number, parent: ContentRef): Promise<number | undefined>;
  confirm(userId: number, parent: ContentRef, at: number): Promise<void>;
  /** Records a confirmation of each parent at once (confirming notifications). */
  confirmMany(userId: number, parents: readonly ContentRef[], at: number): Promise<void>;
  /** Forgets every confirmation of the parent (it is being deleted). */
  removeAllOf(parent: ContentRef): Promise<void>;
}

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
