// Chat rooms follow group membership (docs/api.md "Chat"): when a membership ends, whoever no
// longer shares a group as the rule of rooms asks is taken out of the room. Reads check the same
// rule again (store/queries/chat-sharing.ts), so rooms written before it are refused too.
import type { Tx } from "../../store/store.js";

/** Takes a member out of a room with their like notifications of its messages (no longer theirs to see). */
export async function leaveRoom(tx: Tx, roomId: number, userId: number): Promise<void> {
  // The room before the member's row: a push waits there, never holding the room against us.
  await tx.chat.lockRoom(roomId);
  await tx.chat.removeMember(roomId, userId);
  await tx.chatLikeNotifications.removeOfMember(userId, roomId);
}

/**
 * After `userId` left a group (or was removed from it): `userId` leaves the THEME rooms whose
 * creator they no longer share a group with; the members of THEME rooms `userId` created who no
 * longer share one with them leave those; a DIRECT room whose two people no longer share a group
 * loses both (it keeps its messages, and opening it again when they share a group brings both back).
 */
export async function leaveRoomsOutsideGroups(tx: Tx, userId: number): Promise<void> {
  for (const member of await tx.chat.strandedMembers(userId)) await leaveRoom(tx, member.roomId, member.userId);
}
