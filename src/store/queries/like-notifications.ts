import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { LikedItem, LikeNotification, UserMention } from "../../domain/notification.js";
import type { Database } from "../schema.js";
import type { ItemKind } from "../schema-activity.js";
import { joinedGroupIds } from "./notifications.js";
import { textOf as itemText, withItemText } from "./notification-items.js";
import { selectLikers } from "./reactions.js";
import type { PageWindow } from "../page-window.js";
import type { ItemKey } from "../../domain/reaction.js";
import type { RowOf } from "./rows.js";
import type { Engine } from "./engine.js";
import { liveEventRepo } from "./live-events.js";
import { chatLikeNotificationRepo, visibleChatLikeNotifications } from "./chat-like-notifications.js";

/** Like notifications: one per (owner, liked item). */
export interface LikeNotificationRepo {
  /** Creates, or brings to the top unconfirmed, the owner's like notification of the item. */
  touch(ownerId: number, item: LikedItem, commentId: number | null, at: number): Promise<void>;
  remove(ownerId: number, item: LikedItem): Promise<void>;
  /** The owner's like notification of the item while it is unconfirmed (the live stream's event). */
  unconfirmedOf(ownerId: number, item: LikedItem): Promise<LikeNotification | undefined>;
  /** A page of the user's like notifications, newest first, with their likers. */
  list(userId: number, filter: { readonly unconfirmedOnly: boolean }, page: PageWindow): Promise<LikeNotification[]>;
  count(userId: number, filter: { readonly unconfirmedOnly: boolean }): Promise<number>;
  /** Confirms the user's like notifications of these items; returns every one of them, newest first (idempotent). */
  confirm(userId: number, items: readonly LikedItem[], at: number): Promise<LikeNotification[]>;
  /**
   * Removes the like notifications of deleted items: a topic, task or file with its comments', or
   * comments by row id.
   */
  removeItems(kind: ItemKey["kind"], ids: readonly number[]): Promise<void>;
}

/** Like notifications with their item's title and text (a comment's: its parent's title, its own text). */
function selectDetails(db: Kysely<Database>) {
  return db
    .selectFrom("like_notifications as n")
    .innerJoin("groups as g", "g.id", "n.group_id")
    .$call(withItemText)
    .leftJoin("comments as c", "c.id", "n.comment_id")
    .selectAll("n")
    .select(["c.body as comment_body"]);
}

type DetailRow = RowOf<typeof selectDetails>;

/** The item's title and text; a comment's like shows the comment's own text. */
function textOf(row: DetailRow): { title: string; body: string } {
  const own = itemText(row);
  return row.comment_number === 0 ? own : { title: own.title, body: row.comment_body ?? "" };
}

/** The key of a row's likes in the likes table: the comment's row, or the item itself. */
function likeKeyOf(row: DetailRow): { readonly kind: ItemKind; readonly id: number } {
  return row.comment_id === null ? { kind: row.item_kind, id: row.item_id } : { kind: "COMMENT", id: row.comment_id };
}

const keyText = (kind: ItemKind, id: number) => `${kind}:${id}`;

function itemWhere(item: LikedItem) {
  return { kind: item.parent.kind, id: item.parent.id, number: item.commentNumber };
}

/**
 * Two newest-first lists as one, `first`'s entry first on a tie (the order of the page's query,
 * which sorts chat rows before item rows of the same time).
 */
function mergeNewestFirst<T extends { readonly updatedAt: number }>(first: readonly T[], second: readonly T[]): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    const a = first[i];
    const b = second[j];
    if (a !== undefined && (b === undefined || a.updatedAt >= b.updatedAt)) {
      out.push(a);
      i += 1;
    } else if (b !== undefined) {
      out.push(b);
      j += 1;
    }
  }
  return out;
}

