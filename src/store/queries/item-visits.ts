import type { Kysely } from "kysely";
import type { ContentKind } from "../../domain/kinds.js";
import type { ContentRef } from "../../domain/item-id.js";
import type { Database } from "../schema.js";

/** What a reader has seen of some items of one group: their visits, and the group's "mark all read". */
export interface SeenItems {
  /** The reader's last "mark all read" of the group; undefined when never. */
  readonly groupReadAt: number | undefined;
  /** The reader's last visit of each item they opened (absent: never). */
  readonly visits: ReadonlyMap<number, number>;
}

/** Readers' visits of items and "mark all read" of groups (migration 0048). */
export interface ItemVisitRepo {
  /** Records that the user opened the item now: one upsert of one row. */
  visit(userId: number, item: ContentRef, at: number): Promise<void>;
  /** Everything of the group counts as seen by the user from `at` on: one upsert of one row. */
  readAll(userId: number, groupId: number, at: number): Promise<void>;
  /** The user's visits of these items of one kind and group, and the group's "mark all read". */
  seen(userId: number, groupId: number, kind: ContentKind, ids: readonly number[]): Promise<SeenItems>;
  /**
   * Per item, how many comments others wrote after the given time (items without any are absent):
   * one query for a page of items.
   */
  commentsAfter(userId: number, kind: ContentKind, after: ReadonlyMap<number, number>): Promise<Map<number, number>>;
  /** Forgets the item's visits (it is being deleted). */
  removeAllOf(item: ContentRef): Promise<void>;
}

/** Visit queries. */
export function itemVisitRepo(db: Kysely<Database>): ItemVisitRepo {
  return {
    async visit(userId, item, at) {
      await db
        .insertInto("item_visits")
        .values({ user_id: userId, item_kind: item.kind, item_id: item.id, group_id: item.groupId, seen_at: at })
        .onConflict((oc) => oc.columns(["user_id", "item_kind", "item_id"]).doUpdateSet({ seen_at: at }))
        .execute();
    },
    async readAll(userId, groupId, at) {
      await db
        .insertInto("group_reads")
        .values({ user_id: userId, group_id: groupId, read_at: at })
        .onConflict((oc) => oc.columns(["user_id", "group_id"]).doUpdateSet({ read_at: at }))
        .execute();
    },
    async seen(userId, groupId, kind, ids) {
      const group = await db
        .selectFrom("group_reads")
        .select("read_at")
        .where("user_id", "=", userId)
        .where("group_id", "=", groupId)
        .executeTakeFirst();
      const rows =
        ids.length === 0
          ? []
          : await db
              .selectFrom("item_visits")
              .select(["item_id", "seen_at"])
              .where("user_id", "=", userId)
              .where("item_kind", "=", kind)
              .where("item_id", "in", ids)
              .execute();
      return {
        groupReadAt: group === undefined ? undefined : Number(group.read_at),
        visits: new Map(rows.map((row) => [Number(row.item_id), Number(row.seen_at)])),
      };
    },
    async commentsAfter(userId, kind, after) {
      if (after.size === 0) return new Map();
      const rows = await db
        .selectFrom("comments")
        .select((eb) => ["parent_id", eb.fn.countAll<number | string>().as("count")])
        .where("parent_kind", "=", kind)
        .where("author_id", "!=", userId)
        .where((eb) =>
          eb.or([...after].map(([id, at]) => eb.and([eb("parent_id", "=", id), eb("created_at", ">", at)]))),
        )
        .groupBy("parent_id")
        .execute();
      return new Map(rows.map((row) => [Number(row.parent_id), Number(row.count)]));
    },
    async removeAllOf(item) {
      await db.deleteFrom("item_visits").where("item_kind", "=", item.kind).where("item_id", "=", item.id).execute();
    },
  };
}
