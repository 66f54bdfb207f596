import type { Actor } from "../domain/access.js";
import { type Comment, checkCommentText } from "../domain/comment.js";
import { ForbiddenError, NotFoundError, ValidationError } from "../domain/errors.js";
import type { Group } from "../domain/group.js";
import type { ContentRef } from "../domain/item-id.js";
import type { Clock } from "../clock.js";
import type { Store, Tx } from "../store/store.js";
import { requireFile } from "./file.js";
import { requireGroupMember } from "./group-access.js";
import { requireTask } from "./task.js";
import { requireTopic } from "./topic.js";

/** A comment with the group it belongs to, for presenting. */
export interface CommentView {
  readonly group: Group;
  readonly comment: Comment;
}

/**
 * Adds a comment to a topic (the board's legacy path and the comment endpoint both come here).
 * @throws ValidationError COMMENT_TEXT_REQUIRED, COMMENT_TEXT_TOO_LONG, REPLY_TO_NOT_FOUND
 * @throws NotFoundError GROUP_NOT_FOUND, TOPIC_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function addComment(
  store: Store,
  actor: Actor,
  input: { parent: ContentRef; text: string | undefined; replyTo: number | undefined },
  clock: Clock,
): Promise<CommentView> {
  const body = checkCommentText(input.text, 0);
  return store.transaction(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.parent.groupId);
    await requireCommentParent(tx, input.parent);
    if (input.replyTo !== undefined && !(await tx.comments.find(input.parent, input.replyTo))) {
      throw new ValidationError("REPLY_TO_NOT_FOUND", `cblCmnt:replyTo names comment ${input.replyTo}, which does not exist on this item.`);
    }
    const number = await tx.comments.nextNumber(input.parent);
    const comment = await tx.comments.insert({
      parent: input.parent,
      number,
      authorId: actor.user.id,
      body,
      replyTo: input.replyTo ?? null,
      at: clock.now(),
    });
    return { group, comment };
  });
}

/**
 * Deletes a comment: its author and the group's managers may.
 * @throws NotFoundError COMMENT_NOT_FOUND (or its parent's); ForbiddenError COMMENT_DELETE_FORBIDDEN
 */
export async function deleteComment(
  store: Store,
  actor: Actor,
  input: { parent: ContentRef; number: number },
): Promise<CommentView> {
  return store.transaction(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.parent.groupId);
    await requireCommentParent(tx, input.parent);
    const comment = await tx.comments.find(input.parent, input.number);
    if (!comment) throw new NotFoundError("COMMENT_NOT_FOUND", "The comment does not exist.");
    if (comment.authorId !== actor.user.id && !membership.manager) {
      throw new ForbiddenError("COMMENT_DELETE_FORBIDDEN", "Only the comment's author and the group's managers may delete it.");
    }
    await tx.comments.remove(comment.id);
    return { group, comment };
  });
}

/** @throws NotFoundError when the item that would carry the comment does not exist */
async function requireCommentParent(tx: Tx, parent: ContentRef): Promise<void> {
  switch (parent.kind) {
    case "BOARD":
      await requireTopic(tx, parent);
      return;
    case "TASK":
      await requireTask(tx, parent);
      return;
    case "CABINET":
      await requireFile(tx, parent);
      return;
  }
}
