// The changes the notification fan-out does not carry (store/queries/notifications.ts queues
// those itself): deletions of items, comment edits, likes, chat messages. Each is called in the
// change's own transaction, so a delivery exists exactly when its change committed.
import type { ContentRef } from "../../domain/item-id.js";
import { itemEvent } from "../../domain/webhook.js";
import type { Tx } from "../../store/store.js";

/** A topic, task, file or event was deleted for good. */
export async function queueItemDeleted(tx: Tx, ref: ContentRef, actorId: number | null, at: number): Promise<void> {
  await tx.webhooks.enqueueForGroup({
    event: itemEvent(ref.kind, "deleted"),
    groupId: ref.groupId,
    itemKind: ref.kind,
    itemId: ref.id,
    number: null,
    actorId,
    at,
  });
}

/** A comment's text was changed by its author. */
export async function queueCommentEdited(
  tx: Tx,
  parent: ContentRef,
  number: number,
  actorId: number,
  at: number,
): Promise<void> {
  await tx.webhooks.enqueueForGroup({
    event: "comment.updated",
    groupId: parent.groupId,
    itemKind: parent.kind,
    itemId: parent.id,
    number,
    actorId,
    at,
  });
}

/** Someone liked an item or a comment (`number`) of a group. */
export async function queueLikeAdded(
  tx: Tx,
  parent: ContentRef,
  number: number | null,
  actorId: number,
  at: number,
): Promise<void> {
  await tx.webhooks.enqueueForGroup({
    event: "like.added",
    groupId: parent.groupId,
    itemKind: parent.kind,
    itemId: parent.id,
    number,
    actorId,
    at,
  });
}

/** A chat message was written: the personal webhooks of the room's other members hear of it. */
export async function queueChatMessage(
  tx: Tx,
  roomId: number,
  number: number,
  actorId: number,
  at: number,
): Promise<void> {
  await tx.webhooks.enqueueForPeople(
    { event: "chat.message", groupId: null, itemKind: "CHAT", itemId: roomId, number, actorId, at },
    { kind: "roomMembers", roomId },
  );
}
