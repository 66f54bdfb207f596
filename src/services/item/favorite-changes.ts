// The favorites list (`GET /api/star/V2`) as a feed of delta sync (docs/api.md "Delta sync"): the
// caller's own scope (docs/architecture.md), one change row per favorite of kind STAR_<item kind>.
import type { Actor } from "../../domain/access.js";
import { type ChangeCursor, personalScopeOwner } from "../../domain/changes.js";
import type { Group } from "../../domain/group.js";
import { isContentRef } from "../../domain/item-id.js";
import type { ContentKind } from "../../domain/kinds.js";
import { type ItemKey, favoriteKey, keyOfFavorite } from "../../domain/reaction.js";
import type { PageWindow } from "../../store/page-window.js";
import type { ItemChange } from "../../store/queries/item-changes.js";
import type { Tx } from "../../store/store.js";
import { STAR_KIND, STAR_KINDS, STAR_KIND_PREFIX } from "../../store/item-change-sources-0060.js";
import type { ServiceContext } from "../context.js";
import { type ChangeFeed, type ChangesView, latestCursor, readPersonalChanges } from "./changes.js";
import { type ItemView, itemOfKey } from "./item.js";
import { favoritesPage } from "./reaction.js";

/** A page of the caller's favorites, or their changes after a cursor. */
export interface FavoritesView {
  readonly items: readonly ItemView[];
  readonly changes: ChangesView;
  /** A changes-since read: the item each tombstone names, by its key (`favoriteKey`). */
  readonly gone: ReadonlyMap<number, ItemView["ref"]>;
}

/** The caller's favorites scope. */
function favoritesScope(userId: number) {
  return { groupId: personalScopeOwner(userId), kind: STAR_KIND, parentId: 0, kinds: STAR_KINDS };
}

/**
 * The caller's favorites, newest first (docs/api.md "Favorites"), with the cursor of their changes;
 * with `changesSince`, the favorites changed after it (docs/api.md "Delta sync"): added, edited, and
 * as tombstones removed ones and those the list no longer shows (deleted, in a group the caller left).
 * @throws ValidationError CHANGES_CURSOR_OTHER_FEED; GoneError CHANGES_CURSOR_EXPIRED
 */
export async function readFavorites(
  ctx: ServiceContext,
  actor: Actor,
  input: { readonly page: PageWindow; readonly changesSince?: ChangeCursor | undefined },
): Promise<FavoritesView> {
  return ctx.store.read(async (tx) => {
    const feed = favoritesFeed(actor.user.id);
    if (input.changesSince !== undefined) {
      const read = await readPersonalChanges(tx, feed, input.changesSince, input.page.limit);
      const gone = await tombstoneRefs(tx, read.changes);
      const steps = read.changes.steps?.filter((step) => step.kind === "entry" || gone.has(step.itemId));
      return { items: read.items, changes: { ...read.changes, ...(steps && { steps }) }, gone };
    }
    const changes = await latestCursor(tx, feed.scope);
    return { items: await favoritesPage(tx, actor.user.id, input.page), changes, gone: new Map() };
  });
}

/** The favorites as delta sync loads them: those still favorited, in groups the caller is in, whose item exists. */
function favoritesFeed(userId: number): ChangeFeed<ItemView> {
  return {
    scope: favoritesScope(userId),
    keyOf: (row) => favoriteKey({ kind: itemKindOf(row), id: row.itemId }),
    idOf: (item) => favoriteKey(item.key),
    async load(tx, keys) {
      const joined = new Set((await tx.memberships.listJoinedOfUser(userId)).map((m) => m.groupId));
      const groups = new Map<number, Group | undefined>();
      const items: ItemView[] = [];
      for (const key of keys.map(keyOfFavorite)) {
        const favorite = await tx.favorites.find(userId, key);
        if (favorite === undefined || !joined.has(favorite.groupId)) continue;
        if (!groups.has(favorite.groupId)) groups.set(favorite.groupId, await tx.groups.findById(favorite.groupId));
        const group = groups.get(favorite.groupId);
        const item = group && (await itemOfKey(tx, key, group));
        if (item) items.push(item);
      }
      return items;
    },
    shows: () => true,
  };
}

function itemKindOf(row: ItemChange): ItemKey["kind"] {
  return row.kind.slice(STAR_KIND_PREFIX.length) as ItemKey["kind"];
}

/**
 * The ids the tombstones of a page write: a content item's from its row (parent = its group); a
 * comment's from the comment's own change row, kept after its deletion (its parent and number).
 * A comment whose row was pruned already has no tombstone (its own feeds forgot it too).
 */
async function tombstoneRefs(tx: Tx, changes: ChangesView): Promise<FavoritesView["gone"]> {
  const gone = new Map<number, ItemView["ref"]>();
  const comments = new Map<number, number[]>();
  for (const step of changes.steps ?? []) {
    if (step.kind !== "deleted") continue;
    const key = keyOfFavorite(step.itemId);
    if (key.kind !== "COMMENT") gone.set(step.itemId, { kind: key.kind, groupId: step.parentId, id: key.id });
    else comments.set(step.parentId, [...(comments.get(step.parentId) ?? []), key.id]);
  }
  for (const [groupId, ids] of comments) {
    for (const row of await tx.itemChanges.commentRows(groupId, ids)) {
      const parent = { kind: row.kind.replace(/_COMMENT$/, "") as ContentKind, groupId, id: row.parentId };
      if (isContentRef(parent))
        gone.set(favoriteKey({ kind: "COMMENT", id: row.itemId }), { kind: "COMMENT", parent, number: row.refNumber });
    }
  }
  return gone;
}
