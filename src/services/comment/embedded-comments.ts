import type { ContentRef } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";
import { type CommentDetail, detailComments } from "./comment-detail.js";

/**
 * Every comment of each item, newest first, keyed by item id, with the viewer's likes, favorites
 * and attachments: what `embed-comment=true` embeds for topics and tasks alike, the same entries
 * as the comment endpoint. The items must all be of one kind.
 */
export async function commentsByItem(
  tx: Tx,
  viewerId: number,
  items: readonly ContentRef[],
): Promise<Map<number, CommentDetail[]>> {
  const byItem = new Map<number, CommentDetail[]>(items.map((item) => [item.id, []]));
  for (const detail of await detailComments(tx, viewerId, await tx.comments.listAll(items)))
    byItem.get(detail.comment.parent.id)?.push(detail);
  return byItem;
}
