// The three calendar views, built from occurrences alone (wherever they come from): the month grid
// (weeks of day cells, "+N more" past a full cell), the week (days as columns with times) and the
// list (upcoming days, paged). The week and day time grid is time-grid.ts.
import type { CalendarOccurrence } from "../../services/schedule/calendar-page.js";
import type { MemberRow } from "../../services/schedule/member-week.js";
import { DAY_MS, type CalendarRange, dayText } from "./calendar-query.js";
import { type DayLanes, isMultiDay, weekBars } from "./month-bars.js";
import { type CalendarFormat, type EntryView, daysBetween, entryOn, onDay } from "./placing.js";

/** Entries a month cell shows before "+N more". */
export const MONTH_CELL_ENTRIES = 3;
/** Days the list view shows on one page. */
export const LIST_DAYS_PER_PAGE = 14;

/** What every view needs besides the occurrences. */
export interface ViewContext {
  readonly zone: string;
  readonly format: CalendarFormat;
  readonly href: (occurrence: CalendarOccurrence) => string;
  /** The link to a view of a day ("+N more" opens its week). */
  readonly dayHref: (view: "week" | "day" | "list", day: number) => string;
  readonly showGroup: boolean;
}

/** One day of the month grid or of the week. */
export interface DayView {
  readonly date: string;
  readonly label: string;
  readonly weekday: string;
  readonly today: boolean;
  readonly outside: boolean;
  readonly entries: readonly EntryView[];
  /** The month grid's lanes of events longer than a day (month-bars.ts); none in other views. */
  readonly bars: DayLanes;
  readonly more: number;
  readonly moreHref: string;
}

function dayView(
  range: CalendarRange,
  occurrences: readonly CalendarOccurrence[],
  day: number,
  context: ViewContext,
  max: number,
  bars: DayLanes,
): DayView {
  const all = onDay(occurrences, day, context.zone).filter((o) => !isMultiDay(o, context.zone));
  const room = Math.max(0, max - bars.length);
  const anchorMonth = new Date(range.anchor).getUTCMonth();
  return {
    date: dayText(day),
    label: String(new Date(day).getUTCDate()),
    weekday: context.format.weekday(day),
    today: day === range.today,
    outside: range.view === "month" && new Date(day).getUTCMonth() !== anchorMonth,
    entries: all.slice(0, room).map((occurrence) => entryOn(occurrence, day, context)),
    bars,
    more: Math.max(0, all.length - room),
    moreHref: context.dayHref("week", day),
  };
}

/** The month grid: weeks of seven days. */
export function monthView(range: CalendarRange, occurrences: readonly CalendarOccurrence[], context: ViewContext) {
  const all = daysBetween(range.firstDay, range.endDay);
  const lanesByWeek = new Map<number, DayLanes[]>();
  const days = all.map((day, index) => {
    const weekStart = all[index - (index % 7)] ?? day;
    if (!lanesByWeek.has(weekStart)) lanesByWeek.set(weekStart, weekBars(occurrences, weekStart, context));
    const lanes = lanesByWeek.get(weekStart)?.[index % 7] ?? [];
    return dayView(range, occurrences, day, context, MONTH_CELL_ENTRIES, lanes);
  });
  const weeks: DayView[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return { weekdays: (weeks[0] ?? []).map((day) => day.weekday), weeks };
}

/** The list: the days from the anchor that have occurrences, a page of them at a time. */
export function listView(
  range: CalendarRange,
  occurrences: readonly CalendarOccurrence[],
  context: ViewContext,
  page: number,
) {
  const days = daysBetween(range.firstDay, range.endDay).flatMap((day) => {
    const all = onDay(occurrences, day, context.zone);
    if (all.length === 0) return [];
    return [
      {
        date: dayText(day),
        label: context.format.longDay(day),
        today: day === range.today,
        entries: all.map((o) => entryOn(o, day, context)),
      },
    ];
  });
  const from = (page - 1) * LIST_DAYS_PER_PAGE;
  return {
    days: days.slice(from, from + LIST_DAYS_PER_PAGE),
    olderPage: from + LIST_DAYS_PER_PAGE < days.length ? page + 1 : undefined,
    newerPage: page > 1 ? page - 1 : undefined,
    lastDay: dayText(range.endDay - DAY_MS),
  };
}

/** The group week view: a row per member, a cell per day of the week with what the member has then. */
export function membersView(range: CalendarRange, rows: readonly MemberRow[], context: ViewContext) {
  const days = daysBetween(range.firstDay, range.endDay);
  return {
    days: days.map((day) => ({
      date: dayText(day),
      weekday: context.format.weekday(day),
      label: context.format.shortDay(day),
      today: day === range.today,
    })),
    rows: rows.map((row) => ({
      name: row.name,
      cells: days.map((day) => ({
        date: dayText(day),
        today: day === range.today,
        entries: onDay(row.occurrences, day, context.zone).map((o) => entryOn(o, day, context)),
      })),
    })),
  };
}
