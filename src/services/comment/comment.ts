import { type TempBlob, newBlobKey } from "../../blobs/blob-store.js";
import type { Actor } from "../../domain/access.js";
import { type Attachment, type AttachmentDraft, checkAttachments } from "../../domain/attachment.js";
import { type Comment, checkCommentText } from "../../domain/comment.js";
import { ForbiddenError, NotFoundError, ValidationError } from "../../domain/errors.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import type { PageWindow } from "../../store/page-window.js";
import type { Tx } from "../../store/store.js";
import { type CommentDetail, detailComments, removeBlobs, removeItemRows } from "./comment-detail.js";
import { requireEvent } from "../event/event.js";
import { requireFile } from "../file/file.js";
import { requireGroupMember } from "../group/group-access.js";
import { notifyMentions } from "../notification/mention.js";
import { type ChangeCursor, refuseChanges } from "../../domain/changes.js";
import { type ChangeFeed, type ChangesView, latestCursor, readChanges } from "../item/changes.js";
import { requireTask } from "../task/task.js";
import { requireTopic } from "../topic/topic.js";
import type { ServiceContext } from "../context.js";
import { queueCommentEdited } from "../webhook/enqueue.js";

/** A comment just written, with the group it belongs to and its files, for presenting. */
export interface CommentView {
  readonly group: Group;
  readonly comment: Comment;
  readonly attachments: readonly Attachment[];
}

/** The item a comment hangs on, as the comment feed shows it. */
export interface CommentParent {
  readonly ref: ContentRef;
  readonly title: string;
  readonly updatedAt: number;
}

/** A page of a parent's comments and whether more lie on either side of it. */
export interface CommentsView {
  readonly group: Group;
  readonly parent: CommentParent;
  readonly comments: readonly CommentDetail[];
  readonly olderExists: boolean;
  readonly newerExists: boolean;
  /** A list read's delta sync: the next cursor, and the changes of a changes-since read. */
  readonly changes?: ChangesView;
}

/** An uploaded file waiting in the blob store's temporary area for its comment to commit. */
export interface StagedFile {
  readonly draft: AttachmentDraft;
  readonly temp: TempBlob;
}

/**
 * A page of a parent's comments, newest first. `unconfirmed` keeps comments by others written
 * after the caller's last confirmation of the parent (all of them when the caller never confirmed).
 * @throws NotFoundError GROUP_NOT_FOUND, TOPIC_NOT_FOUND, ITEM_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function listComments(
  ctx: ServiceContext,
  actor: Actor,
  input: { parent: ContentRef; page: PageWindow; unconfirmed: boolean; changesSince?: ChangeCursor | undefined },
): Promise<CommentsView> {
  if (input.changesSince !== undefined) {
    if (input.unconfirmed) refuseChanges("unconfirmed=true (follow every comment instead)");
    return commentChangesOf(ctx, actor, { ...input, changesSince: input.changesSince });
  }
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.parent.groupId);
    const parent = await requireCommentParent(tx, input.parent);
    const changes = await latestCursor(tx, commentChanges(input.parent).scope);
    const userId = actor.user.id;
    const filter = input.unconfirmed
      ? { unconfirmedBy: { userId, after: (await tx.commentReads.find(userId, input.parent)) ?? null } }
      : {};
    const rows = await tx.comments.page(input.parent, filter, input.page);
    const total = await tx.comments.count(input.parent, filter);
    return {
      group,
      parent,
      comments: await detailComments(tx, userId, rows),
      olderExists: input.page.offset + rows.length < total,
      // Newest first: anything at all before start-index is newer than this page.
      newerExists: input.page.offset > 0 && total > 0,
      changes,
    };
  });
}

/**
 * A parent's comments changed after the cursor (docs/api.md "Delta sync"). A former member's
 * answer names no title of the parent: they may no longer read it.
 */
async function commentChangesOf(
  ctx: ServiceContext,
  actor: Actor,
  input: { parent: ContentRef; page: PageWindow; changesSince: ChangeCursor },
): Promise<CommentsView> {
  return ctx.store.read(async (tx) => {
    const read = await readChanges(tx, actor, commentChanges(input.parent), input.changesSince, input.page.limit);
    const parent = read.departed
      ? { ref: input.parent, title: "", updatedAt: 0 }
      : await requireCommentParent(tx, input.parent);
    const comments = await detailComments(tx, actor.user.id, read.items);
    return { group: read.group, parent, comments, olderExists: false, newerExists: false, changes: read.changes };
  });
}

