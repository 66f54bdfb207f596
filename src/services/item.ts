import type { Actor } from "../domain/access.js";
import { NotFoundError } from "../domain/errors.js";
import type { Group } from "../domain/group.js";
import type { ContentRef, ItemRef } from "../domain/item-id.js";
import type { ItemKey } from "../domain/reaction.js";
import type { Tx } from "../store/store.js";
import { requireCommentParent } from "./comment.js";
import { requireFile } from "./file.js";
import { requireGroupMember } from "./group-access.js";
import { requireTask } from "./task.js";
import { requireTopic } from "./topic.js";

/** An item that can be liked or favorited: its wire reference, its row key and what lists show of it. */
export interface ItemView {
  readonly ref: ContentRef | { readonly kind: "COMMENT"; readonly parent: ContentRef; readonly number: number };
  readonly key: ItemKey;
  readonly group: Group;
  readonly title: string;
  readonly summary: string;
  readonly updatedAt: number;
  /** Who wrote it: the one its like notifications go to. */
  readonly authorId: number;
}

function notFound(): NotFoundError {
  return new NotFoundError("ITEM_NOT_FOUND", "The target item does not exist.");
}

/**
 * Resolves an item id for likes and favorites, for a member of its group. The one switch over
 * item kinds.
 * @throws NotFoundError ITEM_NOT_FOUND (ids of kinds this server does not hold too), GROUP_NOT_FOUND, TOPIC_NOT_FOUND,
 *   TASK_NOT_FOUND, FILE_NOT_FOUND
 * @throws ForbiddenError GROUP_NOT_JOINED
 */
export async function requireItem(tx: Tx, actor: Actor, ref: ItemRef): Promise<ItemView> {
  switch (ref.kind) {
    case "GROUP":
    case "foreign":
      throw notFound();
    case "BOARD": {
      const { group } = await requireGroupMember(tx, actor, ref.groupId);
      const topic = await requireTopic(tx, ref);
      return {
        ref,
        key: { kind: "BOARD", id: topic.id },
        group,
        title: topic.title,
        summary: topic.body,
        updatedAt: topic.updatedAt,
        authorId: topic.authorId,
      };
    }
    case "COMMENT": {
      const { group } = await requireGroupMember(tx, actor, ref.parent.groupId);
      const parent = await requireCommentParent(tx, ref.parent);
      const comment = await tx.comments.find(ref.parent, ref.number);
      if (!comment) throw new NotFoundError("COMMENT_NOT_FOUND", "The comment does not exist.");
      return {
        ref,
        key: { kind: "COMMENT", id: comment.id },
        group,
        title: parent.title,
        summary: comment.body,
        updatedAt: comment.createdAt,
        authorId: comment.authorId,
      };
    }
    case "TASK": {
      const { group } = await requireGroupMember(tx, actor, ref.groupId);
      const task = await requireTask(tx, ref);
      return {
        ref,
        key: { kind: "TASK", id: task.id },
        group,
        title: task.title,
        summary: task.body,
        updatedAt: task.updatedAt,
        authorId: task.authorId,
      };
    }
    case "CABINET": {
      const { group } = await requireGroupMember(tx, actor, ref.groupId);
      const file = await requireFile(tx, ref);
      return {
        ref,
        key: { kind: "CABINET", id: file.id },
        group,
        title: file.title,
        summary: file.memo,
        updatedAt: file.updatedAt,
        authorId: file.authorId,
      };
    }
  }
}

/** The item a stored key points at (for lists of favorites); undefined when it is gone. */
export async function itemOfKey(tx: Tx, key: ItemKey, group: Group): Promise<ItemView | undefined> {
  switch (key.kind) {
    case "BOARD": {
      const topic = await tx.topics.findById(key.id);
      if (!topic) return undefined;
      const ref: ContentRef = { kind: "BOARD", groupId: topic.groupId, id: topic.id };
      return {
        ref,
        key,
        group,
        title: topic.title,
        summary: topic.body,
        updatedAt: topic.updatedAt,
        authorId: topic.authorId,
      };
    }
    case "COMMENT": {
      const comment = await tx.comments.findById(key.id);
      if (!comment) return undefined;
      const parent = await requireCommentParent(tx, comment.parent).catch(() => undefined);
      if (!parent) return undefined;
      const ref = { kind: "COMMENT" as const, parent: comment.parent, number: comment.number };
      return {
        ref,
        key,
        group,
        title: parent.title,
        summary: comment.body,
        updatedAt: comment.createdAt,
        authorId: comment.authorId,
      };
    }
    case "TASK": {
      const task = await tx.tasks.findById(key.id);
      if (!task) return undefined;
      const ref: ContentRef = { kind: "TASK", groupId: task.groupId, id: task.id };
      return {
        ref,
        key,
        group,
        title: task.title,
        summary: task.body,
        updatedAt: task.updatedAt,
        authorId: task.authorId,
      };
    }
    case "CABINET": {
      const file = await tx.files.findById(key.id);
      if (!file) return undefined;
      const ref: ContentRef = { kind: "CABINET", groupId: file.groupId, id: file.id };
      return {
        ref,
        key,
        group,
        title: file.title,
        summary: file.memo,
        updatedAt: file.updatedAt,
        authorId: file.authorId,
      };
    }
  }
}
