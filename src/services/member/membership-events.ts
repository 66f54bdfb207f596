// What happens around a membership's start and end, whoever causes it: the other members hear of
// it (a notification of the group's member list), and a leaver's notifications of the group go,
// as do the chat rooms the leaver no longer shares a group for.
import { memberListItem } from "../../domain/notification.js";
import type { Tx } from "../../store/store.js";
import { leaveRoomsOutsideGroups } from "../chat/chat-membership.js";

/** The group's other members are told that `userId` joined. */
export async function announceJoined(tx: Tx, groupId: number, userId: number, at: number): Promise<void> {
  await tx.notifications.fanOut({ item: memberListItem(groupId), actorId: userId, cause: { kind: "joined" }, at });
}

/**
 * Ends a joined membership: its notifications of the group go (the user can no longer read its
 * items), so do the chat rooms the rule of rooms no longer lets the user share, and the remaining
 * members hear that the user left.
 */
export async function endMembership(
  tx: Tx,
  membership: { id: number; groupId: number; userId: number },
  at: number,
): Promise<void> {
  await tx.memberships.remove(membership.id);
  await tx.notifications.removeOfMember(membership.userId, membership.groupId);
  await leaveRoomsOutsideGroups(tx, membership.userId);
  await tx.notifications.fanOut({
    item: memberListItem(membership.groupId),
    actorId: membership.userId,
    cause: { kind: "left" },
    at,
  });
}
