import type { ContentKind } from "./item-id.js";
import { CONTENT_KINDS } from "./kinds.js";

/**
 * The numeric key of anything that can be liked or favorited: a topic, task or file by its row
 * id, a comment by its row id (not its number). Likes and favorites rows are keyed by it, so
 * deleting an item removes them by the same key.
 */
export interface ItemKey {
  readonly kind: ContentKind | "COMMENT";
  readonly id: number;
}

/** Likes of one item as a viewer sees them. */
export interface LikeSummary {
  readonly count: number;
  /** The viewer has liked it. */
  readonly mine: boolean;
}

/** A user who liked an item. */
export interface Liker {
  readonly userId: number;
  readonly name: string;
}

/** No likes at all. */
export const NO_LIKES: LikeSummary = Object.freeze({ count: 0, mine: false });

/** The favorited kinds, in the order of their keys. */
const KEY_KINDS: readonly ItemKey["kind"][] = [...CONTENT_KINDS, "COMMENT"];

/**
 * A favorite's key in the favorites feed's delta sync (services/item/favorite-changes.ts): ids of
 * two kinds may be equal, so the kind is folded in.
 */
export function favoriteKey(key: ItemKey): number {
  return key.id * 8 + KEY_KINDS.indexOf(key.kind);
}

/** The item a favorite's key names. */
export function keyOfFavorite(value: number): ItemKey {
  return { kind: KEY_KINDS[value % 8] ?? "COMMENT", id: Math.floor(value / 8) };
}
