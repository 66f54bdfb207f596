import { NS } from "../../../atom/namespaces.js";
import { type XmlElement, childText } from "../../../atom/parse.js";
import { NotFoundError, ValidationError } from "../../../domain/errors.js";
import {
  type ContentRef,
  type PersonalEventRef,
  isContentRef,
  parseChatId,
  parseItemId,
  parsePersonalEventId,
} from "../../../domain/item-id.js";
import { refusePersonalTaskId } from "../../../domain/personal-task.js";
import type { PageWindow } from "../../../store/page-window.js";
import { readOperation, readReplyTo, requireSingleEntry, summaryOf } from "../../atom-request.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../../http-kit/query.js";
import { readItemId, readPage } from "../../../http-kit/parameters.js";
import type { ChangeCursor } from "../../../domain/changes.js";
import { readChangesSince } from "../../changes-link.js";

/** `GET /api/comment/V2`: a page of one parent's comments. */
export interface CommentRead {
  readonly parent: ContentRef;
  readonly page: PageWindow;
  readonly unconfirmed: boolean;
  /** `changes-since` (docs/api.md "Delta sync"); undefined when absent. */
  readonly changesSince: ChangeCursor | undefined;
}

/** A comment write, after dispatch (docs/api.md "Comments": insert or none adds, update edits, delete deletes). */
export type CommentWrite =
  | {
      readonly op: "add";
      readonly parent: ContentRef;
      readonly text: string | undefined;
      readonly replyTo: number | undefined;
    }
  | { readonly op: "update"; readonly parent: ContentRef; readonly number: number; readonly text: string | undefined }
  | { readonly op: "delete"; readonly parent: ContentRef; readonly number: number }
  /** A comment on a personal event, which takes none (refused by the service: 400 or 404). */
  | { readonly op: "personal"; readonly ref: PersonalEventRef };

/** `GET /api/comment/V2?entry=<chat room id>`: a page of the room's messages. */
export interface ChatMessagesRead {
  readonly roomId: number;
  readonly page: PageWindow;
}

/** The room, when `entry` names a chat room (its messages are its comments); else undefined. @throws paging errors */
export function readChatMessagesQuery(query: QueryValues): ChatMessagesRead | undefined {
  const ref = parseChatId(queryValue(query, "entry") ?? "");
  if (ref === undefined || ref.messageNumber !== undefined) return undefined;
  return { roomId: ref.roomId, page: readPage(query) };
}

/** The personal event `entry` names, whose comments are refused; else undefined. */
export function readPersonalEventParent(query: QueryValues): PersonalEventRef | undefined {
  return parsePersonalEventId(queryValue(query, "entry") ?? "");
}

/**
 * `GET /api/comment/V2?entry=<comment id>`: the one comment whose own feed is asked for (its ETag
 * is what a conditional write names); undefined when `entry` names anything else.
 */
export function readOneComment(query: QueryValues): { parent: ContentRef; number: number } | undefined {
  const ref = parseItemId(queryValue(query, "entry") ?? "");
  return ref?.kind === "COMMENT" ? { parent: ref.parent, number: ref.number } : undefined;
}

/** Reads `entry`, paging and `unconfirmed`. @throws ValidationError naming the parameter, UNSUPPORTED_ITEM */
export function readCommentQuery(query: QueryValues, callerId: number): CommentRead {
  const entry = queryValue(query, "entry");
  if (entry === undefined)
    throw new ValidationError("PARAMETER_REQUIRED", "The query parameter entry (the item's id) is required.");
  const page = readPage(query);
  return {
    parent: readParentId(entry, "entry", callerId),
    page,
    unconfirmed: queryFlag(query, "unconfirmed"),
    changesSince: readChangesSince(query, page),
  };
}

/**
 * Reads a comment POST body.
 * @throws ValidationError PARENT_ID_REQUIRED, ENTRY_ID_REQUIRED, INVALID_ID, INVALID_OPERATION, MULTIPLE_ENTRIES, ...
 * @throws ValidationError UNSUPPORTED_ITEM; NotFoundError COMMENT_NOT_FOUND for a well-formed id of no comment
 * @throws ValidationError PERSONAL_TASK_NOT_SUPPORTED (the owner's personal task); NotFoundError TASK_NOT_FOUND (another's)
 */
export function readCommentWrite(feed: XmlElement, callerId: number): CommentWrite {
  const operation = readOperation(feed) ?? "insert";
  if (operation === "insert") {
    const feedId = childText(feed, NS.atom, "id");
    if (feedId === undefined || feedId.trim() === "") {
      throw new ValidationError("PARENT_ID_REQUIRED", "feed/id (the id of the item to comment on) is missing.");
    }
    const personal = parsePersonalEventId(feedId);
    if (personal !== undefined) return { op: "personal", ref: personal };
    const parent = readParentId(feedId, "feed/id", callerId);
    const entry = requireSingleEntry(feed, "comment");
    return { op: "add", parent, text: summaryOf(entry), replyTo: readReplyTo(entry) };
  }
  if (operation === "update") {
    const entry = requireSingleEntry(feed, "comment");
    return { op: "update", ...readCommentEntryId(entry), text: summaryOf(entry) };
  }
  if (operation === "delete") return { op: "delete", ...readCommentEntryId(requireSingleEntry(feed, "comment")) };
  throw new ValidationError(
    "INVALID_OPERATION",
    `cbl:operation type "${clip(operation)}" is not one of insert, update, delete.`,
  );
}

/**
 * The comment `entry/id` names.
 * @throws ValidationError ENTRY_ID_REQUIRED, INVALID_ID, CHAT_NOT_SUPPORTED; NotFoundError COMMENT_NOT_FOUND (an id of no comment)
 */
function readCommentEntryId(entry: XmlElement): { parent: ContentRef; number: number } {
  const id = childText(entry, NS.atom, "id");
  if (id === undefined || id.trim() === "")
    throw new ValidationError("ENTRY_ID_REQUIRED", "entry/id (the comment id) is missing.");
  refuseChat(id);
  const ref = readItemId(id, "entry/id");
  if (ref.kind !== "COMMENT") throw new NotFoundError("COMMENT_NOT_FOUND", "The comment does not exist.");
  return { parent: ref.parent, number: ref.number };
}

/**
 * A topic, task, file or group event id. A well-formed id of anything else (a group, a comment, a
 * personal message or schedule) is data the comment interface does not support: 400, per the spec's table.
 * A personal task is private: only its owner learns that it takes no comments (domain/personal-task.ts).
 */
function readParentId(text: string, field: string, callerId: number): ContentRef {
  refuseChat(text);
  refusePersonalTaskId(text, callerId, "comments");
  const ref = readItemId(text, field);
  if (!isContentRef(ref)) {
    throw new ValidationError(
      "UNSUPPORTED_ITEM",
      `${field} names an item the comment interface does not handle; comments go on topics, tasks, files and events.`,
    );
  }
  return ref;
}

/** Chat messages are written only through the push endpoint. @throws ValidationError CHAT_NOT_SUPPORTED */
function refuseChat(id: string): void {
  if (parseChatId(id) !== undefined)
    throw new ValidationError(
      "CHAT_NOT_SUPPORTED",
      "Chat messages are not written through the comment interface; use /api/comet/mpChatPush/V2.",
    );
}
