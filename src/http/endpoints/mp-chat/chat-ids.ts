import { NotFoundError, ValidationError } from "../../../domain/errors.js";
import { type ChatRef, parseChatId, parsePair } from "../../../domain/item-id.js";
import { clip } from "../../../http-kit/query.js";

/** A chat room or message id; `field` names where it came from. @throws ValidationError INVALID_ID */
export function readChatId(text: string, field: string): ChatRef {
  const ref = parseChatId(text);
  if (ref === undefined)
    throw new ValidationError(
      "INVALID_ID",
      `${field} "${clip(text)}" is not a chat room id (MYPAGE,1:<user>,MP_CHAT,1:<room>).`,
    );
  return ref;
}

/** A room id (a message id names no room). @throws ValidationError INVALID_ID; NotFoundError NOT_FOUND */
export function readRoomId(text: string, field: string): number {
  const ref = readChatId(text, field);
  if (ref.messageNumber !== undefined) throw new NotFoundError("NOT_FOUND", `${field} names a message, not a room.`);
  return ref.roomId;
}

/** A user id as `1:5` (or a bare `5`); undefined for anything else. */
export function parseUserId(text: string): number | undefined {
  const trimmed = text.trim();
  return /^[1-9][0-9]{0,14}$/.test(trimmed) ? Number(trimmed) : parsePair(trimmed);
}

/** The message of a refused user id. */
export function userIdMessage(field: string, text: string): string {
  return `${field} "${clip(text)}" is not a user id such as 1:5.`;
}
