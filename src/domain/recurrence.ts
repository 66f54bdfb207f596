// Occurrences of a repeating event, expanded by the `rrule` package. The rule runs on the event's
// wall clock (dates given to rrule are wall-clock readings dressed as UTC), so a 09:00 weekly
// event in Europe/Berlin stays at 09:00 local across a change of offset; each wall-clock start is
// then turned into its UTC moment. Timed occurrences keep the event's length; all-day ones keep
// its number of days, from 00:00 to 00:00 local.
import rrulePackage from "rrule";
import type { CalendarEvent, EventException } from "./event.js";
import { type Frequency, parseEventRule } from "./event-rule.js";
import { type Window, localDayOf, overlaps, zoneMidnight } from "./event-time.js";
import { LIMITS } from "./limits.js";
import { utcToWallClock, wallClockToUtc } from "./time-zone.js";

const { RRule } = rrulePackage;
const DAY_MS = 24 * 60 * 60 * 1000;
// No zone's clock is further than 14 hours from UTC: the wall-clock range searched is widened by it.
const ZONE_SPREAD_MS = 15 * 60 * 60 * 1000;

/** One occurrence, in UTC. */
export interface Occurrence {
  readonly start: number;
  readonly end: number;
}

/** What an event shows for a window: its occurrences there (at most 100) and whether it meets it at all. */
export interface Expansion {
  /** Occurrences inside the window, moved ones at their new time, cancelled ones left out; by start. */
  readonly occurrences: readonly Occurrence[];
}

type Timing = Pick<CalendarEvent, "start" | "end" | "allDay" | "timeZone">;

/** The occurrence the rule starts at a wall-clock start (`wallStart`, ms of the reading as UTC). */
function occurrenceAt(event: Timing, wallStart: number): Occurrence {
  if (event.allDay) {
    const days =
      Math.round((localDayOf(event.end - 1, event.timeZone) - localDayOf(event.start, event.timeZone)) / DAY_MS) + 1;
    return {
      start: zoneMidnight(wallStart, event.timeZone),
      end: zoneMidnight(wallStart + days * DAY_MS, event.timeZone),
    };
  }
  const start = wallClockToUtc(wallStart, event.timeZone);
  return { start, end: start + (event.end - event.start) };
}

/**
 * The rule on the event's wall clock, UNTIL made a wall-clock reading too (a date: its whole day).
 * rrule walks a series from its first occurrence, about 6 µs a day (measured): a daily or weekly
 * rule without COUNT starts instead a whole number of periods before `near`, where it repeats
 * exactly as it would have (COUNT counts from the first occurrence, so it cannot).
 */
function wallRule(event: Timing & { rule: string }, near?: number): InstanceType<typeof RRule> {
  const rule = parseEventRule(event.rule);
  const options = RRule.parseString(rule.text);
  const wallStart = event.allDay
    ? localDayOf(event.start, event.timeZone)
    : utcToWallClock(event.start, event.timeZone);
  const until =
    rule.until === undefined
      ? undefined
      : rule.until.dateOnly
        ? rule.until.at + DAY_MS - 1000
        : utcToWallClock(rule.until.at, event.timeZone);
  const dtstart = near === undefined || rule.count !== undefined ? wallStart : skipAhead(rule, wallStart, near);
  return new RRule({ ...options, dtstart: new Date(dtstart), until: until === undefined ? null : new Date(until) });
}

/** The wall-clock start moved ahead by whole periods of a daily or weekly rule, to one period before `near`. */
function skipAhead(rule: { frequency: Frequency; interval: number }, wallStart: number, near: number): number {
  if (rule.frequency !== "DAILY" && rule.frequency !== "WEEKLY") return wallStart;
  const period = rule.interval * (rule.frequency === "DAILY" ? 1 : 7) * DAY_MS;
  const periods = Math.floor((near - wallStart) / period) - 1;
  return periods > 0 ? wallStart + periods * period : wallStart;
}

/**
 * The occurrences of an event that meet `window` (a one-off event: itself, when it does), at most
 * `limit`, ordered by start. Exceptions move or cancel the occurrences they name.
 */
export function expandEvent(
  event: Timing & { rule: string | null; exceptions: readonly EventException[] },
  window: Window,
  limit: number = LIMITS.occurrencesPerEntry,
): Expansion {
  if (event.rule === null) {
    const itself = { start: event.start, end: event.end };
    return { occurrences: overlaps(itself, window) ? [itself] : [] };
  }
  const replaced = new Set(event.exceptions.map((exception) => exception.originalStart));
  const found: Occurrence[] = [];
  const length = event.end - event.start;
  const from = new Date(window.start - ZONE_SPREAD_MS - length - DAY_MS);
  const to = new Date(window.end + ZONE_SPREAD_MS);
  wallRule({ ...event, rule: event.rule }, from.getTime()).between(from, to, true, (date) => {
    const occurrence = occurrenceAt(event, date.getTime());
    if (overlaps(occurrence, window) && !replaced.has(occurrence.start)) found.push(occurrence);
    return found.length < limit;
  });
  for (const exception of event.exceptions) {
    if (!exception.cancelled && overlaps(exception, window)) found.push({ start: exception.start, end: exception.end });
  }
  found.sort((a, b) => a.start - b.start || a.end - b.end);
  return { occurrences: found.slice(0, limit) };
}

/** Whether the rule of a repeating event starts an occurrence at `start` (UTC), exceptions aside. */
export function isRuleOccurrence(event: Timing & { rule: string }, start: number): boolean {
  const { occurrences } = expandEvent({ ...event, exceptions: [] }, { start, end: start + 1 }, 4);
  return occurrences.some((occurrence) => occurrence.start === start);
}

const PERIOD_DAYS: Readonly<Record<Frequency, number>> = { DAILY: 1, WEEKLY: 7, MONTHLY: 31, YEARLY: 366 };

/**
 * A moment no occurrence of the event ends after (moved ones included); undefined when the rule
 * never ends. Not the exact end: a bound found without walking the series (COUNT may be large),
 * which the store keeps so that a listing window reads only the series that can reach it.
 */
export function seriesEndBound(
  event: Timing & { rule: string | null; exceptions: readonly EventException[] },
): number | undefined {
  if (event.rule === null) return event.end;
  const rule = parseEventRule(event.rule);
  const length = event.end - event.start + DAY_MS;
  let end: number;
  if (rule.until !== undefined) end = rule.until.at + DAY_MS + ZONE_SPREAD_MS + length;
  else if (rule.count !== undefined)
    end = event.start + rule.count * rule.interval * PERIOD_DAYS[rule.frequency] * DAY_MS + ZONE_SPREAD_MS + length;
  else return undefined;
  for (const exception of event.exceptions) if (!exception.cancelled) end = Math.max(end, exception.end);
  return end;
}
