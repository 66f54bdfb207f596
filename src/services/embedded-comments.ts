import type { Comment } from "../domain/comment.js";
import type { ContentRef } from "../domain/item-id.js";
import type { Tx } from "../store/store.js";

/**
 * Every comment of each item, newest first, keyed by item id: what `embed-comment=true` embeds
 * for topics and tasks alike. The items must all be of one kind.
 */
export async function commentsByItem(tx: Tx, items: readonly ContentRef[]): Promise<Map<number, Comment[]>> {
  const byItem = new Map<number, Comment[]>(items.map((item) => [item.id, []]));
  for (const comment of await tx.comments.listAll(items)) byItem.get(comment.parent.id)?.push(comment);
  return byItem;
}
