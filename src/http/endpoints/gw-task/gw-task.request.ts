import { ValidationError } from "../../../domain/errors.js";
import type { FolderFilter } from "../../../domain/folder.js";
import type { ContentRef } from "../../../domain/item-id.js";
import { type TaskFilter, resolveTerm } from "../../../domain/task.js";
import type { PageWindow } from "../../../store/page-window.js";
import { readContentId, readFolderParameter } from "../../../http-kit/parameters.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../../http-kit/query.js";
import { readGroupParameter, readPage } from "../../../http-kit/parameters.js";
import type { ChangeCursor } from "../../../domain/changes.js";
import { readChangesSince } from "../../changes-link.js";

/** A task-list read: a page of a group's tasks, or one task. */
export type TaskRead =
  | {
      readonly kind: "list";
      readonly groupId: number;
      readonly folder: FolderFilter;
      readonly filter: TaskFilter;
      readonly page: PageWindow;
      readonly embedComments: boolean;
      readonly changesSince: ChangeCursor | undefined;
    }
  | { readonly kind: "one"; readonly ref: ContentRef; readonly embedComments: boolean };

/**
 * Reads `GET /api/gwTask/V2` parameters; `now` is the default term-start.
 * @throws ValidationError naming the parameter; NotFoundError TASK_NOT_FOUND for an id of another kind
 */
export function readTaskQuery(query: QueryValues, now: number): TaskRead {
  const embedComments = queryFlag(query, "embed-comment");
  const entry = queryValue(query, "entry");
  if (entry !== undefined) return { kind: "one", ref: readContentId(entry, "entry", "TASK"), embedComments };
  if (queryValue(query, "group") === undefined) {
    throw new ValidationError("PARAMETER_REQUIRED", "The query parameter group (or entry) is required.");
  }
  const groupId = readGroupParameter(query);
  const folder = readFolderParameter(queryValue(query, "task-folder"), "task-folder");
  const page = readPage(query);
  const filter = readTaskFilter(query, now);
  return { kind: "list", groupId, folder, filter, page, embedComments, changesSince: readChangesSince(query, page) };
}

/**
 * `term-start`, `term-end` and `status` of a task list (group tasks and the ToDo list alike).
 * @throws ValidationError INVALID_TERM_START, INVALID_TERM_END, INVALID_STATUS, and the term rules' codes
 */
export function readTaskFilter(query: QueryValues, now: number): TaskFilter {
  const term = resolveTerm(readTermValue(query, "term-start"), readTermValue(query, "term-end"), now);
  return { term, notCompletedOnly: readStatus(query) };
}

/**
 * False when the answer depends on the time of the request: a `term-end` without `term-start`
 * counts the term from now (the feed cache must not keep it).
 */
export function isTaskQueryCacheable(query: QueryValues): boolean {
  return queryValue(query, "term-start") !== undefined || queryValue(query, "term-end") === undefined;
}

// RFC 3339 date-time (`T`/`Z` in either case, optional fraction), with the zone Z only.
const UTC_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?[Zz]$/;

/** A term bound; undefined when absent. @throws ValidationError INVALID_TERM_START, INVALID_TERM_END */
function readTermValue(query: QueryValues, name: "term-start" | "term-end"): number | undefined {
  const value = queryValue(query, name);
  if (value === undefined) return undefined;
  const match = UTC_DATE_TIME.exec(value.trim());
  const at = match
    ? Date.UTC(
        Number(match[1]),
        Number(match[2]) - 1,
        Number(match[3]),
        Number(match[4]),
        Number(match[5]),
        Number(match[6]),
      )
    : NaN;
  // Date.UTC rolls 02-30 or 25:00 over; a real date-time formats back to the digits it came from.
  const real =
    match !== null &&
    !Number.isNaN(at) &&
    new Date(at).toISOString().slice(0, 19) === `${match.slice(1, 4).join("-")}T${match.slice(4, 7).join(":")}`;
  if (!real) {
    const code = name === "term-start" ? "INVALID_TERM_START" : "INVALID_TERM_END";
    throw new ValidationError(
      code,
      `${name} must be an RFC 3339 date-time in UTC (zone Z) such as 2026-04-01T00:00:00Z (got "${clip(value)}").`,
    );
  }
  return at;
}

/** `status`: only NOT_COMPLETED. @throws ValidationError INVALID_STATUS */
function readStatus(query: QueryValues): boolean {
  const value = queryValue(query, "status")?.trim();
  if (value === undefined || value === "") return false;
  if (value.toUpperCase() === "NOT_COMPLETED") return true;
  throw new ValidationError("INVALID_STATUS", `status must be NOT_COMPLETED (got "${clip(value)}").`);
}
