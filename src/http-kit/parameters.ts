// The named parameters both sides read (folders, item and group ids, paging); a refusal names
// the parameter and echoes at most a clip of the value.
import { NotFoundError, ValidationError } from "../domain/errors.js";
import type { FolderFilter } from "../domain/folder.js";
import {
  type ContentKind,
  type ContentRef,
  type ItemRef,
  isGroupIdShape,
  parseGroupParameter,
  parseItemId,
  parsePair,
} from "../domain/item-id.js";
import { groupNotFound } from "../domain/group.js";
import { KINDS } from "../domain/kinds.js";
import { LIMITS } from "../domain/limits.js";
import type { PageWindow } from "../store/page-window.js";
import type { EventMenuFilter } from "../store/queries/events.js";
import { type QueryValues, clip, queryValue } from "./query.js";

/**
 * A folder parameter (`board-folder`, `task-folder`, `cabinet-folder`): a folder id, UNCLASSIFIED
 * or TRASH, plus the area's own `extra` words (ATTACH for files); absent or empty means every folder.
 * @throws ValidationError INVALID_FOLDER naming the parameter
 */
export function readFolderParameter<Extra extends string = never>(
  value: string | undefined,
  name: string,
  extra: readonly Extra[] = [],
): FolderFilter | { readonly kind: Lowercase<Extra> } {
  if (value === undefined || value.trim() === "") return { kind: "all" };
  const upper = value.trim().toUpperCase();
  if (upper === "UNCLASSIFIED") return { kind: "unclassified" };
  if (upper === "TRASH") return { kind: "trash" };
  const word = extra.find((candidate) => candidate === upper);
  if (word !== undefined) return { kind: word.toLowerCase() as Lowercase<Extra> };
  const folderId = parsePair(value);
  if (folderId === undefined) {
    const words = ["UNCLASSIFIED", ...extra].join(", ");
    throw new ValidationError(
      "INVALID_FOLDER",
      `${name} must be a folder id, ${words} or TRASH (got "${clip(value)}").`,
    );
  }
  return { kind: "folder", folderId };
}

/** The example id an error message shows per kind (the not-found code and the noun: domain/kinds.ts). */
const EXAMPLE: Readonly<Record<ContentKind, string>> = {
  BOARD: "GROUP,1:1,BOARD,1:7",
  TASK: "GROUP,1:1,TASK,1:3",
  CABINET: "GROUP,1:1,CABINET,1:4",
  GW_SCHEDULE: "GROUP,1:1,GW_SCHEDULE,1:5",
};

/**
 * An item id that must name a `kind` item; a well-formed id of anything else names an item of
 * that kind that does not exist.
 * @throws ValidationError INVALID_ID; NotFoundError TOPIC_NOT_FOUND, TASK_NOT_FOUND, FILE_NOT_FOUND
 */
export function readContentId(text: string, name: string, kind: ContentKind): ContentRef {
  const what = KINDS[kind];
  const ref = parseItemId(text);
  if (ref === undefined)
    throw new ValidationError(
      "INVALID_ID",
      `${name} must be a ${what.noun} id such as ${EXAMPLE[kind]} (got "${clip(text)}").`,
    );
  return requireKind(ref, kind);
}

/** Any item id, ours or of a kind we do not hold; `field` names where it came from. @throws ValidationError INVALID_ID */
export function readItemId(text: string, field?: string): ItemRef {
  const ref = parseItemId(text);
  if (ref === undefined) {
    const named = field === undefined ? "" : `${field} `;
    throw new ValidationError("INVALID_ID", `${named}"${clip(text)}" is not an item id such as GROUP,1:1,BOARD,1:7.`);
  }
  return ref;
}

/**
 * The item, when it is a `kind` item; any other names a `kind` item that does not exist.
 * @throws NotFoundError TOPIC_NOT_FOUND, TASK_NOT_FOUND, FILE_NOT_FOUND
 */
export function requireKind(ref: ItemRef, kind: ContentKind): ContentRef {
  if (ref.kind !== kind) throw new NotFoundError(KINDS[kind].notFound.code, `The ${KINDS[kind].noun} does not exist.`);
  return ref;
}

/**
 * A group id (`1:12` or `GROUP,1:12`) found in `name`. One shaped like a group id that names no
 * group here (`9:9`) is the same "no such group" as `1:99999`, not a format error.
 * @throws ValidationError INVALID_GROUP; NotFoundError GROUP_NOT_FOUND
 */
export function readGroupId(value: string, name: string): number {
  const groupId = parseGroupParameter(value);
  if (groupId !== undefined) return groupId;
  if (isGroupIdShape(value)) throw groupNotFound(clip(value.trim()));
  throw new ValidationError("INVALID_GROUP", `${name} must be a group id such as 1:12 (got "${clip(value)}").`);
}

/** The required `group` parameter (`1:12` or `GROUP,1:12`). @throws ValidationError PARAMETER_REQUIRED, INVALID_GROUP */
export function readGroupParameter(query: QueryValues): number {
  const value = queryValue(query, "group");
  if (value === undefined) throw new ValidationError("PARAMETER_REQUIRED", "The query parameter group is required.");
  return readGroupId(value, "group");
}

const WHOLE_NUMBER = /^[0-9]{1,9}$/;

/**
 * `start-index` (0-based, default 0) and `max-results` (default 20, above 100 clamped to 100).
 * @throws ValidationError INVALID_START_INDEX, INVALID_MAX_RESULTS
 */
export function readPage(query: QueryValues): PageWindow {
  const start = queryValue(query, "start-index")?.trim();
  const max = queryValue(query, "max-results")?.trim();
  if (start !== undefined && !WHOLE_NUMBER.test(start)) {
    throw new ValidationError(
      "INVALID_START_INDEX",
      `start-index must be a number of 0 or more (got "${clip(start)}").`,
    );
  }
  if (max !== undefined && (!WHOLE_NUMBER.test(max) || Number(max) === 0)) {
    throw new ValidationError("INVALID_MAX_RESULTS", `max-results must be a number of 1 or more (got "${clip(max)}").`);
  }
  return {
    offset: start === undefined ? 0 : Number(start),
    limit: max === undefined ? LIMITS.pageSizeDefault : Math.min(Number(max), LIMITS.pageSizeMax),
  };
}

/** An event menu filter: a menu id or UNCLASSIFIED; absent or empty, every event. @throws ValidationError INVALID_FOLDER */
export function readEventMenuFilter(value: string | undefined, name: string): EventMenuFilter {
  if (value === undefined || value.trim() === "") return { kind: "all" };
  if (value.trim().toUpperCase() === "UNCLASSIFIED") return { kind: "unclassified" };
  const menuId = parsePair(value);
  if (menuId === undefined)
    throw new ValidationError("INVALID_FOLDER", `${name} must be a menu id or UNCLASSIFIED (got "${clip(value)}").`);
  return { kind: "menu", menuId };
}
