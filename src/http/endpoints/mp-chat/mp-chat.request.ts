import { NS } from "../../../atom/namespaces.js";
import { type XmlElement, attribute, child, childText, children } from "../../../atom/parse.js";
import type { ChatRoomType } from "../../../domain/chat.js";
import { CHAT_LIMITS } from "../../../domain/limits.js";
import { ValidationError } from "../../../domain/errors.js";
import type { RoomQuery, RoomWrite } from "../../../services/chat/chat.js";
import { readPage } from "../../../http-kit/parameters.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../../http-kit/query.js";
import { readOperation, requireSingleEntry } from "../../atom-request.js";
import { parseUserId, readRoomId, userIdMessage } from "./chat-ids.js";

function readType(text: string, field: string): ChatRoomType {
  const type = text.trim().toUpperCase();
  if (type !== "THEME" && type !== "DIRECT")
    throw new ValidationError("INVALID_CHAT_TYPE", `${field} must be THEME or DIRECT (got "${clip(text)}").`);
  return type;
}

/**
 * `GET /api/mpChat/V2`: `id` (one room; the other filters are then ignored), else `chat-type`
 * (required) and `chat-member`; paging; `embed-comment`.
 * @throws ValidationError PARAMETER_REQUIRED, INVALID_CHAT_TYPE, INVALID_CHAT_MEMBER, INVALID_ID, paging errors
 */
export function readRoomQuery(query: QueryValues): RoomQuery {
  const page = readPage(query);
  const messages = queryFlag(query, "embed-comment") ? CHAT_LIMITS.embeddedMessages : 1;
  const id = queryValue(query, "id");
  if (id !== undefined && id.trim() !== "")
    return { roomId: readRoomId(id, "id"), type: null, withUserId: null, page, messages };
  const type = queryValue(query, "chat-type");
  if (type === undefined || type.trim() === "")
    throw new ValidationError("PARAMETER_REQUIRED", "The query parameter chat-type (THEME or DIRECT) is required.");
  const member = queryValue(query, "chat-member");
  return {
    roomId: null,
    type: readType(type, "chat-type"),
    withUserId: member === undefined || member.trim() === "" ? null : readMember(member),
    page,
    messages,
  };
}

function memberIdsOf(entry: XmlElement): number[] | undefined {
  const whos = children(entry, NS.cbl, "who");
  if (whos.length === 0) return undefined;
  return whos.map((who) => {
    const text = attribute(who, "id") ?? "";
    const id = parseUserId(text);
    if (id === undefined) throw new ValidationError("CHAT_MEMBER_INVALID", userIdMessage("cbl:who id", text));
    return id;
  });
}

function readMember(text: string): number {
  const id = parseUserId(text);
  if (id === undefined) throw new ValidationError("INVALID_CHAT_MEMBER", userIdMessage("chat-member", text));
  return id;
}

function entryRoomId(entry: XmlElement, feed: XmlElement): number {
  const id = childText(entry, NS.atom, "id") ?? childText(feed, NS.atom, "id");
  if (id === undefined || id.trim() === "")
    throw new ValidationError("ENTRY_ID_REQUIRED", "entry/id (the room id) is missing.");
  return readRoomId(id, "entry/id");
}

/**
 * A room write: `update_setting` (mute), `insert`, `update`, `delete` (leave).
 * @throws ValidationError INVALID_OPERATION, ENTRY_REQUIRED, ENTRY_ID_REQUIRED, INVALID_ID, INVALID_CHAT_TYPE, INVALID_MUTED, CHAT_MEMBER_INVALID
 */
export function readRoomWrite(feed: XmlElement): RoomWrite {
  const operation = readOperation(feed) ?? "insert";
  const entry = requireSingleEntry(feed, "room");
  if (operation === "update_setting") {
    const muted = childText(entry, NS.cblChat, "muted")?.trim().toLowerCase();
    if (muted !== "true" && muted !== "false")
      throw new ValidationError("INVALID_MUTED", "cblChat:muted must be true or false.");
    return { op: "mute", roomId: entryRoomId(entry, feed), muted: muted === "true" };
  }
  if (operation === "insert") {
    const typeText = child(entry, NS.cblChat, "type")?.text;
    const type = typeText === undefined || typeText.trim() === "" ? "THEME" : readType(typeText, "cblChat:type");
    return { op: "create", type, title: childText(entry, NS.atom, "title"), memberIds: memberIdsOf(entry) ?? [] };
  }
  if (operation === "update")
    return {
      op: "update",
      roomId: entryRoomId(entry, feed),
      title: childText(entry, NS.atom, "title"),
      memberIds: memberIdsOf(entry),
    };
  if (operation === "delete") return { op: "leave", roomId: entryRoomId(entry, feed) };
  throw new ValidationError(
    "INVALID_OPERATION",
    `cbl:operation type "${clip(operation)}" is not one of update_setting, insert, update, delete.`,
  );
}
