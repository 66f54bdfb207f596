import { NS } from "../../../atom/namespaces.js";
import { type XmlElement, attribute, child, childText } from "../../../atom/parse.js";
import { ForbiddenError, NotFoundError, ValidationError } from "../../../domain/errors.js";
import type { FolderFilter } from "../../../domain/folder.js";
import { type ContentRef, parseGroupParameter, parseItemId, parsePair } from "../../../domain/item-id.js";
import type { Page } from "../../../store/store.js";
import {
  type QueryValues,
  clip,
  queryFlag,
  queryValue,
  readGroupId,
  readGroupParameter,
  readPage,
} from "../../query.js";
import { readOperation, readReplyTo, requireSingleEntry, summaryOf } from "../../atom-request.js";

/** A board read: a page of a group's topics, or one topic. */
export type BoardRead =
  | {
      readonly kind: "list";
      readonly groupId: number;
      readonly filter: FolderFilter;
      readonly page: Page;
      readonly embedComments: boolean;
    }
  | { readonly kind: "one"; readonly ref: ContentRef; readonly embedComments: boolean };

/** A board write, after dispatch (decisions.md §4). */
export type BoardWrite =
  | {
      readonly op: "create";
      readonly groupId: number;
      readonly title: string | undefined;
      readonly body: string | undefined;
    }
  | {
      readonly op: "update";
      readonly ref: ContentRef;
      readonly title: string | undefined;
      readonly body: string | undefined;
    }
  | { readonly op: "delete" | "lock" | "unlock"; readonly ref: ContentRef }
  | {
      readonly op: "comment";
      readonly parent: ContentRef;
      readonly text: string | undefined;
      readonly replyTo: number | undefined;
    };

/** Reads `GET /api/board/V2` parameters. @throws ValidationError naming the parameter */
export function readBoardQuery(query: QueryValues): BoardRead {
  const embedComments = queryFlag(query, "embed-comment");
  const entry = queryValue(query, "entry");
  if (entry !== undefined) return { kind: "one", ref: readTopicId(entry), embedComments };
  if (queryValue(query, "group") === undefined) {
    throw new ValidationError("PARAMETER_REQUIRED", "The query parameter group (or entry) is required.");
  }
  const groupId = readGroupParameter(query);
  return {
    kind: "list",
    groupId,
    filter: readFolderFilter(queryValue(query, "board-folder")),
    page: readPage(query),
    embedComments,
  };
}

/** `board-folder`: a folder id, UNCLASSIFIED or TRASH. */
export function readFolderFilter(value: string | undefined): FolderFilter {
  if (value === undefined || value.trim() === "") return { kind: "all" };
  const upper = value.trim().toUpperCase();
  if (upper === "UNCLASSIFIED") return { kind: "unclassified" };
  if (upper === "TRASH") return { kind: "trash" };
  const folderId = parsePair(value);
  if (folderId === undefined) {
    throw new ValidationError(
      "INVALID_FOLDER",
      `board-folder must be a folder id, UNCLASSIFIED or TRASH (got "${clip(value)}").`,
    );
  }
  return { kind: "folder", folderId };
}

/**
 * Reads and dispatches a board POST: `cbl:operation` decides; without one, a feed whose id names
 * a topic adds a comment, anything else creates a topic.
 * @throws ValidationError, ForbiddenError WRONG_GROUP
 */
export function readBoardWrite(feed: XmlElement, query: QueryValues): BoardWrite {
  const operation = readOperation(feed);
  const feedId = childText(feed, NS.atom, "id")?.trim();
  if (operation === undefined && feedId !== undefined && parseItemId(feedId)?.kind === "BOARD") {
    const entry = requireSingleEntry(feed, "comment");
    return { op: "comment", parent: readTopicId(feedId), text: summaryOf(entry), replyTo: readReplyTo(entry) };
  }
  switch (operation ?? "insert") {
    case "insert":
      return readCreate(feed, query);
    case "update": {
      const entry = requireSingleEntry(feed, "topic");
      return {
        op: "update",
        ref: readEntryTopicId(entry),
        title: childText(entry, NS.atom, "title"),
        body: summaryOf(entry),
      };
    }
    case "delete":
    case "lock":
    case "unlock":
      return {
        op: operation as "delete" | "lock" | "unlock",
        ref: readEntryTopicId(requireSingleEntry(feed, "topic")),
      };
    default:
      throw new ValidationError(
        "INVALID_OPERATION",
        `cbl:operation type "${clip(operation ?? "")}" is not one of insert, update, delete, lock, unlock.`,
      );
  }
}

function readCreate(feed: XmlElement, query: QueryValues): BoardWrite {
  const entry = requireSingleEntry(feed, "topic");
  const fromEntry = attribute(child(entry, NS.cbl, "group") ?? child(feed, NS.cbl, "group") ?? entry, "id");
  const fromQuery = queryValue(query, "group");
  const groupText = fromEntry ?? fromQuery;
  if (groupText === undefined) {
    throw new ValidationError("GROUP_REQUIRED", "The group to create the topic in is missing (entry/cbl:group id).");
  }
  const groupId = readGroupId(groupText, fromEntry === undefined ? "group" : "cbl:group id");
  if (fromEntry !== undefined && fromQuery !== undefined && parseGroupParameter(fromQuery) !== groupId) {
    throw new ForbiddenError("WRONG_GROUP", "The group in the entry and the group parameter of the URL differ.");
  }
  return { op: "create", groupId, title: childText(entry, NS.atom, "title"), body: summaryOf(entry) };
}

function readEntryTopicId(entry: XmlElement): ContentRef {
  const id = childText(entry, NS.atom, "id");
  if (id === undefined || id.trim() === "")
    throw new ValidationError("ENTRY_ID_REQUIRED", "entry/id (the topic id) is missing.");
  return readTopicId(id);
}

/** A topic id; a well-formed id of anything else is a topic that does not exist. */
function readTopicId(text: string): ContentRef {
  const ref = parseItemId(text);
  if (ref === undefined)
    throw new ValidationError("INVALID_ID", `"${clip(text)}" is not an item id such as GROUP,1:1,BOARD,1:7.`);
  if (ref.kind !== "BOARD") throw new NotFoundError("TOPIC_NOT_FOUND", "The topic does not exist.");
  return ref;
}
