import { element, utcTimestamp } from "../atom/build.js";
import { formatCommentId, formatContentId, formatPair } from "../domain/item-id.js";
import type { ItemView } from "../services/item/item.js";
import type { LikersView } from "../services/item/reaction.js";
import {
  type Viewer,
  categoryElements,
  feedDocument,
  newestOf,
  webLinkElements,
  titleElement,
  type EntryHead,
  EMPTY_AUTHOR,
  itemEntry,
} from "./feed.js";
import { type ItemLinks, commentLinks, contentLinks } from "../domain/item-links.js";
import { groupElement } from "./topic.js";
import { changeParts, nextChangesLink } from "./changes.js";
import type { FavoritesView } from "../services/item/favorite-changes.js";
import { favoriteKey } from "../domain/reaction.js";

/** The wire id of a likeable item. */
function itemId(item: ItemView): string {
  return refId(item.ref);
}

function refId(ref: ItemView["ref"]): string {
  return ref.kind === "COMMENT" ? formatCommentId(ref.parent, ref.number) : formatContentId(ref);
}

function itemLinks(baseUrl: string, item: ItemView): ItemLinks {
  return item.ref.kind === "COMMENT"
    ? commentLinks(baseUrl, item.ref.parent, item.ref.number)
    : contentLinks(baseUrl, item.ref);
}

/**
 * A favorite (`STAR`) or like (`GOOD`) entry. The author is empty, as the original's was (clients
 * ignore it); it still holds an empty `name`, which Atom's schema requires of every author.
 */
export function reactionEntry(baseUrl: string, item: ItemView, term: "GOOD" | "STAR", extra = ""): string {
  const id = itemId(item);
  const head: EntryHead = {
    id,
    title: item.title,
    links: itemLinks(baseUrl, item),
    terms: [term],
    author: EMPTY_AUTHOR,
    updated: item.updatedAt,
    summary: item.summary,
  };
  return itemEntry(head, groupElement(item.group) + extra);
}

/**
 * `GET /api/star/V2`: the caller's favorites; a list read carries its next-changes link, and a
 * changes-since read its tombstones (docs/api.md "Delta sync").
 */
export function favoritesFeed(
  baseUrl: string,
  viewer: Viewer,
  view: {
    readonly items: readonly ItemView[];
    readonly changes?: FavoritesView["changes"];
    readonly gone?: FavoritesView["gone"];
  },
  now: number,
  nextChanges?: string | undefined,
): string {
  const { tombstones, entries } = changeParts(
    view.changes,
    view.items,
    (item) => favoriteKey(item.key),
    (item) => reactionEntry(baseUrl, item, "STAR"),
    // The service keeps only the tombstones whose item it could name.
    (gone) => {
      const ref = view.gone?.get(gone.itemId);
      return ref === undefined ? "" : refId(ref);
    },
  );
  return feedDocument(
    {
      title: "Favorites",
      id: `${baseUrl}/api/star/V2`,
      alternate: `${baseUrl}/favorites`,
      viewer,
      updated: newestOf(view.items, now),
      extra: nextChangesLink(nextChanges) + tombstones,
    },
    entries,
  );
}

/** `GET /api/good/V2?id=`: one entry with the caller's like and one `cbl:who` per liker. */
export function likersFeed(baseUrl: string, viewer: Viewer, view: LikersView): string {
  const who = view.likers
    .map((liker) => element("cbl:who", { valueString: liker.name, id: formatPair(liker.userId) }))
    .join("");
  const extra = element("cblGood:set", {}, String(view.mine)) + who;
  return feedDocument(
    {
      title: view.item.title,
      id: itemId(view.item),
      alternate: itemLinks(baseUrl, view.item).alternate,
      viewer,
      updated: view.item.updatedAt,
    },
    [reactionEntry(baseUrl, view.item, "GOOD", extra)],
  );
}

/** The answer to a like or favorite write: a feed with one entry holding the item's id. */
export function reactionWriteFeed(
  baseUrl: string,
  viewer: Viewer,
  item: ItemView,
  term: "GOOD" | "STAR",
  now: number,
): string {
  const id = itemId(item);
  const entry =
    "<entry>" +
    element("id", {}, id) +
    titleElement(item.title) +
    webLinkElements(itemLinks(baseUrl, item)) +
    categoryElements(id) +
    element("category", { term }) +
    element("updated", {}, utcTimestamp(now)) +
    "</entry>";
  return feedDocument({ title: item.title, id, alternate: itemLinks(baseUrl, item).alternate, viewer, updated: now }, [
    entry,
  ]);
}
