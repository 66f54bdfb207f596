import { NS } from "../../../atom/namespaces.js";
import { type XmlElement, attribute, child, childText, children } from "../../../atom/parse.js";
import { ValidationError } from "../../../domain/errors.js";
import type { EventInput, WhenInput } from "../../../domain/event-draft.js";
import { type Window, parseTermBound, resolveEventWindow } from "../../../domain/event-time.js";
import { type ContentRef, parsePair } from "../../../domain/item-id.js";
import type { PageWindow } from "../../../store/page-window.js";
import type { EventMenuFilter } from "../../../store/queries/events.js";
import {
  readContentId,
  readEventMenuFilter,
  readGroupId,
  readGroupParameter,
  readPage,
} from "../../../http-kit/parameters.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../../http-kit/query.js";
import { readOperation, requireSingleEntry, summaryOf } from "../../atom-request.js";
import type { ChangeCursor } from "../../../domain/changes.js";
import { readChangesSince } from "../../changes-link.js";

/** A group event read: a page of a group's events in a window, or one event. */
export type EventRead =
  | {
      readonly kind: "list";
      readonly groupId: number;
      readonly window: Window;
      readonly menu: EventMenuFilter;
      readonly page: PageWindow;
      readonly embedComments: boolean;
      /** A bound was given: the window does not move with the clock (delta sync needs that). */
      readonly fixedWindow: boolean;
      readonly changesSince: ChangeCursor | undefined;
    }
  | { readonly kind: "one"; readonly ref: ContentRef; readonly embedComments: boolean };

/** A group event write (docs/api.md "Events"). */
export type EventWrite =
  | ({ readonly op: "insert"; readonly groupId: number } & EventInput)
  | ({ readonly op: "update"; readonly ref: ContentRef } & EventInput)
  | { readonly op: "delete"; readonly ref: ContentRef }
  /** Kairan's own: the caller's answer to an event naming them (docs/api.md "Participants' answers"). */
  | {
      readonly op: "answer";
      readonly ref: ContentRef;
      readonly answer: string | undefined;
      readonly forUserId: number | undefined;
    };

/**
 * Reads `GET /api/gwSchedule/V2` parameters; `now` anchors a window given by neither bound.
 * @throws ValidationError PARAMETER_REQUIRED, INVALID_GROUP, TERM_INVALID, INVALID_FOLDER, INVALID_ID, paging codes
 */
export function readEventQuery(query: QueryValues, now: number): EventRead {
  const embedComments = queryFlag(query, "embed-comment");
  const entry = queryValue(query, "entry");
  if (entry !== undefined) return { kind: "one", ref: readContentId(entry, "entry", "GW_SCHEDULE"), embedComments };
  const groupId = readGroupParameter(query);
  const start = parseTermBound(queryValue(query, "term-start"), "term-start");
  const end = parseTermBound(queryValue(query, "term-end"), "term-end");
  const page = readPage(query);
  return {
    kind: "list",
    groupId,
    window: resolveEventWindow(start, end, now),
    menu: readEventMenuFilter(queryValue(query, "event-folder"), "event-folder"),
    page,
    embedComments,
    fixedWindow: start !== undefined || end !== undefined,
    changesSince: readChangesSince(query, page),
  };
}

/** A window of neither bound moves with the clock: that answer is never kept by the feed cache. */
export function isEventQueryCacheable(query: QueryValues): boolean {
  return (
    queryValue(query, "entry") !== undefined ||
    queryValue(query, "term-start") !== undefined ||
    queryValue(query, "term-end") !== undefined
  );
}

/**
 * Reads an event POST: `cbl:operation` insert (also when absent), update, delete or answer, one entry.
 * @throws ValidationError INVALID_OPERATION, ENTRY_REQUIRED, MULTIPLE_ENTRIES, ENTRY_ID_REQUIRED, GROUP_REQUIRED,
 *   INVALID_ID, EVENT_ANSWER_INVALID
 */
