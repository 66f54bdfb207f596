import { element, utcTimestamp } from "../atom/build.js";
import {
  type CalendarEvent,
  type EventBase,
  type EventException,
  type NamedRef,
  type Participant,
  eventRef,
} from "../domain/event.js";
import type { Group } from "../domain/group.js";
import { formatContentId, formatGroupId, formatPair } from "../domain/item-id.js";
import type { Occurrence } from "../domain/recurrence.js";
import type { CommentDetail } from "../services/comment/comment-detail.js";
import type { EventEntry, EventListView } from "../services/event/event.js";
import { embeddedCommentsElement } from "./embedded-comments.js";
import {
  type Viewer,
  authorElement,
  authoredHead,
  feedDocument,
  itemEntry,
  newestOf,
  titleElement,
  webLinkElements,
} from "./feed.js";
import { areaLinks, contentLinks } from "../domain/item-links.js";
import { groupElement } from "./topic.js";
import { changeParts, nextChangesLink } from "./changes.js";

/**
 * The group event feed (`GET /api/gwSchedule/V2`, and the answer to a write): `cbl:totalCount`
 * before the entries, which a client reads as the number of entries of a one-page result.
 */
export function eventFeed(
  baseUrl: string,
  viewer: Viewer,
  view: EventListView,
  now: number,
  nextChanges?: string | undefined,
): string {
  const { tombstones, entries } = changeParts(
    view.changes,
    view.entries,
    (entry) => entry.event.id,
    (entry) => eventEntry(baseUrl, view.group, entry, view.comments?.get(entry.event.id)),
    (gone) => formatContentId({ kind: "GW_SCHEDULE", groupId: view.group.id, id: gone.itemId }),
  );
  return feedDocument(
    {
      title: view.group.name,
      id: formatGroupId(view.group.id),
      alternate: areaLinks(baseUrl, view.group.id, "GW_SCHEDULE").alternate,
      viewer,
      updated: newestOf(
        view.entries.map((entry) => entry.event),
        now,
      ),
      extra: element("cbl:totalCount", {}, String(view.total)) + nextChangesLink(nextChanges) + tombstones,
    },
    entries,
  );
}

/** `cbl:when` with exactly startTime then endTime, full UTC date-times (all-day events too). */
export function whenElement(occurrence: Occurrence): string {
  return element("cbl:when", { startTime: utcTimestamp(occurrence.start), endTime: utcTimestamp(occurrence.end) });
}

/** An event entry, its children in the order of docs/api.md "Events". */
export function eventEntry(
  baseUrl: string,
  group: Group,
  entry: EventEntry,
  comments: readonly CommentDetail[] | undefined,
): string {
  const { event } = entry;
  const ref = eventRef(event);
  const id = formatContentId(ref);
  const author = {
    title: event.title,
    authorName: event.creatorName,
    authorId: event.creatorId,
    updatedAt: event.updatedAt,
  };
  return itemEntry(
    authoredHead(id, contentLinks(baseUrl, ref), author, event.memo),
    groupElement(group) +
      timingElements(entry) +
      (event.menuId === null
        ? ""
        : element("cblSch:menu", { valueString: event.menuName ?? "", id: formatPair(event.menuId) })) +
      participantElements(event.participants) +
      namedElements("cbl:facility", event.facilities) +
      element("cbl:published", {}, utcTimestamp(event.createdAt)) +
      (comments === undefined
        ? ""
        : embeddedCommentsElement(baseUrl, { id, title: event.title, updatedAt: event.updatedAt }, comments)),
  );
}

/** `cbl:who valueString id`, then Kairan's `answer` (attending, maybe, declined) once the participant answered. */
function participantElements(people: readonly Participant[]): string {
  return people
    .map((person) =>
      element("cbl:who", {
        valueString: person.name,
        id: formatPair(person.id),
        ...(person.answer ? { answer: person.answer } : {}),
      }),
    )
    .join("");
}