/** A parent's comments as delta sync follows them: every comment of the parent. */
function commentChanges(parent: ContentRef): ChangeFeed<Comment> {
  const same = (ref: ContentRef) => ref.kind === parent.kind && ref.id === parent.id && ref.groupId === parent.groupId;
  return {
    scope: { groupId: parent.groupId, kind: `${parent.kind}_COMMENT`, parentId: parent.id },
    async load(tx, ids) {
      const found = await Promise.all(ids.map((id) => tx.comments.findById(id)));
      return found.filter((comment) => comment !== undefined && same(comment.parent)) as Comment[];
    },
    idOf: (comment) => comment.id,
    shows: () => true,
  };
}

/**
 * Adds a comment, with its files (the board's legacy path and the comment endpoint both come
 * here); the group's other members are notified. Files move from the temporary area into place only once the comment row has committed.
 * @throws ValidationError COMMENT_TEXT_REQUIRED, COMMENT_TEXT_TOO_LONG, REPLY_TO_NOT_FOUND, TOO_MANY_FILES
 * @throws TooLargeError FILE_TOO_LARGE, ATTACHMENTS_TOO_LARGE
 * @throws NotFoundError GROUP_NOT_FOUND, TOPIC_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function addComment(
  ctx: ServiceContext,
  actor: Actor,
  input: { parent: ContentRef; text: string | undefined; replyTo: number | undefined; files?: readonly StagedFile[] },
): Promise<CommentView> {
  const files = input.files ?? [];
  const body = checkCommentText(input.text, files.length);
  checkAttachments(files.map((file) => file.draft));
  const keys = files.map(() => newBlobKey());
  const view = await ctx.store.transaction(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.parent.groupId);
    await requireCommentParent(tx, input.parent);
    if (input.replyTo !== undefined && !(await tx.comments.find(input.parent, input.replyTo))) {
      throw new ValidationError(
        "REPLY_TO_NOT_FOUND",
        `cblCmnt:replyTo names comment ${input.replyTo}, which does not exist on this item.`,
      );
    }
    const at = ctx.clock.now();
    const comment = await insertComment(tx, {
      parent: input.parent,
      authorId: actor.user.id,
      body,
      replyTo: input.replyTo ?? null,
      at,
    });
    const number = comment.number;
    await tx.notifications.fanOut({
      item: input.parent,
      actorId: actor.user.id,
      cause: { kind: "comment", number },
      at,
    });
    await notifyMentions(tx, { item: input.parent, commentNumber: number, text: body, actorId: actor.user.id, at });
    const attachments: Attachment[] = [];
    for (const [index, file] of files.entries()) {
      const blobKey = keys[index] ?? "";
      attachments.push(
        await tx.attachments.insert({
          ...file.draft,
          groupId: group.id,
          commentId: comment.id,
          position: index + 1,
          blobKey,
          at,
        }),
      );
    }
    return { group, comment, attachments };
  });
  try {
    for (const [index, file] of files.entries()) await ctx.blobs.commit(file.temp, keys[index] ?? "");
  } catch (error) {
    // The bytes could not be put in place: take the comment back rather than keep rows without files.
    // It was visible for a moment, so the members hear of its removal as of any deletion.
    await ctx.store.transaction((tx) => removeComment(tx, actor, view.comment, ctx.clock.now()));
    await removeBlobs(ctx.blobs, keys);
    throw error;
  }
  return view;
}

/**
 * Changes a comment's text: its author alone may (a manager deletes instead; an edit stays the
 * author's word). The pages and feeds show the new text with the time of the edit; its files stay.
 * Members the new text names who were not named before are told, as for a new comment; nobody else
 * is notified of an edit.
 * @throws ValidationError COMMENT_TEXT_REQUIRED, COMMENT_TEXT_TOO_LONG
 * @throws NotFoundError COMMENT_NOT_FOUND (or its parent's); ForbiddenError GROUP_NOT_JOINED, COMMENT_EDIT_FORBIDDEN
 */
export async function editComment(
  ctx: ServiceContext,
  actor: Actor,
  input: { parent: ContentRef; number: number; text: string | undefined },
): Promise<CommentView> {
  return ctx.store.transaction(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.parent.groupId);
    await requireCommentParent(tx, input.parent);
    const comment = await tx.comments.find(input.parent, input.number);
    if (!comment) throw new NotFoundError("COMMENT_NOT_FOUND", "The comment does not exist.");
    if (comment.authorId !== actor.user.id) {
      throw new ForbiddenError("COMMENT_EDIT_FORBIDDEN", "Only the comment's author may change its text.");
    }
    const attachments = await tx.attachments.listOf([comment.id]);
    const body = checkCommentText(input.text, attachments.length);
    const at = ctx.clock.now();
    if (body === comment.body) return { group, comment, attachments };
    await tx.comments.updateBody(comment.id, body, at);
    await queueCommentEdited(tx, input.parent, comment.number, actor.user.id, at);
    await notifyMentions(tx, {
      item: input.parent,
      commentNumber: comment.number,
      text: body,
      previousText: comment.body,
      actorId: actor.user.id,
      at,
    });
    return { group, comment: { ...comment, body, editedAt: at }, attachments };
  });
}

