// Where an occurrence falls on a calendar and how its time reads: a timed occurrence on the days
// of the reader's zone it touches; an all-day one on its own dates (in the event's zone), which
// are the same dates for every reader.
import { localDayOf } from "../../domain/event-time.js";
import type { CalendarOccurrence } from "../../services/schedule/calendar-page.js";
import type { Lang } from "../i18n/i18n.js";
import { DAY_MS } from "./calendar-query.js";

const LOCALES: Readonly<Record<Lang, string>> = { en: "en-US", ja: "ja-JP" };

/** The first day and the last day (both as midnight UTC of their date) an occurrence covers. */
export function daysCovered(occurrence: CalendarOccurrence, readerZone: string): { first: number; last: number } {
  const zone = occurrence.allDay ? occurrence.timeZone : readerZone;
  const first = localDayOf(occurrence.start, zone);
  return { first, last: Math.max(first, localDayOf(occurrence.end - 1, zone)) };
}

/** The occurrences that cover `day`, in their order. */
export function onDay<T extends CalendarOccurrence>(occurrences: readonly T[], day: number, zone: string): T[] {
  return occurrences.filter((occurrence) => {
    const { first, last } = daysCovered(occurrence, zone);
    return first <= day && day <= last;
  });
}

/** How a language writes hours, weekdays and dates of wall-clock days. */
export interface CalendarFormat {
  /** `09:30` in the reader's zone. */
  clock(ms: number): string;
  /** "Mon" / "月". */
  weekday(day: number): string;
  /** "Dec 8" / "12月8日". */
  shortDay(day: number): string;
  /** "Tuesday, December 8, 2026". */
  longDay(day: number): string;
  /** "December 2026" / "2026年12月". */
  month(day: number): string;
  /** The hour (0-23) of a moment in the reader's zone. */
  hour(ms: number): number;
}

/** The formats of one language and zone. */
export function calendarFormat(lang: Lang, zone: string): CalendarFormat {
  const locale = LOCALES[lang];
  const clock = new Intl.DateTimeFormat(locale, {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: zone,
  });
  const weekday = new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" });
  const shortDay = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone: "UTC" });
  const longDay = new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone: "UTC" });
  const month = new Intl.DateTimeFormat(locale, { year: "numeric", month: "long", timeZone: "UTC" });
  const hour = new Intl.DateTimeFormat("en-US", { hour: "numeric", hourCycle: "h23", timeZone: zone });
  return {
    hour: (ms) => Number(hour.formatToParts(ms).find((part) => part.type === "hour")?.value ?? 0) % 24,
    clock: (ms) => clock.format(ms),
    weekday: (day) => weekday.format(day),
    shortDay: (day) => shortDay.format(day),
    longDay: (day) => longDay.format(day),
    month: (day) => month.format(day),
  };
}

/** One occurrence as a view lists it. */
export interface EntryView {
  readonly title: string;
  readonly href: string;
  /** "09:00–10:00", or the day's part of a longer event; undefined for an all-day one. */
  readonly time: string | undefined;
  readonly allDay: boolean;
  /** It began on an earlier day / goes on after this one. */
  readonly continued: boolean;
  readonly continues: boolean;
  /** The group's name (the personal calendar). */
  readonly groupName: string | undefined;
  /** One of the reader's personal events, marked as such. */
  readonly personal: boolean;
  /** Busy time of another member (the group week view): no title and no link. */
  readonly busy: boolean;
}

/** An occurrence as it shows on `day`. */
export function entryOn(
  occurrence: CalendarOccurrence & { readonly busy?: boolean },
  day: number,
  context: { zone: string; format: CalendarFormat; href: (o: CalendarOccurrence) => string; showGroup: boolean },
): EntryView {
  const { first, last } = daysCovered(occurrence, context.zone);
  const continued = first < day;
  const continues = last > day;
  const from = continued ? "" : context.format.clock(occurrence.start);
  const to = continues ? "" : context.format.clock(occurrence.end);
  return {
    title: occurrence.title,
    href: occurrence.busy === true ? "" : context.href(occurrence),
    time: occurrence.allDay ? undefined : `${from}–${to}`,
    allDay: occurrence.allDay,
    continued,
    continues,
    groupName: context.showGroup && !occurrence.personal ? occurrence.groupName : undefined,
    personal: occurrence.personal,
    busy: occurrence.busy === true,
  };
}

/** The days from `firstDay` up to (not including) `endDay`. */
export function daysBetween(firstDay: number, endDay: number): number[] {
  const days: number[] = [];
  for (let day = firstDay; day < endDay; day += DAY_MS) days.push(day);
  return days;
}
