// What the live stream needs of chat: who hears a message, and the message as one reader sees it.
import type { ChatMessage } from "../../domain/chat.js";
import type { Tx } from "../../store/store.js";
import { decorateMessages } from "./chat-files.js";

/** The user ids of the room's members: the audience of a message on the live stream. */
export function chatMessageAudience(tx: Tx, roomId: number): Promise<readonly number[]> {
  return tx.chat.memberIds(roomId);
}

/** The message with its files and likes as `viewerId` sees it, or undefined when it is gone or the viewer is not in the room. */
export async function chatMessageFor(
  tx: Tx,
  viewerId: number,
  roomId: number,
  messageNumber: number,
): Promise<ChatMessage | undefined> {
  if ((await tx.chat.room(roomId, viewerId)) === undefined) return undefined;
  const message = await tx.chat.message(roomId, messageNumber);
  if (message === undefined) return undefined;
  // With its files and likes, as the message feed writes it.
  const [decorated] = await decorateMessages(tx, roomId, [message], viewerId);
  return decorated ?? message;
}
