// The chat service provides these two (chat rooms are built on their own branch); placeholders until then.
import type { Tx } from "../store/store.js";

/** The user ids of the room's members: the audience of a message on the live stream. */
export async function chatMessageAudience(_tx: Tx, _roomId: number): Promise<readonly number[]> {
  return [];
}

/** The message as one Atom `entry` element written from `viewerId`'s side (ids MYPAGE,<viewer>,...), or undefined when it is gone or the viewer is not in the room. */
export async function chatMessageEntryFor(
  _tx: Tx,
  _baseUrl: string,
  _viewerId: number,
  _roomId: number,
  _messageNumber: number,
): Promise<string | undefined> {
  return undefined;
}
