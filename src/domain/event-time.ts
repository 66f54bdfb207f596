// The time rules of events (docs/api.md "Events"): the listing window, half-open intervals, the
// event's own times (UTC instants, or plain dates for all-day events) and all-day bounds, which
// are midnights of the event's time zone written in UTC.
import { ValidationError } from "./errors.js";
import { LIMITS } from "./limits.js";
import { oneMonthAfter } from "./task.js";
import { canonicalZone, utcToWallClock, wallClockToUtc } from "./time-zone.js";

/** A half-open interval [start, end) of epoch milliseconds. */
export interface Window {
  readonly start: number;
  readonly end: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const WINDOW_MIN = Date.UTC(1900, 0, 1);
// 2100-12-31 is allowed as a whole day.
const WINDOW_MAX = Date.UTC(2101, 0, 1);
// RFC 3339 date-time (`T`/`Z` in either case, optional fraction), with the zone Z only.
const UTC_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?[Zz]$/;
const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An RFC 3339 UTC date-time (zone `Z` only) to whole-second epoch ms; undefined when it is not one. */
export function parseUtcDateTime(text: string): number | undefined {
  const match = UTC_DATE_TIME.exec(text.trim());
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 02-30 or 25:00 over; a real date-time formats back to the digits it came from.
  const digits = `${match.slice(1, 4).join("-")}T${match.slice(4, 7).join(":")}`;
  return new Date(at).toISOString().slice(0, 19) === digits ? at : undefined;
}

/** `YYYY-MM-DD` to midnight UTC of that day; undefined when it is not a real date. */
export function parsePlainDate(text: string): number | undefined {
  const match = PLAIN_DATE.exec(text.trim());
  if (match === null) return undefined;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(at).toISOString().startsWith(text.trim()) ? at : undefined;
}

/** The same day and time one calendar month earlier; the 31st becomes the last day of a shorter month. */
export function oneMonthBefore(epochMs: number): number {
  const date = new Date(epochMs);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - 1);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

function termInvalid(message: string): ValidationError {
  return new ValidationError("TERM_INVALID", message);
}

/** A window bound as sent; undefined when absent. @throws ValidationError TERM_INVALID */
export function parseTermBound(text: string | undefined, name: "term-start" | "term-end"): number | undefined {
  if (text === undefined) return undefined;
  const at = parseUtcDateTime(text);
  if (at === undefined) throw termInvalid(`${name} must be an RFC 3339 date-time in UTC such as 2026-04-01T00:00:00Z.`);
  return at;
}

/**
 * The listing window: both bounds as given; one alone, the other one calendar month from it;
 * neither, now to one month from now. Bounds within 1900-01-01..2100-12-31, end after start, at
 * most 366 days apart.
 * @throws ValidationError TERM_INVALID
 */
export function resolveEventWindow(start: number | undefined, end: number | undefined, now: number): Window {
  const from = start ?? (end === undefined ? now : oneMonthBefore(end));
  const to = end ?? oneMonthAfter(from);
  for (const [value, name] of [
    [start, "term-start"],
    [end, "term-end"],
  ] as const) {
    if (value !== undefined && (value < WINDOW_MIN || value > WINDOW_MAX))
      throw termInvalid(`${name} must lie between 1900-01-01 and 2100-12-31.`);
  }
  if (to <= from) throw termInvalid("term-end must be later than term-start.");
  if (to - from > LIMITS.eventWindowMaxDays * DAY_MS)
    throw termInvalid(`term-end must be at most ${LIMITS.eventWindowMaxDays} days after term-start.`);
  return { start: from, end: to };
}

/** Whether [start, end) meets the window: an interval ending exactly at its start does not. */
export function overlaps(interval: Window, window: Window): boolean {
  return interval.start < window.end && interval.end > window.start;
}

/** The event's time zone: the given IANA name, canonical. @throws ValidationError EVENT_TIME_ZONE_INVALID */
export function requireEventZone(zone: string): string {
  const canonical = canonicalZone(zone.trim());
  if (canonical === undefined)
    throw new ValidationError(
      "EVENT_TIME_ZONE_INVALID",
      "cblSch:timeZone must be an IANA time zone such as Asia/Tokyo.",
    );
  return canonical;
}

function timeInvalid(message: string): ValidationError {
  return new ValidationError("EVENT_TIME_INVALID", message);
}

/** Midnight of the local day (in `zone`) that contains `utcMs`, as a wall-clock day (midnight UTC of that date). */
export function localDayOf(utcMs: number, zone: string): number {
  const wall = utcToWallClock(utcMs, zone);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

/** The UTC instant of 00:00 of a wall-clock day in `zone`. */
export function zoneMidnight(day: number, zone: string): number {
  return wallClockToUtc(day, zone);
}

/**
 * An event's times as sent in `cbl:when`: UTC date-times, or for an all-day event plain dates too
 * (end exclusive, or equal to the start for one day). All-day bounds become 00:00 of the first day
 * and of the day after the last, in `zone`. End after start, at most 366 days long.
 * @throws ValidationError EVENT_TIME_INVALID
 */
export function resolveEventTimes(
  when: { startTime: string | undefined; endTime: string | undefined },
  allDay: boolean,
  zone: string,
): Window {
  if (when.startTime === undefined || when.endTime === undefined)
    throw timeInvalid("cbl:when must carry startTime and endTime.");
  const times = allDay ? allDayTimes(when.startTime, when.endTime, zone) : timedTimes(when.startTime, when.endTime);
  if (times.end - times.start > LIMITS.eventMaxDays * DAY_MS)
    throw timeInvalid(`An event may last at most ${LIMITS.eventMaxDays} days.`);
  return times;
}

function timedTimes(startText: string, endText: string): Window {
  const start = parseUtcDateTime(startText);
  const end = parseUtcDateTime(endText);
  if (start === undefined || end === undefined)
    throw timeInvalid("startTime and endTime must be UTC date-times such as 2026-12-08T09:00:00Z.");
  checkRange(start, end);
  if (end <= start) throw timeInvalid("endTime must be later than startTime.");
  return { start, end };
}

function allDayTimes(startText: string, endText: string, zone: string): Window {
  const startDate = parsePlainDate(startText);
  const endDate = parsePlainDate(endText);
  let firstDay: number;
  let dayAfterLast: number;
  if (startDate !== undefined && endDate !== undefined) {
    firstDay = startDate;
    dayAfterLast = endDate === startDate ? startDate + DAY_MS : endDate;
  } else {
    const { start, end } = timedTimes(startText, endText);
    firstDay = localDayOf(start, zone);
    // The last day is the one holding the event's last moment: an end at midnight closes the day before.
    dayAfterLast = localDayOf(end - 1, zone) + DAY_MS;
  }
  checkRange(firstDay, dayAfterLast);
  if (dayAfterLast <= firstDay) throw timeInvalid("endTime must be later than startTime.");
  return { start: zoneMidnight(firstDay, zone), end: zoneMidnight(dayAfterLast, zone) };
}

function checkRange(start: number, end: number): void {
  if (start < WINDOW_MIN || end > WINDOW_MAX) throw timeInvalid("An event must lie between 1900-01-01 and 2100-12-31.");
}