/**
 * One comment with its files, as a write answers it (its own feed, whose ETag a conditional write names).
 * @throws NotFoundError COMMENT_NOT_FOUND (or its parent's); ForbiddenError GROUP_NOT_JOINED
 */
export async function getComment(
  ctx: ServiceContext,
  actor: Actor,
  input: { parent: ContentRef; number: number },
): Promise<CommentView> {
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.parent.groupId);
    await requireCommentParent(tx, input.parent);
    const comment = await tx.comments.find(input.parent, input.number);
    if (!comment) throw new NotFoundError("COMMENT_NOT_FOUND", "The comment does not exist.");
    return { group, comment, attachments: await tx.attachments.listOf([comment.id]) };
  });
}

/**
 * Deletes a comment with its attachments, likes and favorites: its author and the group's managers
 * may. The other members are notified of the deletion.
 * @throws NotFoundError COMMENT_NOT_FOUND (or its parent's); ForbiddenError COMMENT_DELETE_FORBIDDEN
 */
export async function deleteComment(
  ctx: ServiceContext,
  actor: Actor,
  input: { parent: ContentRef; number: number },
): Promise<CommentView> {
  const { view, keys } = await ctx.store.transaction(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.parent.groupId);
    await requireCommentParent(tx, input.parent);
    const comment = await tx.comments.find(input.parent, input.number);
    if (!comment) throw new NotFoundError("COMMENT_NOT_FOUND", "The comment does not exist.");
    if (comment.authorId !== actor.user.id && !membership.manager) {
      throw new ForbiddenError(
        "COMMENT_DELETE_FORBIDDEN",
        "Only the comment's author and the group's managers may delete it.",
      );
    }
    const removedKeys = await removeComment(tx, actor, comment, ctx.clock.now());
    return { view: { group, comment, attachments: [] }, keys: removedKeys };
  });
  await removeBlobs(ctx.blobs, keys);
  return view;
}

/** Removes a comment and everything of it; the other members hear of the deletion. Returns the blob keys to remove. */
async function removeComment(tx: Tx, actor: Actor, comment: Comment, at: number): Promise<string[]> {
  const keys = await removeItemRows(tx, "COMMENT", [comment.id]);
  await tx.comments.remove(comment.id);
  await tx.mentions.removeOfComment(comment.parent, comment.number);
  const cause = {
    kind: "commentDeleted",
    number: comment.number,
    authorId: comment.authorId,
    createdAt: comment.createdAt,
  } as const;
  await tx.notifications.fanOut({ item: comment.parent, actorId: actor.user.id, cause, at });
  return keys;
}

/**
 * The item that carries comments: the one switch over parent kinds.
 * @throws NotFoundError TOPIC_NOT_FOUND, TASK_NOT_FOUND, FILE_NOT_FOUND, NOT_FOUND (event) when it does not exist
 */
export async function requireCommentParent(tx: Tx, parent: ContentRef): Promise<CommentParent> {
  switch (parent.kind) {
    case "BOARD": {
      const topic = await requireTopic(tx, parent);
      return { ref: parent, title: topic.title, updatedAt: topic.updatedAt };
    }
    case "TASK": {
      const task = await requireTask(tx, parent);
      return { ref: parent, title: task.title, updatedAt: task.updatedAt };
    }
    case "CABINET": {
      const file = await requireFile(tx, parent);
      return { ref: parent, title: file.title, updatedAt: file.updatedAt };
    }
    case "GW_SCHEDULE": {
      const event = await requireEvent(tx, parent);
      return { ref: parent, title: event.title, updatedAt: event.updatedAt };
    }
  }
}

/**
 * Inserts a comment with its parent's next number inside the caller's transaction, its text and
 * parent checked by the caller: the one insert of comments, for addComment and the import (which
 * keeps the original's author and time and tells no one of history).
 */
export async function insertComment(
  tx: Tx,
  comment: { parent: ContentRef; authorId: number; body: string; replyTo: number | null; at: number },
): Promise<Comment> {
  const number = await tx.comments.nextNumber(comment.parent);
  return tx.comments.insert({ ...comment, number });
}

/**
 * Inserts comments of one parent, in the order given, with its next numbers, inside the caller's
 * transaction (their texts checked by the caller): an import's, in few statements. Returns their ids.
 */
export async function insertComments(
  tx: Tx,
  parent: ContentRef,
  comments: readonly { authorId: number; body: string; at: number }[],
): Promise<number[]> {
  if (comments.length === 0) return [];
  const first = await tx.comments.nextNumbers(parent, comments.length);
  return tx.comments.insertMany(
    comments.map((comment, index) => ({ ...comment, parent, number: first + index, replyTo: null })),
  );
}