function namedElements(qname: string, refs: readonly NamedRef[]): string {
  return refs.map((ref) => element(qname, { valueString: ref.name, id: formatPair(ref.id) })).join("");
}

/**
 * What any event entry, a group's or a personal one, says of its time: `cbl:when` (the shown
 * occurrence), `cblSch:allDay` when true, `cblSch:recurrence` for a repeating event.
 */
export function timingElements(entry: EventEntry<EventBase>): string {
  return (
    whenElement(entry.shown) +
    (entry.event.allDay ? element("cblSch:allDay", {}, "true") : "") +
    recurrenceElement(entry.event, entry.occurrences)
  );
}

/**
 * The `cbl:when` elements of an expansion's occurrences, by the array they come from. A listing
 * writes the same series' occurrences on every request (about 2,000 timestamps for a page of
 * daily series), and the expansion cache (services/event/expansion-cache.ts) hands out the same frozen
 * array each time, so the text is made once per array. Weak: it goes with the array.
 */
const WHEN_TEXT = new WeakMap<readonly Occurrence[], string>();

function whenElements(occurrences: readonly Occurrence[]): string {
  let text = WHEN_TEXT.get(occurrences);
  if (text === undefined) {
    text = occurrences.map(whenElement).join("");
    // Only a frozen array cannot change after its text is kept.
    if (Object.isFrozen(occurrences)) WHEN_TEXT.set(occurrences, text);
  }
  return text;
}

/** `cblSch:recurrence`: the rule, the occurrences in the window, then the exceptions. */
function recurrenceElement(event: EventBase, occurrences: readonly Occurrence[]): string {
  if (event.rule === null) return "";
  return (
    "<cblSch:recurrence>" +
    element("cblSch:rule", {}, event.rule) +
    whenElements(occurrences) +
    event.exceptions.map(exceptionElement).join("") +
    "</cblSch:recurrence>"
  );
}

function exceptionElement(exception: EventException): string {
  return element("cblSch:exception", {
    startTime: utcTimestamp(exception.originalStart),
    cancelled: exception.cancelled ? "true" : undefined,
  });
}

/** The answer to a delete: a feed holding the deleted event's id. */
export function deletedEventFeed(
  baseUrl: string,
  viewer: Viewer,
  event: CalendarEvent,
  group: Group,
  now: number,
): string {
  const id = formatContentId(eventRef(event));
  return feedDocument(
    {
      title: group.name,
      id: formatGroupId(group.id),
      alternate: areaLinks(baseUrl, group.id, "GW_SCHEDULE").alternate,
      viewer,
      updated: now,
    },
    [`<entry>${element("id", {}, id)}${titleElement(event.title)}${element("updated", {}, utcTimestamp(now))}</entry>`],
  );
}

/** `GET /api/gwScheduleFolder/V2`: a group's event menus, ids `GROUP,1:g,GW_SCHEDULE_FOLDER,1:n`. */
export function eventMenusFeed(baseUrl: string, viewer: Viewer, group: Group, menus: readonly NamedRef[]): string {
  const links = areaLinks(baseUrl, group.id, "GW_SCHEDULE");
  const entries = menus.map(
    (menu) =>
      "<entry>" +
      element("id", {}, `${formatGroupId(group.id)},GW_SCHEDULE_FOLDER,${formatPair(menu.id)}`) +
      titleElement(menu.name) +
      webLinkElements({
        alternate: `${links.alternate}?menu=${formatPair(menu.id)}`,
        mobile: `${links.mobile}?menu=${formatPair(menu.id)}`,
      }) +
      authorElement(viewer.name, viewer.id) +
      element("updated", {}, utcTimestamp(group.updatedAt)) +
      groupElement(group) +
      "</entry>",
  );
  return feedDocument(
    { title: group.name, id: formatGroupId(group.id), alternate: links.alternate, viewer, updated: group.updatedAt },
    entries,
  );
}
