// What the web interface does to topics besides what the API does: read the edit page without
// taking the lease, move a topic between folders, and the trash (in, out). Deleting for good is the
// API's delete, limited to topics in the trash (`deleteTopic` with `fromTrash`).
import type { Actor } from "../../domain/access.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import {
  type EditLease,
  type Topic,
  isLeaseLive,
  requireMayDeleteTopic,
  requireMayUpdateTopic,
  requireNotLeasedByOther,
  requireNotTrashed,
  requireTrashed,
} from "../../domain/topic.js";
import { requireFolderOf } from "../group/folder-access.js";
import { requireGroupMember } from "../group/group-access.js";
import { requireTopic } from "./topic.js";
import type { ServiceContext } from "../context.js";

/** A topic as its edit page sees it: the caller's own live lease, when they hold one. */
export interface TopicEditorView {
  readonly group: Group;
  readonly topic: Topic;
  readonly ownLease: EditLease | undefined;
}

/**
 * Reads a topic for its edit page and changes nothing: opening the page (a GET, a prefetch, a
 * tab restored) must leave the topic free for others. Pressing Edit takes the lease (`lockTopic`).
 * @throws NotFoundError, ForbiddenError TOPIC_UPDATE_FORBIDDEN, ConflictError TOPIC_BEING_EDITED naming the holder, TOPIC_IN_TRASH
 */
export async function readTopicEditor(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef },
): Promise<TopicEditorView> {
  return ctx.store.read(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const topic = await requireTopic(tx, input.ref);
    requireMayUpdateTopic(topic, actor.user.id, membership);
    requireNotTrashed(topic);
    const lease = await tx.leases.find(topic.id);
    const now = ctx.clock.now();
    requireNotLeasedByOther(lease, actor.user.id, now);
    return { group, topic, ownLease: isLeaseLive(lease, now) ? lease : undefined };
  });
}

/** Where the web moves a topic: a board folder of its group, out of every folder, into or out of the trash. */
export type TopicPlace =
  | { readonly kind: "folder"; readonly folderId: number }
  | { readonly kind: "unclassified" }
  | { readonly kind: "trash" }
  | { readonly kind: "restore" };

/**
 * Moves a topic. Filing it needs the right to edit it; the trash (in and out) the right to
 * delete it. Nothing moves while someone else holds the edit lease.
 * @throws NotFoundError TOPIC_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError TOPIC_UPDATE_FORBIDDEN, TOPIC_DELETE_FORBIDDEN
 * @throws ConflictError TOPIC_BEING_EDITED, TOPIC_IN_TRASH, TOPIC_NOT_IN_TRASH
 */
export async function placeTopic(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; place: TopicPlace },
): Promise<Topic> {
  const { place } = input;
  return ctx.store.transaction(async (tx) => {
    const { membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const topic = await requireTopic(tx, input.ref);
    const at = ctx.clock.now();
    requireNotLeasedByOther(await tx.leases.find(topic.id), actor.user.id, at);
    if (place.kind === "trash" || place.kind === "restore") {
      requireMayDeleteTopic(topic, actor.user.id, membership);
      if (place.kind === "restore") requireTrashed(topic);
      else requireNotTrashed(topic);
      await tx.topics.place(topic.id, { trashed: place.kind === "trash", at });
      await tx.leases.remove(topic.id);
    } else {
      requireMayUpdateTopic(topic, actor.user.id, membership);
      requireNotTrashed(topic);
      if (place.kind === "folder") await requireFolderOf(tx, topic.groupId, place.folderId, "BOARD");
      await tx.topics.place(topic.id, { folderId: place.kind === "folder" ? place.folderId : null, at });
    }
    return requireTopic(tx, input.ref);
  });
}
