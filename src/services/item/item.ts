import type { Actor } from "../../domain/access.js";
import type { Comment } from "../../domain/comment.js";
import type { CalendarEvent } from "../../domain/event.js";
import { NotFoundError } from "../../domain/errors.js";
import type { Group } from "../../domain/group.js";
import { type ContentKind, type ContentRef, type ItemRef, parsePersonalEventId } from "../../domain/item-id.js";
import { refusePersonalTaskId } from "../../domain/personal-task.js";
import type { ItemKey } from "../../domain/reaction.js";
import type { Tx } from "../../store/store.js";
import { requireCommentParent } from "../comment/comment.js";
import { requireEvent } from "../event/event.js";
import { requireFile } from "../file/file.js";
import { requireGroupMember } from "../group/group-access.js";
import { refusePersonalEventSharing } from "../schedule/personal-event.js";
import { requireTask } from "../task/task.js";
import { requireTopic } from "../topic/topic.js";

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
 *   TASK_NOT_FOUND, FILE_NOT_FOUND, NOT_FOUND (an event; a personal event not the caller's)
 * @throws ValidationError PERSONAL_EVENT_NOT_SHARED (the caller's own personal event)
 * @throws ForbiddenError GROUP_NOT_JOINED
 * @throws ValidationError PERSONAL_TASK_NOT_SUPPORTED (the caller's own personal task)
 */
export async function requireItem(tx: Tx, actor: Actor, ref: ItemRef): Promise<ItemView> {
  switch (ref.kind) {
    case "GROUP":
      throw notFound();
    case "foreign": {
      const personal = parsePersonalEventId(ref.segments.join(","));
      if (personal !== undefined) await refusePersonalEventSharing(tx, actor, personal);
      // A personal task takes no likes or favorites either; only its owner learns it exists.
      refusePersonalTaskId(ref.segments.join(","), actor.user.id, "likes or favorites");
      throw notFound();
    }
    case "BOARD": {
      const { group } = await requireGroupMember(tx, actor, ref.groupId);
      const topic = await requireTopic(tx, ref);
      return contentItem("BOARD", group, topic, topic.body);
    }
    case "COMMENT": {
      const { group } = await requireGroupMember(tx, actor, ref.parent.groupId);
      const parent = await requireCommentParent(tx, ref.parent);
      const comment = await tx.comments.find(ref.parent, ref.number);
      if (!comment) throw new NotFoundError("COMMENT_NOT_FOUND", "The comment does not exist.");
      return commentItem(group, parent.title, comment);
    }
    case "TASK": {
      const { group } = await requireGroupMember(tx, actor, ref.groupId);
      const task = await requireTask(tx, ref);
      return contentItem("TASK", group, task, task.body);
    }
    case "CABINET": {
      const { group } = await requireGroupMember(tx, actor, ref.groupId);
      const file = await requireFile(tx, ref);
      return contentItem("CABINET", group, file, file.memo);
    }
    case "GW_SCHEDULE": {
      const { group } = await requireGroupMember(tx, actor, ref.groupId);
      const event = await requireEvent(tx, ref);
      return contentItem("GW_SCHEDULE", group, asContent(event), event.memo);
    }
  }
}

/** An event under the names the other items give their fields. */
function asContent(event: CalendarEvent): ContentRow {
  return {
    id: event.id,
    groupId: event.groupId,
    title: event.title,
    updatedAt: event.updatedAt,
    authorId: event.creatorId,
  };
}

/** The item a stored key points at (for lists of favorites); undefined when it is gone. */
export async function itemOfKey(tx: Tx, key: ItemKey, group: Group): Promise<ItemView | undefined> {
  switch (key.kind) {
    case "BOARD": {
      const topic = await tx.topics.findById(key.id);
      return topic && contentItem("BOARD", group, topic, topic.body);
    }
    case "COMMENT": {
      const comment = await tx.comments.findById(key.id);
      if (!comment) return undefined;
      const parent = await requireCommentParent(tx, comment.parent).catch(() => undefined);
      return parent && commentItem(group, parent.title, comment);
    }
    case "TASK": {
      const task = await tx.tasks.findById(key.id);
      return task && contentItem("TASK", group, task, task.body);
    }
    case "CABINET": {
      const file = await tx.files.findById(key.id);
      return file && contentItem("CABINET", group, file, file.memo);
    }
    case "GW_SCHEDULE": {
      const event = await tx.events.findById(key.id);
      return event && contentItem("GW_SCHEDULE", group, asContent(event), event.memo);
    }
  }
}

/** The fields a topic, task and file have in common, under the names each gives them. */
interface ContentRow {
  readonly id: number;
  readonly groupId: number;
  readonly title: string;
  readonly updatedAt: number;
  readonly authorId: number;
}

/** A topic, task or file as likes and favorites show it; `summary` is its body (a file's memo). */
function contentItem(kind: ContentKind, group: Group, row: ContentRow, summary: string): ItemView {
  return {
    ref: { kind, groupId: row.groupId, id: row.id },
    key: { kind, id: row.id },
    group,
    title: row.title,
    summary,
    updatedAt: row.updatedAt,
    authorId: row.authorId,
  };
}

/** A comment as likes and favorites show it: under its parent's title. */
function commentItem(group: Group, parentTitle: string, comment: Comment): ItemView {
  return {
    ref: { kind: "COMMENT", parent: comment.parent, number: comment.number },
    key: { kind: "COMMENT", id: comment.id },
    group,
    title: parentTitle,
    summary: comment.body,
    updatedAt: comment.createdAt,
    authorId: comment.authorId,
  };
}
