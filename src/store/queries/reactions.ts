import { type Kysely, sql } from "kysely";
import type { ItemKey, Liker, LikeSummary } from "../../domain/reaction.js";
import type { Database } from "../schema.js";
import type { ItemKind } from "../schema-activity.js";
import type { PageWindow } from "../page-window.js";

/** Likes: one row per (user, item). */
export interface LikeRepo {
  /** Idempotent: liking twice leaves one like; true when this call added it. */
  add(userId: number, item: ItemKey, groupId: number, at: number): Promise<boolean>;
  /** True when there was a like to remove. */
  remove(userId: number, item: ItemKey): Promise<boolean>;
  /** Who liked the item, first liker first. */
  likers(item: ItemKey): Promise<Liker[]>;
  /** Who liked each of these items of one kind, first liker first (absent = nobody). */
  likersOf(kind: ItemKey["kind"], ids: readonly number[]): Promise<Map<number, Liker[]>>;
  /** Count and the viewer's own like, for each of these items of one kind (absent = no likes). */
  summarize(kind: ItemKey["kind"], ids: readonly number[], viewerId: number): Promise<Map<number, LikeSummary>>;
  /** Removes every like of these items (they are being deleted). */
  removeItems(kind: ItemKey["kind"], ids: readonly number[]): Promise<void>;
}

/** A favorite as stored. */
export interface FavoriteRow {
  readonly item: ItemKey;
  readonly groupId: number;
  readonly createdAt: number;
}

/** Favorites: one row per (user, item). */
export interface FavoriteRepo {
  /** Idempotent: favoriting twice leaves one favorite; true when this call added it. */
  add(userId: number, item: ItemKey, groupId: number, at: number): Promise<boolean>;
  /** True when there was a favorite to remove. */
  remove(userId: number, item: ItemKey): Promise<boolean>;
  find(userId: number, item: ItemKey): Promise<FavoriteRow | undefined>;
  /** The user's favorites in groups the user has joined, newest first. */
  list(userId: number, page: PageWindow): Promise<FavoriteRow[]>;
  /** Which of these items of one kind the user has favorited. */
  setOf(userId: number, kind: ItemKey["kind"], ids: readonly number[]): Promise<Set<number>>;
  /** Removes every favorite of these items (they are being deleted). */
  removeItems(kind: ItemKey["kind"], ids: readonly number[]): Promise<void>;
}

/** The writes likes and favorites share: the two tables have the same shape and key. */
function reactionWrites(
  db: Kysely<Database>,
  table: "likes" | "favorites",
): Pick<LikeRepo, "add" | "remove" | "removeItems"> {
  return {
    async add(userId, item, groupId, at) {
      const result = await db
        .insertInto(table)
        .values({ user_id: userId, item_kind: item.kind, item_id: item.id, group_id: groupId, created_at: at })
        .onConflict((oc) => oc.columns(["user_id", "item_kind", "item_id"]).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async remove(userId, item) {
      const result = await db
        .deleteFrom(table)
        .where("user_id", "=", userId)
        .where("item_kind", "=", item.kind)
        .where("item_id", "=", item.id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async removeItems(kind, ids) {
      if (ids.length > 0)
        await db.deleteFrom(table).where("item_kind", "=", kind).where("item_id", "in", ids).execute();
    },
  };
}

/** Who liked these items of one kind (the item, the user's id and name), first liker first. */
export function selectLikers(db: Kysely<Database>, kind: ItemKind, ids: readonly number[]) {
  return db
    .selectFrom("likes")
    .innerJoin("users", "users.id", "likes.user_id")
    .select(["likes.item_id", "users.id", "users.name"])
    .where("likes.item_kind", "=", kind)
    .where("likes.item_id", "in", ids)
    .orderBy("likes.created_at")
    .orderBy("users.id");
}

/** Like queries. */
export function likeRepo(db: Kysely<Database>): LikeRepo {
  const likersOf: LikeRepo["likersOf"] = async (kind, ids) => {
    const out = new Map<number, Liker[]>();
    if (ids.length === 0) return out;
    const rows = await selectLikers(db, kind, ids).execute();
    for (const row of rows) {
      const list = out.get(row.item_id) ?? [];
      list.push({ userId: row.id, name: row.name });
      out.set(row.item_id, list);
    }
    return out;
  };
  return {
    ...reactionWrites(db, "likes"),
    likersOf,
    async likers(item) {
      return (await likersOf(item.kind, [item.id])).get(item.id) ?? [];
    },
    async summarize(kind, ids, viewerId) {
      const out = new Map<number, LikeSummary>();
      if (ids.length === 0) return out;
      const rows = await db
        .selectFrom("likes")
        .select((eb) => [
          "item_id",
          eb.fn.countAll<number | string>().as("count"),
          // Portable: SUM of a CASE works the same on SQLite and PostgreSQL.
          sql<number | string>`sum(case when ${eb.ref("user_id")} = ${viewerId} then 1 else 0 end)`.as("mine"),
        ])
        .where("item_kind", "=", kind)
        .where("item_id", "in", ids)
        .groupBy("item_id")
        .execute();
      for (const row of rows) out.set(row.item_id, { count: Number(row.count), mine: Number(row.mine) > 0 });
      return out;
    },
  };
}

function toFavorite(row: { item_kind: ItemKind; item_id: number; group_id: number; created_at: number }): FavoriteRow {
  return { item: { kind: row.item_kind, id: row.item_id }, groupId: row.group_id, createdAt: row.created_at };
}

/** Favorite queries. */
export function favoriteRepo(db: Kysely<Database>): FavoriteRepo {
  return {
    ...reactionWrites(db, "favorites"),
    async find(userId, item) {
      const row = await db
        .selectFrom("favorites")
        .select(["item_kind", "item_id", "group_id", "created_at"])
        .where("user_id", "=", userId)
        .where("item_kind", "=", item.kind)
        .where("item_id", "=", item.id)
        .executeTakeFirst();
      return row && toFavorite(row);
    },
    async list(userId, page) {
      // Favorites in groups the user has left stay stored but are not shown (their items are not readable).
      const rows = await db
        .selectFrom("favorites")
        .innerJoin("memberships", (join) =>
          join
            .onRef("memberships.group_id", "=", "favorites.group_id")
            .onRef("memberships.user_id", "=", "favorites.user_id"),
        )
        .select(["favorites.item_kind", "favorites.item_id", "favorites.group_id", "favorites.created_at"])
        .where("favorites.user_id", "=", userId)
        .where("memberships.status", "=", "JOIN")
        .orderBy("favorites.created_at", "desc")
        .orderBy("favorites.item_kind")
        .orderBy("favorites.item_id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toFavorite);
    },
    async setOf(userId, kind, ids) {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom("favorites")
        .select("item_id")
        .where("user_id", "=", userId)
        .where("item_kind", "=", kind)
        .where("item_id", "in", ids)
        .execute();
      return new Set(rows.map((row) => row.item_id));
    },
  };
}
