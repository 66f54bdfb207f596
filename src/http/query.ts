import { ValidationError } from "../domain/errors.js";
import { groupNotFound } from "../domain/group.js";
import { isGroupIdShape, parseGroupParameter } from "../domain/item-id.js";
import { LIMITS } from "../domain/limits.js";
import type { Page } from "../store/store.js";

/** Query parameters as fastify parses them: repeated keys become arrays. */
export type QueryValues = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The value of a parameter; when a client repeats it, the last one counts. */
export function queryValue(query: QueryValues, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[value.length - 1] : (value as string | undefined);
}

/** `true` in any letter case is true; anything else, or absence, is false (decisions.md §1). */
export function queryFlag(query: QueryValues, name: string): boolean {
  return queryValue(query, name)?.trim().toLowerCase() === "true";
}

const WHOLE_NUMBER = /^[0-9]{1,9}$/;

/**
 * `start-index` (0-based, default 0) and `max-results` (default 20, above 100 clamped to 100).
 * @throws ValidationError INVALID_START_INDEX, INVALID_MAX_RESULTS
 */
export function readPage(query: QueryValues): Page {
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

/** Echoes at most 40 characters of a bad value, so an error never carries a huge input back. */
export function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

/** The required `group` parameter (`1:12` or `GROUP,1:12`). @throws ValidationError PARAMETER_REQUIRED, INVALID_GROUP; NotFoundError GROUP_NOT_FOUND */
export function readGroupParameter(query: QueryValues): number {
  const value = queryValue(query, "group");
  if (value === undefined) throw new ValidationError("PARAMETER_REQUIRED", "The query parameter group is required.");
  return readGroupId(value, "group");
}

/**
 * A group id read from `field`: `1:12` or `GROUP,1:12`. One shaped like a group id that names no
 * group here (`9:9`) is the same "no such group" as `1:99999`, not a format error.
 * @throws ValidationError INVALID_GROUP; NotFoundError GROUP_NOT_FOUND
 */
export function readGroupId(value: string, field: string): number {
  const groupId = parseGroupParameter(value);
  if (groupId !== undefined) return groupId;
  if (isGroupIdShape(value)) throw groupNotFound(clip(value.trim()));
  throw new ValidationError("INVALID_GROUP", `${field} must be a group id such as 1:12 (got "${clip(value)}").`);
}
