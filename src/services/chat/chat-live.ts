// What the live stream needs of chat: who hears a message, and the message as one reader sees it.
import { chatMessageEntry } from "../../present/chat.js";
import type { Tx } from "../../store/store.js";
import { decorateMessages } from "./chat-files.js";

/** The user ids of the room's members: the audience of a message on the live stream. */
export function chatMessageAudience(tx: Tx, roomId: number): Promise<readonly number[]> {
  return tx.chat.memberIds(roomId);
}

/** The message as one Atom `entry` element written from `viewerId`'s side (ids MYPAGE,<viewer>,...), or undefined when it is gone or the viewer is not in the room. */
export async function chatMessageEntryFor(
  tx: Tx,
  baseUrl: string,
  viewerId: number,
  roomId: number,
  messageNumber: number,
): Promise<string | undefined> {
  if ((await tx.chat.room(roomId, viewerId)) === undefined) return undefined;
  const message = await tx.chat.message(roomId, messageNumber);
  if (message === undefined) return undefined;
  // With its files and likes, as the message feed writes it.
  const [decorated] = await decorateMessages(tx, roomId, [message], viewerId);
  return chatMessageEntry(baseUrl, viewerId, decorated ?? message);
}