/** Like notification queries. */
export function likeNotificationRepo(db: Kysely<Database>, engine: Engine): LikeNotificationRepo {
  /** Everyone but the owner who likes each row's item, first liker first; one query per item kind. */
  const likersOf = async (ownerId: number, rows: readonly DetailRow[]): Promise<Map<string, UserMention[]>> => {
    const byKind = new Map<ItemKind, number[]>();
    for (const row of rows) {
      const key = likeKeyOf(row);
      byKind.set(key.kind, [...(byKind.get(key.kind) ?? []), key.id]);
    }
    const out = new Map<string, UserMention[]>();
    for (const [kind, ids] of byKind) {
      const likes = await selectLikers(db, kind, ids).where("likes.user_id", "<>", ownerId).execute();
      for (const like of likes) {
        const key = keyText(kind, like.item_id);
        out.set(key, [...(out.get(key) ?? []), { id: like.id, name: like.name }]);
      }
    }
    return out;
  };
  const present = async (ownerId: number, rows: readonly DetailRow[]): Promise<LikeNotification[]> => {
    const likers = await likersOf(ownerId, rows);
    return rows.map((row) => ({
      kind: "item" as const,
      item: {
        parent: { kind: row.item_kind, groupId: row.group_id, id: row.item_id },
        commentNumber: row.comment_number,
      },
      groupName: row.group_name,
      ...textOf(row),
      likers: likers.get(keyText(likeKeyOf(row).kind, likeKeyOf(row).id)) ?? [],
      confirmed: row.confirmed === 1,
      updatedAt: row.updated_at,
    }));
  };
  const filtered = (userId: number, filter: { readonly unconfirmedOnly: boolean }) => {
    const query = db
      .selectFrom("like_notifications")
      .where("user_id", "=", userId)
      .where("group_id", "in", joinedGroupIds(db, userId));
    return filter.unconfirmedOnly ? query.where("confirmed", "=", 0) : query;
  };
  const page = async (userId: number, ids: readonly number[]): Promise<LikeNotification[]> => {
    if (ids.length === 0) return [];
    const rows = await selectDetails(db)
      .where("n.id", "in", ids)
      .orderBy("n.updated_at", "desc")
      .orderBy("n.id", "desc")
      .execute();
    return present(userId, rows);
  };
  return {
    async touch(ownerId, item, commentId, at) {
      await db
        .insertInto("like_notifications")
        .values({
          user_id: ownerId,
          group_id: item.parent.groupId,
          item_kind: item.parent.kind,
          item_id: item.parent.id,
          comment_number: item.commentNumber,
          comment_id: commentId,
          confirmed: 0,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc
            .columns(["item_kind", "item_id", "comment_number", "user_id"])
            .doUpdateSet({ confirmed: 0, updated_at: at }),
        )
        .execute();
      await liveEventRepo(db, engine).append({ kind: "likeNotification", ownerId, item, at });
    },
    async remove(ownerId, item) {
      const key = itemWhere(item);
      await db
        .deleteFrom("like_notifications")
        .where("user_id", "=", ownerId)
        .where("item_kind", "=", key.kind)
        .where("item_id", "=", key.id)
        .where("comment_number", "=", key.number)
        .execute();
    },
    async unconfirmedOf(ownerId, item) {
      const key = itemWhere(item);
      const rows = await filtered(ownerId, { unconfirmedOnly: true })
        .select("id")
        .where("item_kind", "=", key.kind)
        .where("item_id", "=", key.id)
        .where("comment_number", "=", key.number)
        .execute();
      return (
        await page(
          ownerId,
          rows.map((row) => row.id),
        )
      )[0];
    },
    async list(userId, filter, paging: PageWindow) {
      // One page over both tables: a room is in no group, so chat messages' likes have their own.
      const items = filtered(userId, filter).select([sql<number>`0`.as("source"), "id", "updated_at"]);
      const chats = visibleChatLikeNotifications(db, userId, filter.unconfirmedOnly).select([
        sql<number>`1`.as("source"),
        "id",
        "updated_at",
      ]);
      const rows = await db
        .selectFrom(items.unionAll(chats).as("u"))
        .select(["u.source", "u.id"])
        .orderBy("u.updated_at", "desc")
        .orderBy("u.source", "desc")
        .orderBy("u.id", "desc")
        .limit(paging.limit)
        .offset(paging.offset)
        .execute();
      const idsOf = (source: number) => rows.filter((row) => Number(row.source) === source).map((row) => row.id);
      const fromItems = await page(userId, idsOf(0));
      const fromChats = await chatLikeNotificationRepo(db, engine).byIds(userId, idsOf(1));
      return mergeNewestFirst(fromChats, fromItems);
    },
    async count(userId, filter) {
      const row = await filtered(userId, filter)
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      const chats = await visibleChatLikeNotifications(db, userId, filter.unconfirmedOnly)
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n) + Number(chats.n);
    },
    async confirm(userId, items, at) {
      if (items.length === 0) return [];
      const mine = (eb: ExpressionBuilder<Database, "like_notifications">) =>
        eb.and([
          eb("user_id", "=", userId),
          eb("group_id", "in", joinedGroupIds(db, userId)),
          eb.or(
            items.map((item) =>
              eb.and([
                eb("item_kind", "=", item.parent.kind),
                eb("item_id", "=", item.parent.id),
                eb("comment_number", "=", item.commentNumber),
                eb("group_id", "=", item.parent.groupId),
              ]),
            ),
          ),
        ]);
      await db
        .updateTable("like_notifications")
        .set({ confirmed: 1, confirmed_at: at })
        .where(mine)
        .where("confirmed", "=", 0)
        .execute();
      // Those confirmed before are in the answer too: confirming is idempotent.
      const rows = await db.selectFrom("like_notifications").select("id").where(mine).execute();
      return page(
        userId,
        rows.map((row) => row.id),
      );
    },
    async removeItems(kind, ids) {
      if (ids.length === 0) return;
      if (kind === "COMMENT") await db.deleteFrom("like_notifications").where("comment_id", "in", ids).execute();
      else
        await db.deleteFrom("like_notifications").where("item_kind", "=", kind).where("item_id", "in", ids).execute();
    },
  };
}
