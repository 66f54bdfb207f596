import type { ContentKind } from "./item-id.js";

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
