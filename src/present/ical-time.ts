// Times of the calendar feeds in the forms RFC 5545 wants, for ical-generator. A timed event in
// a zone is written as wall-clock readings with TZID (so that RRULE repeats at the same local
// time across a change of offset) and the zone's VTIMEZONE from timezones-ical-library (IANA
// rules, kept current by that package); an event in UTC, or in a zone the package does not know,
// as UTC values. All-day events are DATE values of their local days.
import type { ICalTemporalPlainDateTimeStub, ICalTemporalZonedDateTimeStub } from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";
import type { CalendarEvent } from "../domain/event.js";
import { parseEventRule } from "../domain/event-rule.js";
import { localDayOf } from "../domain/event-time.js";
import { utcToWallClock, wallClockToUtc } from "../domain/time-zone.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A zone as the feed writes it: its TZID and VTIMEZONE, or undefined for UTC values. */
export interface FeedZone {
  readonly tzid: string;
  readonly vtimezone: string;
}

const ZONES = new Map<string, FeedZone | undefined>();

/** The TZID and VTIMEZONE of an IANA zone; undefined for UTC and zones the package lacks. */
export function feedZoneOf(zone: string): FeedZone | undefined {
  if (ZONES.has(zone)) return ZONES.get(zone);
  let found: FeedZone | undefined;
  if (zone !== "UTC" && zone !== "Etc/UTC") {
    const block = tzlib_get_ical_block(zone);
    // [VTIMEZONE, "TZID=name"], or "" for a zone it does not know.
    if (Array.isArray(block) && block.length === 2 && block[1]?.startsWith("TZID="))
      found = { tzid: block[1].slice("TZID=".length), vtimezone: block[0] ?? "" };
  }
  ZONES.set(zone, found);
  return found;
}

function digits(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

/** `YYYYMMDD` of a day given as midnight UTC of that date. */
export function dateValue(day: number): string {
  const date = new Date(day);
  return `${digits(date.getUTCFullYear(), 4)}${digits(date.getUTCMonth() + 1, 2)}${digits(date.getUTCDate(), 2)}`;
}

/** `YYYYMMDDTHHMMSS` of a reading (epoch ms read as UTC); `Z` appended for a UTC value. */
export function dateTimeValue(reading: number, utc: boolean): string {
  const date = new Date(reading);
  const time = `${digits(date.getUTCHours(), 2)}${digits(date.getUTCMinutes(), 2)}${digits(date.getUTCSeconds(), 2)}`;
  return `${dateValue(reading)}T${time}${utc ? "Z" : ""}`;
}

/**
 * A UTC moment as the wall clock of `tzid` reads it, in the shape of a Temporal.ZonedDateTime:
 * ical-generator then writes the reading as it is after `;TZID=` (a native Date it would read
 * through the server process's own zone).
 */
export function zonedTime(utcMs: number, zone: string, tzid: string): ICalTemporalZonedDateTimeStub {
  const wall = new Date(utcToWallClock(utcMs, zone));
  const fields = {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
  const text = `${wall.toISOString().slice(0, 19)}[${tzid}]`;
  const zoned: ICalTemporalZonedDateTimeStub = {
    ...fields,
    timeZoneId: tzid,
    toInstant: () => ({
      epochMilliseconds: utcMs,
      toJSON: () => new Date(utcMs).toISOString(),
      toString: () => new Date(utcMs).toISOString(),
      toZonedDateTimeISO: () => zoned,
    }),
    toJSON: () => text,
    toPlainDateTime: () => plain,
    toString: () => text,
    withTimeZone: () => zoned,
  };
  const plain: ICalTemporalPlainDateTimeStub = {
    ...fields,
    toJSON: () => text.slice(0, 19),
    toPlainDate: () => ({ ...fields, toJSON: () => text.slice(0, 10), toString: () => text.slice(0, 10) }),
    toString: () => text.slice(0, 19),
    toZonedDateTime: () => zoned,
  };
  return zoned;
}

type Timing = Pick<CalendarEvent, "allDay" | "timeZone">;

/** The first day of an all-day span and the day after its last (wall-clock days, midnight UTC). */
export function allDayDays(span: { start: number; end: number }, zone: string): { first: number; after: number } {
  return { first: localDayOf(span.start, zone), after: localDayOf(span.end - 1, zone) + DAY_MS };
}

/** How an occurrence's original start is named (EXDATE, RECURRENCE-ID): its parameters and value. */
export function occurrenceValue(event: Timing, start: number): { params: string; value: string } {
  if (event.allDay) return { params: ";VALUE=DATE", value: dateValue(localDayOf(start, event.timeZone)) };
  const zone = feedZoneOf(event.timeZone);
  if (zone === undefined) return { params: "", value: dateTimeValue(start, true) };
  return { params: `;TZID=${zone.tzid}`, value: dateTimeValue(utcToWallClock(start, event.timeZone), false) };
}

/**
 * The stored rule as an RRULE property: as sent, but UNTIL in the form RFC 5545 §3.3.10 requires
 * next to DTSTART (a DATE for all-day events; a UTC date-time otherwise). A date UNTIL of a timed
 * event keeps its whole day on the event's clock, as the expansion does (domain/recurrence.ts).
 */
export function rruleProperty(event: Timing & { rule: string }): string {
  const rule = parseEventRule(event.rule);
  const parts = rule.text.split(";").map((part) => {
    if (!part.toUpperCase().startsWith("UNTIL=") || rule.until === undefined) return part;
    const { at, dateOnly } = rule.until;
    if (event.allDay) return `UNTIL=${dateValue(dateOnly ? at : localDayOf(at, event.timeZone))}`;
    if (!dateOnly) return `UNTIL=${dateTimeValue(at, true)}`;
    return `UNTIL=${dateTimeValue(wallClockToUtc(at + DAY_MS - 1000, event.timeZone), true)}`;
  });
  return `RRULE:${parts.join(";")}`;
}
