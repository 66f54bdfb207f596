// A calendar feed as iCalendar (RFC 5545), written by ical-generator: escaping of TEXT values and
// line folding at 75 octets (never inside a UTF-8 sequence) are the library's; the times, rules
// and exceptions are ours (present/ical-time.ts). One VEVENT per event, a repeating event as its
// whole series with EXDATE for cancelled occurrences and a RECURRENCE-ID VEVENT per moved one.
import ical, { type ICalCalendar, type ICalEventData, escape } from "ical-generator";
import type { CalendarView, FeedEvent, FeedEventFields } from "../services/schedule/calendar-feed.js";
import { contentLinks, personalEventLinks } from "../domain/item-links.js";
import { allDayDays, feedZoneOf, occurrenceValue, rruleProperty, zonedTime } from "./ical-time.js";

/** The media type of the feeds. */
export const ICAL_TYPE = "text/calendar; charset=utf-8";

type Span = { readonly start: number; readonly end: number };

/** The calendar of `view` as iCalendar text (CRLF lines). */
export function calendarText(view: CalendarView, baseUrl: string): string {
  const tzids = new Map<string, string>();
  const calendar = ical({
    prodId: { company: "Kairan", product: "Kairan", language: "EN" },
    // Escaped here: the library writes NAME and X-WR-CALNAME as given (a `,` or `;` of a group's name would be bare).
    name: escape(view.name, false),
    timezone: { name: null, generator: (tzid) => tzids.get(tzid) ?? null },
    scale: "GREGORIAN",
  });
  const host = new URL(baseUrl).host;
  for (const item of view.events) {
    const zone = item.event.allDay ? undefined : feedZoneOf(item.event.timeZone);
    if (zone !== undefined) tzids.set(zone.tzid, zone.vtimezone);
    addEvent(calendar, item, { uid: `${item.itemId}@${host}`, url: pageUrl(baseUrl, item.page) });
  }
  return calendar.toString();
}

/** The event's web page. */
function pageUrl(baseUrl: string, page: FeedEvent["page"]): string {
  return page.kind === "group"
    ? contentLinks(baseUrl, page.ref).alternate
    : personalEventLinks(baseUrl, page.eventId).alternate;
}

function addEvent(calendar: ICalCalendar, item: FeedEvent, names: { uid: string; url: string }): void {
  const { event } = item;
  const common = fieldsOf(event, names);
  calendar.createEvent({ ...common, ...timesOf(event, event), repeating: repeatingOf(event) });
  for (const exception of event.exceptions) {
    if (exception.cancelled) continue;
    const original = occurrenceValue(event, exception.originalStart);
    const recurrence: Partial<ICalEventData> = event.allDay
      ? // The library writes RECURRENCE-ID of an all-day event as a date-time; RFC 5545 wants the DTSTART's DATE form.
        { x: [[`RECURRENCE-ID${original.params}`, original.value]] }
      : { recurrenceId: dateOf(event, exception.originalStart) };
    calendar.createEvent({ ...common, ...timesOf(event, exception), ...recurrence });
  }
}

function fieldsOf(event: FeedEventFields, names: { uid: string; url: string }): ICalEventData {
  const facilities = event.facilities.map((facility) => facility.name).join(", ");
  return {
    id: names.uid,
    start: new Date(event.start),
    stamp: new Date(event.updatedAt),
    created: new Date(event.createdAt),
    lastModified: new Date(event.updatedAt),
    summary: event.title,
    description: event.memo === "" ? null : event.memo,
    location: facilities === "" ? null : facilities,
    categories: event.menuName === null ? [] : [{ name: event.menuName }],
    url: names.url,
  };
}

/** A moment of a timed event: a wall-clock reading with TZID, or a UTC Date. */
function dateOf(event: FeedEventFields, utcMs: number): ICalEventData["start"] {
  const zone = feedZoneOf(event.timeZone);
  return zone === undefined ? new Date(utcMs) : zonedTime(utcMs, event.timeZone, zone.tzid);
}

function timesOf(event: FeedEventFields, span: Span): Partial<ICalEventData> & Pick<ICalEventData, "start"> {
  if (event.allDay) {
    const days = allDayDays(span, event.timeZone);
    // Dates as midnight UTC: with no zone on the event, the library reads them through UTC.
    return { allDay: true, start: new Date(days.first), end: new Date(days.after) };
  }
  const zone = feedZoneOf(event.timeZone);
  return {
    start: dateOf(event, span.start),
    end: dateOf(event, span.end),
    timezone: zone === undefined ? null : zone.tzid,
  };
}

/** RRULE and its EXDATE line (the library's EXDATE needs its structured rule form, which would not keep ours as sent). */
function repeatingOf(event: FeedEventFields): string | null {
  if (event.rule === null) return null;
  const lines = [rruleProperty({ ...event, rule: event.rule })];
  const cancelled = event.exceptions.filter((exception) => exception.cancelled);
  if (cancelled.length > 0) {
    const values = cancelled.map((exception) => occurrenceValue(event, exception.originalStart));
    lines.push(`EXDATE${values[0]?.params ?? ""}:${values.map((value) => value.value).join(",")}`);
  }
  return lines.join("\r\n");
}
