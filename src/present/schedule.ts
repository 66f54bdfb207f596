import { element, utcTimestamp } from "../atom/build.js";
import type { PersonalEvent } from "../domain/event.js";
import { formatPersonalEventId } from "../domain/item-id.js";
import type { EventEntry } from "../services/event/event.js";
import type { ScheduleItem, ScheduleView } from "../services/schedule/schedule.js";
import { eventEntry, timingElements } from "./event.js";
import { type Viewer, authoredHead, feedDocument, itemEntry, newestOf, titleElement } from "./feed.js";
import { personalEventLinks, scheduleLinks } from "../domain/item-links.js";

/** The head of the caller's schedule feed: like the notification feed, the caller's own. */
function scheduleFeedHead(baseUrl: string, viewer: Viewer, updated: number, total?: number) {
  return {
    title: "Schedule",
    id: `${baseUrl}/api/schedule/V2`,
    alternate: scheduleLinks(baseUrl).alternate,
    viewer,
    updated,
    ...(total === undefined ? {} : { extra: element("cbl:totalCount", {}, String(total)) }),
  };
}

/**
 * `GET /api/schedule/V2` and the answer to a personal event write: `cbl:totalCount` before the
 * entries; personal events have no `cbl:group`, group events keep the group event entry.
 */
export function scheduleFeed(baseUrl: string, viewer: Viewer, view: ScheduleView, now: number): string {
  const entries = view.items.map((item) => scheduleEntry(baseUrl, item, view));
  const updated = newestOf(
    view.items.map((item) => item.entry.event),
    now,
  );
  return feedDocument(scheduleFeedHead(baseUrl, viewer, updated, view.total), entries);
}

function scheduleEntry(baseUrl: string, item: ScheduleItem, view: ScheduleView): string {
  return item.kind === "personal"
    ? personalEventEntry(baseUrl, item.entry)
    : eventEntry(baseUrl, item.group, item.entry, view.comments?.get(item.entry.event.id));
}

/**
 * A personal event (`MYPAGE,1:<owner>,MP_SCHEDULE,1:n`): the group event entry without
 * `cbl:group`, menu, participants, facilities or comments.
 */
export function personalEventEntry(baseUrl: string, entry: EventEntry<PersonalEvent>): string {
  const { event } = entry;
  const id = formatPersonalEventId(event);
  const author = {
    title: event.title,
    authorName: event.creatorName,
    authorId: event.creatorId,
    updatedAt: event.updatedAt,
  };
  return itemEntry(
    authoredHead(id, personalEventLinks(baseUrl, event.id), author, event.memo),
    timingElements(entry) + element("cbl:published", {}, utcTimestamp(event.createdAt)),
  );
}

/** The answer to a delete: a feed holding the deleted personal event's id. */
export function deletedPersonalEventFeed(baseUrl: string, viewer: Viewer, event: PersonalEvent, now: number): string {
  const id = formatPersonalEventId(event);
  return feedDocument(scheduleFeedHead(baseUrl, viewer, now), [
    `<entry>${element("id", {}, id)}${titleElement(event.title)}${element("updated", {}, utcTimestamp(now))}</entry>`,
  ]);
}
