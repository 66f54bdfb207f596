// Events of more than one day in the month grid: one bar per week they cross, drawn from the cell
// of its first day in that week across the following ones, rather than repeated in every cell.
// Bars take lanes (the top lines of the cells), shared by bars that do not meet; a cell keeps an
// empty line where a bar crosses it or where a lane above another bar is free.
import type { CalendarOccurrence } from "../../services/schedule/calendar-page.js";
import { DAY_MS } from "./calendar-query.js";
import { type CalendarFormat, type EntryView, daysCovered, entryOn } from "./placing.js";

/** A bar as a cell draws it: its entry and the days it spans from this cell. */
export interface BarView {
  readonly entry: EntryView;
  readonly span: number;
}

/** The lanes of one day: a bar starting there, or null (a line kept free or crossed). */
export type DayLanes = readonly (BarView | null)[];

interface Segment {
  readonly occurrence: CalendarOccurrence;
  readonly from: number;
  readonly to: number;
}

/** Whether an occurrence covers more than one day (and so draws as a bar). */
export function isMultiDay(occurrence: CalendarOccurrence, zone: string): boolean {
  const { first, last } = daysCovered(occurrence, zone);
  return last > first;
}

/** The lanes of each of a week's seven days (`weekStart` first). */
export function weekBars(
  occurrences: readonly CalendarOccurrence[],
  weekStart: number,
  context: { zone: string; format: CalendarFormat; href: (o: CalendarOccurrence) => string; showGroup: boolean },
): DayLanes[] {
  const weekEnd = weekStart + 6 * DAY_MS;
  const segments: Segment[] = occurrences.flatMap((occurrence) => {
    const { first, last } = daysCovered(occurrence, context.zone);
    if (last === first || last < weekStart || first > weekEnd) return [];
    return [{ occurrence, from: Math.max(first, weekStart), to: Math.min(last, weekEnd) }];
  });
  segments.sort((a, b) => a.from - b.from || b.to - a.to);
  const lanes: Segment[][] = [];
  for (const segment of segments) {
    const lane = lanes.find((taken) => taken.every((other) => other.to < segment.from || other.from > segment.to));
    if (lane) lane.push(segment);
    else lanes.push([segment]);
  }
  const days: DayLanes[] = [];
  for (let day = weekStart; day <= weekEnd; day += DAY_MS) {
    const cells = lanes.map((lane) => {
      const starting = lane.find((segment) => segment.from === day);
      return starting === undefined ? null : barOf(starting, context);
    });
    // Lanes below the last one used on this day need no line.
    let used = 0;
    lanes.forEach((lane, index) => {
      if (lane.some((segment) => segment.from <= day && day <= segment.to)) used = index + 1;
    });
    days.push(cells.slice(0, used));
  }
  return days;
}

function barOf(
  segment: Segment,
  context: { zone: string; format: CalendarFormat; href: (o: CalendarOccurrence) => string; showGroup: boolean },
): BarView {
  const { occurrence } = segment;
  const base = entryOn(occurrence, segment.from, context);
  const { last } = daysCovered(occurrence, context.zone);
  const continues = last > segment.to;
  const from = base.continued ? "" : context.format.clock(occurrence.start);
  const to = continues ? "" : context.format.clock(occurrence.end);
  return {
    entry: { ...base, continues, time: occurrence.allDay ? undefined : `${from}–${to}` },
    span: Math.round((segment.to - segment.from) / DAY_MS) + 1,
  };
}
