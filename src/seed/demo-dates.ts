// The demo workspace follows the calendar. seeds/demo.json is written for the week of DEMO_WEEK;
// when the demo is loaded its events and due dates move by whole weeks to the week a newcomer
// starts it in (on a Sunday, the week after), so the calendar never opens empty and every event
// keeps its weekday and time. The calendar's weeks run Sunday to Saturday in both languages
// (web/calendar/calendar-query.ts): on a Saturday the week view still holds the demo's Monday to
// Friday, on a Sunday only the coming ones. Other seed files load exactly as written.
import type { Seed } from "./schema.js";

/** The Monday of the week seeds/demo.json is written for. */
export const DEMO_WEEK = Date.UTC(2026, 10, 30);

const DAY_MS = 86_400_000;
const WEEK_DAYS = 7;

/** Whole days (a multiple of 7) from the demo's week to the week it is shown in at `now`. */
export function demoShiftDays(now: number): number {
  // Sunday counts with the coming week, as the week view shows it.
  const shown = Math.floor(now / DAY_MS) + 1;
  // Day 0 of the epoch was a Thursday: Monday-based weeks start 3 days later.
  const mondayOf = (day: number) => day - ((((day - 4) % WEEK_DAYS) + WEEK_DAYS) % WEEK_DAYS);
  return mondayOf(shown) - DEMO_WEEK / DAY_MS;
}

/** `2026-12-01` or `2026-12-01T05:00:00Z` moved by `days`, in the same form. */
export function shiftDate(text: string, days: number): string {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const at = Date.parse(dateOnly ? `${text}T00:00:00Z` : text);
  // Not a date the seed's checks would take: left for them to name.
  if (Number.isNaN(at)) return text;
  const moved = new Date(at + days * DAY_MS).toISOString();
  return dateOnly ? moved.slice(0, 10) : moved.replace(/\.000Z$/, "Z");
}

/** The seed with every event's start and end and every task's due date moved by `days`. */
export function shiftSeedDates(seed: Seed, days: number): Seed {
  const moveEvent = <T extends { start: string; end: string }>(event: T): T => ({
    ...event,
    start: shiftDate(event.start, days),
    end: shiftDate(event.end, days),
  });
  const moveTask = <T extends { due?: string | undefined }>(task: T): T =>
    task.due === undefined ? task : { ...task, due: shiftDate(task.due, days) };
  return {
    ...seed,
    groups: seed.groups.map((group) => ({
      ...group,
      events: group.events.map(moveEvent),
      tasks: group.tasks.map(moveTask),
    })),
    personalEvents: seed.personalEvents.map(moveEvent),
    personalTasks: seed.personalTasks.map(moveTask),
  };
}
