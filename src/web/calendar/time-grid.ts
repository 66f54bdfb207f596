// The week and day views as a time grid: the days in columns, an "all day" row on top (all-day
// events, and timed ones that go on from an earlier day), then a row per hour with each timed
// occurrence in the row of the hour it starts in the reader's zone. The hours shown are the
// working day (08:00-19:00), widened to every hour an occurrence starts in.
import type { CalendarOccurrence } from "../../services/schedule/calendar-page.js";
import { type CalendarRange, dayText } from "./calendar-query.js";
import { type EntryView, daysBetween, entryOn, onDay } from "./placing.js";
import type { ViewContext } from "./views.js";

/** The hours a grid shows at least. */
export const WORKDAY = { first: 8, last: 19 } as const;

interface Placed {
  readonly day: number;
  readonly entry: EntryView;
  /** The hour row, or undefined for the all-day row. */
  readonly hour: number | undefined;
}

/** A cell of the grid: one day at one hour (or all day). */
export interface GridCell {
  readonly date: string;
  readonly today: boolean;
  readonly entries: readonly EntryView[];
}

/** The time grid of the range's days. */
export function timeGrid(range: CalendarRange, occurrences: readonly CalendarOccurrence[], context: ViewContext) {
  const days = daysBetween(range.firstDay, range.endDay);
  const placed: Placed[] = days.flatMap((day) =>
    onDay(occurrences, day, context.zone).map((occurrence) => {
      const entry = entryOn(occurrence, day, context);
      const hour = entry.allDay || entry.continued ? undefined : context.format.hour(occurrence.start);
      return { day, entry, hour };
    }),
  );
  const hours = placed.flatMap((p) => (p.hour === undefined ? [] : [p.hour]));
  const first = Math.min(WORKDAY.first, ...hours);
  const last = Math.max(WORKDAY.last, ...hours);
  const cells = (hour: number | undefined): GridCell[] =>
    days.map((day) => ({
      date: dayText(day),
      today: day === range.today,
      entries: placed.filter((p) => p.day === day && p.hour === hour).map((p) => p.entry),
    }));
  const rows = [];
  for (let hour = first; hour <= last; hour++)
    rows.push({ label: `${String(hour).padStart(2, "0")}:00`, hour, cells: cells(hour) });
  return {
    days: days.map((day) => ({
      date: dayText(day),
      weekday: context.format.weekday(day),
      label: context.format.shortDay(day),
      today: day === range.today,
    })),
    allDay: cells(undefined),
    rows,
  };
}
