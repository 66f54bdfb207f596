// What the writes of other resources tell the notification mailer, in their own transaction: one
// row per person a change names (mentions, an assignment, a direct message). Changes for an item's
// readers are logged by the notification fan-out itself (store/queries/notifications.ts), once per
// change whatever the group's size.
import type { ContentRef } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";

/** Logs that `userIds` were named in the item's text (its body, or comment `number`). */
export async function logMentions(
  tx: Tx,
  input: { item: ContentRef; number: number | null; userIds: readonly number[]; actorId: number | null; at: number },
): Promise<void> {
  await tx.mailChanges.append(
    input.userIds.map((userId) => ({
      groupId: input.item.groupId,
      itemKind: input.item.kind,
      itemId: input.item.id,
      actorId: input.actorId,
      event: "mention" as const,
      number: input.number,
      userId,
      at: input.at,
    })),
  );
}

/** Logs that a task was given to `assigneeId` by someone else (assigning oneself tells nobody). */
export async function logAssignment(
  tx: Tx,
  input: { task: ContentRef; assigneeId: number | null; actorId: number | null; at: number },
): Promise<void> {
  if (input.assigneeId === null || input.assigneeId === input.actorId) return;
  await tx.mailChanges.append([
    {
      groupId: input.task.groupId,
      itemKind: "TASK",
      itemId: input.task.id,
      actorId: input.actorId,
      event: "assigned",
      number: null,
      userId: input.assigneeId,
      at: input.at,
    },
  ]);
}

/** Logs a direct message for the other members of the room (mailed if still unread a few minutes later). */
export async function logDirectMessage(
  tx: Tx,
  input: { roomId: number; number: number; recipients: readonly number[]; actorId: number; at: number },
): Promise<void> {
  await tx.mailChanges.append(
    input.recipients
      .filter((userId) => userId !== input.actorId)
      .map((userId) => ({
        groupId: null,
        itemKind: "CHAT" as const,
        itemId: input.roomId,
        actorId: input.actorId,
        event: "chat" as const,
        number: input.number,
        userId,
        at: input.at,
      })),
  );
}
