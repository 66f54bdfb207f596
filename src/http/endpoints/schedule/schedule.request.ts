import { NS } from "../../../atom/namespaces.js";
import { type XmlElement, child, childText } from "../../../atom/parse.js";
import { NotFoundError, ValidationError } from "../../../domain/errors.js";
import type { EventInput } from "../../../domain/event-draft.js";
import { type Window, parseTermBound, resolveEventWindow } from "../../../domain/event-time.js";
import { type ContentRef, type PersonalEventRef, parsePersonalEventId } from "../../../domain/item-id.js";
import type { PageWindow } from "../../../store/page-window.js";
import { readItemId, readPage, requireKind } from "../../../http-kit/parameters.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../../http-kit/query.js";
import { readOperation, requireSingleEntry } from "../../atom-request.js";
import { readEventFields } from "../gw-schedule/gw-schedule.request.js";

/** A schedule read: a page of the caller's schedule in a window, or one item of it. */
export type ScheduleRead =
  | { readonly kind: "list"; readonly window: Window; readonly page: PageWindow; readonly embedComments: boolean }
  | { readonly kind: "one"; readonly ref: PersonalEventRef | ContentRef; readonly embedComments: boolean };

/** A personal event write (docs/api.md "Personal schedule"). */
export type PersonalEventWrite =
  | ({ readonly op: "insert" } & EventInput)
  | ({ readonly op: "update"; readonly ref: PersonalEventRef } & EventInput)
  | { readonly op: "delete"; readonly ref: PersonalEventRef };

/**
 * Reads `GET /api/schedule/V2` parameters; `now` anchors a window given by neither bound.
 * `ignore-aggregated` is accepted and changes nothing (there is no calendar synchronisation).
 * @throws ValidationError TERM_INVALID, INVALID_ID, paging codes; NotFoundError NOT_FOUND (an id of another kind)
 */
export function readScheduleQuery(query: QueryValues, now: number): ScheduleRead {
  // `ignore-aggregated` is not read: any value is accepted, and there is nothing to ignore.
  const embedComments = queryFlag(query, "embed-comment");
  const entry = queryValue(query, "entry");
  if (entry !== undefined) return { kind: "one", ref: readScheduleId(entry, "entry"), embedComments };
  const start = parseTermBound(queryValue(query, "term-start"), "term-start");
  const end = parseTermBound(queryValue(query, "term-end"), "term-end");
  return { kind: "list", window: resolveEventWindow(start, end, now), page: readPage(query), embedComments };
}

/** A personal event id or a group event id; any other item id names no event of the schedule. */
function readScheduleId(text: string, name: string): PersonalEventRef | ContentRef {
  const personal = parsePersonalEventId(text);
  if (personal !== undefined) return personal;
  const ref = readItemId(text, name);
  return requireKind(ref, "GW_SCHEDULE");
}

/**
 * Reads a personal event POST: `cbl:operation` insert (also when absent), update or delete, one entry.
 * @throws ValidationError INVALID_OPERATION, ENTRY_REQUIRED, MULTIPLE_ENTRIES, ENTRY_ID_REQUIRED, INVALID_ID,
 *   PERSONAL_EVENT_NOT_SHARED (a cbl:group); NotFoundError NOT_FOUND (an id that is no personal event)
 */
export function readPersonalEventWrite(feed: XmlElement): PersonalEventWrite {
  const operation = readOperation(feed) ?? "insert";
  const entry = requireSingleEntry(feed, "event");
  switch (operation) {
    case "insert":
      if (child(entry, NS.cbl, "group") !== undefined)
        throw new ValidationError(
          "PERSONAL_EVENT_NOT_SHARED",
          "A personal event belongs to no group: leave out cbl:group (group events go to /api/gwSchedule/V2).",
        );
      return { op: "insert", ...readEventFields(entry) };
    case "update":
      return { op: "update", ref: readPersonalId(entry), ...readEventFields(entry) };
    case "delete":
      return { op: "delete", ref: readPersonalId(entry) };
    default:
      throw new ValidationError(
        "INVALID_OPERATION",
        `cbl:operation type "${clip(operation)}" is not one of insert, update, delete.`,
      );
  }
}

function readPersonalId(entry: XmlElement): PersonalEventRef {
  const id = childText(entry, NS.atom, "id");
  if (id === undefined || id.trim() === "")
    throw new ValidationError("ENTRY_ID_REQUIRED", "entry/id (the personal event id) is missing.");
  const personal = parsePersonalEventId(id);
  if (personal !== undefined) return personal;
  readItemId(id, "entry/id");
  throw new NotFoundError("NOT_FOUND", "The personal event does not exist (its id is MYPAGE,1:<you>,MP_SCHEDULE,1:n).");
}
