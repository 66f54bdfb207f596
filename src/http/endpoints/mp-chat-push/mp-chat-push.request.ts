import { NS } from "../../../atom/namespaces.js";
import { type XmlElement, childText, children } from "../../../atom/parse.js";
import { NotFoundError, ValidationError } from "../../../domain/errors.js";
import type { MessageWrite } from "../../../services/chat/chat-message.js";
import { clip } from "../../../http-kit/query.js";
import { readOperation, requireSingleEntry, summaryOf } from "../../atom-request.js";
import { readChatId, readRoomId } from "../mp-chat/chat-ids.js";

/**
 * A push: `insert` (or none) with the room in `id` (before or after `cbl:operation`) and the text
 * in `entry/summary`; `delete` with the message id in `entry/id` (or `id`).
 * @throws ValidationError PARENT_ID_REQUIRED, ENTRY_ID_REQUIRED, INVALID_ID, INVALID_OPERATION, ENTRY_REQUIRED, MULTIPLE_ENTRIES
 * @throws NotFoundError NOT_FOUND (a message id where a room was expected), COMMENT_NOT_FOUND
 */
export function readPush(feed: XmlElement): MessageWrite {
  const operation = readOperation(feed) ?? "insert";
  if (operation === "insert") {
    const id = childText(feed, NS.atom, "id");
    if (id === undefined || id.trim() === "")
      throw new ValidationError("PARENT_ID_REQUIRED", "id (the chat room's id) is missing.");
    const roomId = readRoomId(id, "id");
    const entry = requireSingleEntry(feed, "message");
    return { op: "add", roomId, text: summaryOf(entry) };
  }
  if (operation === "delete") {
    const entry = children(feed, NS.atom, "entry")[0];
    const id = (entry && childText(entry, NS.atom, "id")) ?? childText(feed, NS.atom, "id");
    if (id === undefined || id.trim() === "")
      throw new ValidationError("ENTRY_ID_REQUIRED", "entry/id (the message id) is missing.");
    const ref = readChatId(id, "entry/id");
    if (ref.messageNumber === undefined)
      throw new NotFoundError("COMMENT_NOT_FOUND", "The id names a room, not a message.");
    return { op: "delete", roomId: ref.roomId, number: ref.messageNumber };
  }
  throw new ValidationError(
    "INVALID_OPERATION",
    `cbl:operation type "${clip(operation)}" is not one of insert, delete.`,
  );
}
