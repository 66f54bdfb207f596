import type { Actor } from "../../domain/access.js";
import type { Group } from "../../domain/group.js";
import type { ItemRef } from "../../domain/item-id.js";
import type { Liker } from "../../domain/reaction.js";
import type { PageWindow } from "../../store/page-window.js";
import type { Tx } from "../../store/store.js";
import { type ItemView, itemOfKey, requireItem } from "./item.js";
import { recordLikeChange } from "../notification/like-notification.js";
import type { ServiceContext } from "../context.js";
import { queueLikeAdded } from "../webhook/enqueue.js";

/** An item with everyone who liked it. */
export interface LikersView {
  readonly item: ItemView;
  readonly likers: readonly Liker[];
  /** The caller is among them. */
  readonly mine: boolean;
}

/**
 * Likes (`on`) or unlikes an item; liking a liked item or unliking an unliked one changes nothing.
 * The item's author hears of it through their like notifications.
 * @throws NotFoundError ITEM_NOT_FOUND and the like; ForbiddenError GROUP_NOT_JOINED
 */
export async function setLike(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ItemRef; on: boolean },
): Promise<ItemView> {
  return ctx.store.transaction(async (tx) => {
    const item = await requireItem(tx, actor, input.ref);
    const at = ctx.clock.now();
    const changed = input.on
      ? await tx.likes.add(actor.user.id, item.key, item.group.id, at)
      : await tx.likes.remove(actor.user.id, item.key);
    if (changed) await recordLikeChange(tx, actor, item, input.on, at);
    if (changed && input.on) {
      const parent = item.ref.kind === "COMMENT" ? item.ref.parent : item.ref;
      await queueLikeAdded(tx, parent, item.ref.kind === "COMMENT" ? item.ref.number : null, actor.user.id, at);
    }
    return item;
  });
}

/** Who liked an item. @throws NotFoundError ITEM_NOT_FOUND and the like; ForbiddenError GROUP_NOT_JOINED */
export async function listLikers(ctx: ServiceContext, actor: Actor, input: { ref: ItemRef }): Promise<LikersView> {
  return ctx.store.read(async (tx) => {
    const item = await requireItem(tx, actor, input.ref);
    const likers = await tx.likes.likers(item.key);
    return { item, likers, mine: likers.some((liker) => liker.userId === actor.user.id) };
  });
}

/**
 * Favorites (`on`) or unfavorites an item; repeating either changes nothing.
 * @throws NotFoundError ITEM_NOT_FOUND and the like; ForbiddenError GROUP_NOT_JOINED
 */
export async function setFavorite(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ItemRef; on: boolean },
): Promise<ItemView> {
  return ctx.store.transaction(async (tx) => {
    const item = await requireItem(tx, actor, input.ref);
    if (input.on) await tx.favorites.add(actor.user.id, item.key, item.group.id, ctx.clock.now());
    else await tx.favorites.remove(actor.user.id, item.key);
    return item;
  });
}

/**
 * The caller's favorites, newest favorite first; with `ref`, only that item (when it is one).
 * @throws NotFoundError, ForbiddenError for a `ref` the caller may not read
 */
export async function listFavorites(
  ctx: ServiceContext,
  actor: Actor,
  input: { page: PageWindow } | { ref: ItemRef },
): Promise<ItemView[]> {
  return ctx.store.read(async (tx) => {
    if ("ref" in input) {
      const item = await requireItem(tx, actor, input.ref);
      return (await tx.favorites.find(actor.user.id, item.key)) ? [item] : [];
    }
    return favoritesPage(tx, actor.user.id, input.page);
  });
}

/** A page of a person's favorites as the list shows them: in groups they are in, of items that exist. */
export async function favoritesPage(tx: Tx, userId: number, page: PageWindow): Promise<ItemView[]> {
  const groups = new Map<number, Group | undefined>();
  const items: ItemView[] = [];
  for (const row of await tx.favorites.list(userId, page)) {
    if (!groups.has(row.groupId)) groups.set(row.groupId, await tx.groups.findById(row.groupId));
    const group = groups.get(row.groupId);
    const item = group && (await itemOfKey(tx, row.item, group));
    if (item) items.push(item);
  }
  return items;
}