export function readEventWrite(feed: XmlElement): EventWrite {
  const operation = readOperation(feed) ?? "insert";
  const entry = requireSingleEntry(feed, "event");
  switch (operation) {
    case "insert": {
      const group = attribute(child(entry, NS.cbl, "group") ?? entry, "id");
      if (group === undefined)
        throw new ValidationError(
          "GROUP_REQUIRED",
          "The group to create the event in is missing (entry/cbl:group id).",
        );
      return { op: "insert", groupId: readGroupId(group, "cbl:group id"), ...readEventFields(entry) };
    }
    case "update":
      return { op: "update", ref: readEntryId(entry), ...readEventFields(entry) };
    case "delete":
      return { op: "delete", ref: readEntryId(entry) };
    case "answer":
      return { op: "answer", ref: readEntryId(entry), ...readAnswer(entry) };
    default:
      throw new ValidationError(
        "INVALID_OPERATION",
        `cbl:operation type "${clip(operation)}" is not one of insert, update, delete, answer.`,
      );
  }
}

/**
 * The one `cbl:who answer=` of an answer; its `id`, optional, must be the caller's (checked by the service).
 * @throws ValidationError EVENT_ANSWER_INVALID (no cbl:who, or more than one), INVALID_ID
 */
function readAnswer(entry: XmlElement): { answer: string | undefined; forUserId: number | undefined } {
  const who = children(entry, NS.cbl, "who");
  if (who.length !== 1 || who[0] === undefined)
    throw new ValidationError(
      "EVENT_ANSWER_INVALID",
      "An answer holds one cbl:who with answer= attending, maybe or declined.",
    );
  const id = attribute(who[0], "id");
  return { answer: attribute(who[0], "answer"), forUserId: id === undefined ? undefined : readRefId(id, "cbl:who id") };
}

function readEntryId(entry: XmlElement): ContentRef {
  const id = childText(entry, NS.atom, "id");
  if (id === undefined || id.trim() === "")
    throw new ValidationError("ENTRY_ID_REQUIRED", "entry/id (the event id) is missing.");
  return readContentId(id, "entry/id", "GW_SCHEDULE");
}

function whenOf(element: XmlElement | undefined): WhenInput {
  return {
    startTime: element && attribute(element, "startTime"),
    endTime: element && attribute(element, "endTime"),
  };
}

/** The fields of an event entry (docs/api.md "Events"), for a group event or a personal one. */
export function readEventFields(entry: XmlElement): EventInput {
  const recurrence = child(entry, NS.cblSch, "recurrence");
  const ruleText = childText(entry, NS.cblSch, "rule") ?? (recurrence && childText(recurrence, NS.cblSch, "rule"));
  const menu = child(entry, NS.cblSch, "menu");
  return {
    title: childText(entry, NS.atom, "title"),
    memo: summaryOf(entry),
    when: whenOf(child(entry, NS.cbl, "when")),
    allDay: childText(entry, NS.cblSch, "allDay")?.trim().toLowerCase() === "true",
    timeZone: childText(entry, NS.cblSch, "timeZone"),
    rule: ruleText,
    menuId: menu === undefined ? null : readRefId(attribute(menu, "id"), "cblSch:menu id"),
    participantIds: children(entry, NS.cbl, "who").map((who) => readRefId(attribute(who, "id"), "cbl:who id")),
    facilityIds: children(entry, NS.cbl, "facility").map((f) => readRefId(attribute(f, "id"), "cbl:facility id")),
    exceptions: (recurrence ? children(recurrence, NS.cblSch, "exception") : []).map((exception) => ({
      startTime: attribute(exception, "startTime"),
      cancelled: attribute(exception, "cancelled")?.trim().toLowerCase() === "true",
    })),
    occurrences: (recurrence ? children(recurrence, NS.cbl, "when") : []).map(whenOf),
  };
}

/** A `1:n` id of a person, menu or facility. @throws ValidationError INVALID_ID */
function readRefId(text: string | undefined, name: string): number {
  const id = text === undefined ? undefined : parsePair(text);
  if (id === undefined)
    throw new ValidationError("INVALID_ID", `${name} must be an id such as 1:3 (got "${clip(text ?? "")}").`);
  return id;
}
