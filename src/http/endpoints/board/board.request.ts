import { NS } from "../../../atom/namespaces.js";
import { type XmlElement, attribute, child, childText } from "../../../atom/parse.js";
import { ForbiddenError, ValidationError } from "../../../domain/errors.js";
import type { FolderFilter } from "../../../domain/folder.js";
import { type ContentRef, parseGroupParameter, parseItemId } from "../../../domain/item-id.js";
import type { PageWindow } from "../../../store/page-window.js";
import {
  readFolderParameter,
  readGroupId,
  readGroupParameter,
  readItemId,
  readPage,
  requireKind,
} from "../../../http-kit/parameters.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../../http-kit/query.js";
import { readOperation, readReplyTo, requireSingleEntry, summaryOf } from "../../atom-request.js";
import type { ChangeCursor } from "../../../domain/changes.js";
import { readChangesSince } from "../../changes-link.js";

/** A board read: a page of a group's topics, or one topic. */
export type BoardRead =
  | {
      readonly kind: "list";
      readonly groupId: number;
      readonly filter: FolderFilter;
      readonly page: PageWindow;
      readonly embedComments: boolean;
      readonly changesSince: ChangeCursor | undefined;
    }
  | { readonly kind: "one"; readonly ref: ContentRef; readonly embedComments: boolean };

/** A board write, after dispatch (docs/api.md "Board"). */
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
  const page = readPage(query);
  return {
    kind: "list",
    groupId,
    filter: readFolderParameter(queryValue(query, "board-folder"), "board-folder"),
    page,
    embedComments,
    changesSince: readChangesSince(query, page),
  };
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
  return requireKind(readItemId(text), "BOARD");
}
