import type { Attachment } from "../../domain/attachment.js";
import type { Comment } from "../../domain/comment.js";
import { type ItemKey, type LikeSummary, NO_LIKES } from "../../domain/reaction.js";
import type { BlobStore } from "../../blobs/blob-store.js";
import type { ContentRef } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";

/** A comment with what a viewer sees around it: likes, the viewer's favorite, attachments. */
export interface CommentDetail {
  readonly comment: Comment;
  readonly likes: LikeSummary;
  readonly starred: boolean;
  readonly attachments: readonly Attachment[];
}

/**
 * Adds likes, favorite and attachments to comments in three queries, whatever their number: the
 * one path for the comment feed and the board's embedded comments, so both always agree.
 */
export async function detailComments(tx: Tx, viewerId: number, comments: readonly Comment[]): Promise<CommentDetail[]> {
  const ids = comments.map((comment) => comment.id);
  const likes = await tx.likes.summarize("COMMENT", ids, viewerId);
  const starred = await tx.favorites.setOf(viewerId, "COMMENT", ids);
  const attachments = new Map<number, Attachment[]>();
  for (const attachment of await tx.attachments.listOf(ids)) {
    const list = attachments.get(attachment.commentId) ?? [];
    list.push(attachment);
    attachments.set(attachment.commentId, list);
  }
  return comments.map((comment) => ({
    comment,
    likes: likes.get(comment.id) ?? NO_LIKES,
    starred: starred.has(comment.id),
    attachments: attachments.get(comment.id) ?? [],
  }));
}

/**
 * Removes the likes, favorites, notifications and attachment rows of items being deleted (a deleted
 * item's notifications go with it); returns blob keys to delete after commit.
 */
export async function removeItemRows(tx: Tx, kind: ItemKey["kind"], ids: readonly number[]): Promise<string[]> {
  await tx.likes.removeItems(kind, ids);
  await tx.favorites.removeItems(kind, ids);
  await tx.likeNotifications.removeItems(kind, ids);
  if (kind !== "COMMENT") await tx.notifications.removeItems(kind, ids);
  return kind === "COMMENT" ? tx.attachments.removeOf(ids) : [];
}

/** Removes every comment of a parent with everything hanging on them; returns blob keys to delete after commit. */
export async function removeCommentsOf(tx: Tx, parent: ContentRef): Promise<string[]> {
  const ids = (await tx.comments.listAll([parent])).map((comment) => comment.id);
  const keys = await removeItemRows(tx, "COMMENT", ids);
  await tx.comments.removeAllOf(parent);
  await tx.commentReads.removeAllOf(parent);
  await tx.itemVisits.removeAllOf(parent);
  return keys;
}

/**
 * Deletes bytes whose rows are gone (after the transaction committed, never before: a rolled-back
 * delete must still find its files). A failure leaves an orphan file, never a row without bytes.
 */
export async function removeBlobs(blobs: BlobStore, keys: readonly string[]): Promise<void> {
  await Promise.allSettled(keys.map((key) => blobs.remove(key)));
}
