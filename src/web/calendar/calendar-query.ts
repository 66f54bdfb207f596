// Which calendar a request asks for (`?view=month&date=2026-12-01&menu=1:3`): the view, the day it
// is anchored on (a wall-clock day of the reader's zone), the days it covers and the UTC window
// its occurrences are read for. Days are kept as midnight UTC of their date.
import { ValidationError } from "../../domain/errors.js";
import { localDayOf, parsePlainDate, zoneMidnight } from "../../domain/event-time.js";
import { type QueryValues, queryValue } from "../../http-kit/query.js";
import type { Lang } from "../i18n/i18n.js";

/** The views of a calendar; `members` (the group week view) only on a group's calendar. */
export type CalendarViewName = "month" | "week" | "day" | "list" | "members";

/** A calendar request, resolved. */
export interface CalendarRange {
  readonly view: CalendarViewName;
  /** The day asked for (today when none). */
  readonly anchor: number;
  readonly today: number;
  /** The first day shown and the day after the last. */
  readonly firstDay: number;
  readonly endDay: number;
  /** The UTC window read: the days shown, widened by a day each side for all-day events of other zones. */
  readonly window: { readonly start: number; readonly end: number };
  /** The anchors of the previous and next page of this view. */
  readonly previous: number;
  readonly next: number;
}

const VIEWS: readonly CalendarViewName[] = ["month", "week", "day", "list", "members"];

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Days the list view covers from its anchor. */
export const LIST_DAYS = 92;
/** Where a week starts by language convention: 0 Sunday (American and Japanese calendars alike). */
const WEEK_START: Readonly<Record<Lang, number>> = { en: 0, ja: 0 };

/** The first weekday of a week in this language (0 Sunday .. 6 Saturday). */
export function weekStartOf(lang: Lang): number {
  return WEEK_START[lang];
}

function startOfWeek(day: number, lang: Lang): number {
  const weekday = new Date(day).getUTCDay();
  return day - ((((weekday - weekStartOf(lang)) % 7) + 7) % 7) * DAY_MS;
}

function addMonths(day: number, months: number): number {
  const date = new Date(day);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
}

/** @throws ValidationError INVALID_DATE, INVALID_VIEW */
export function readCalendarRange(
  query: QueryValues,
  lang: Lang,
  timeZone: string,
  now: number,
  options: { members: boolean } = { members: false },
): CalendarRange {
  const viewText = queryValue(query, "view") ?? "month";
  const view = VIEWS.find((name) => name === viewText && (name !== "members" || options.members));
  if (view === undefined)
    throw new ValidationError(
      "INVALID_VIEW",
      options.members ? "view must be month, week, day, list or members." : "view must be month, week, day or list.",
    );
  const today = localDayOf(now, timeZone);
  const dateText = queryValue(query, "date");
  const asked = dateText === undefined || dateText === "" ? today : parsePlainDate(dateText);
  if (asked === undefined || asked < Date.UTC(1900, 0, 8) || asked > Date.UTC(2100, 10, 30))
    throw new ValidationError(
      "INVALID_DATE",
      "date must be a date between 1900-01-08 and 2100-11-30 such as 2026-12-01.",
    );
  const days = daysOf(view, asked, lang);
  return {
    view,
    anchor: asked,
    today,
    ...days,
    window: {
      start: zoneMidnight(days.firstDay - DAY_MS, timeZone),
      end: zoneMidnight(days.endDay + DAY_MS, timeZone),
    },
  };
}

function daysOf(view: CalendarViewName, anchor: number, lang: Lang) {
  if (view === "week" || view === "members") {
    const firstDay = startOfWeek(anchor, lang);
    return { firstDay, endDay: firstDay + 7 * DAY_MS, previous: firstDay - 7 * DAY_MS, next: firstDay + 7 * DAY_MS };
  }
  if (view === "day")
    return { firstDay: anchor, endDay: anchor + DAY_MS, previous: anchor - DAY_MS, next: anchor + DAY_MS };
  if (view === "list")
    return {
      firstDay: anchor,
      endDay: anchor + LIST_DAYS * DAY_MS,
      previous: anchor - LIST_DAYS * DAY_MS,
      next: anchor + LIST_DAYS * DAY_MS,
    };
  const monthStart = addMonths(anchor, 0);
  const firstDay = startOfWeek(monthStart, lang);
  const monthEnd = addMonths(anchor, 1);
  const weeks = Math.ceil((monthEnd - firstDay) / (7 * DAY_MS));
  return { firstDay, endDay: firstDay + weeks * 7 * DAY_MS, previous: addMonths(anchor, -1), next: monthEnd };
}

/** A day as `YYYY-MM-DD`. */
export function dayText(day: number): string {
  return new Date(day).toISOString().slice(0, 10);
}
