// A task's due date as a person types it: a calendar day, optionally a time of day on a wall clock
// of a time zone. An all-day due date is kept as midnight UTC of that day (domain/task.ts); a due
// time as the UTC moment that the wall-clock time in that zone is.
import { ValidationError } from "./errors.js";
import { ALL_DAY_MS } from "./task.js";
import { canonicalZone, wallClockToUtc, zoneOffsetMs } from "./time-zone.js";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})$/;
const FIRST_DAY = Date.UTC(1900, 0, 1);
const LAST_DAY = Date.UTC(2100, 11, 31);

/** A due date: null for none. */
export type TaskDue = { readonly dueAt: number; readonly allDay: boolean } | null;

/**
 * The due date of a form: no date is no due date; a date alone is all day; a date and a time are
 * that time in `zone`. Days between 1900-01-01 and 2100-12-31, like the task list's range.
 * @throws ValidationError TASK_DUE_DATE_INVALID, TASK_DUE_TIME_INVALID, TASK_DUE_DATE_REQUIRED, TASK_DUE_OUT_OF_RANGE, INVALID_TIME_ZONE
 */
export function dueFromForm(input: { date: string; time: string; zone: string }): TaskDue {
  const date = input.date.trim();
  const time = input.time.trim();
  if (date === "") {
    if (time !== "") throw new ValidationError("TASK_DUE_DATE_REQUIRED", "A due time needs a due date.");
    return null;
  }
  const day = calendarDay(date);
  if (day < FIRST_DAY || day > LAST_DAY)
    throw new ValidationError("TASK_DUE_OUT_OF_RANGE", "The due date must lie between 1900-01-01 and 2100-12-31.");
  if (time === "") return { dueAt: day, allDay: true };
  return { dueAt: wallClockToUtc(day + minutesOfDay(time) * 60_000, requireZone(input.zone)), allDay: false };
}

/** The form's fields for a due date shown in `zone`: the day, and the time unless all day. */
export function dueToForm(due: TaskDue, zone: string): { date: string; time: string } {
  if (due === null) return { date: "", time: "" };
  const wall = due.allDay ? due.dueAt : due.dueAt + zoneOffsetMs(zone, due.dueAt);
  const iso = new Date(wall).toISOString();
  return { date: iso.slice(0, 10), time: due.allDay ? "" : iso.slice(11, 16) };
}

/**
 * Whether a task that is not completed is past its due date at `now`: an all-day task once its
 * whole day (UTC) is over, a timed one once its moment has passed.
 */
export function isOverdue(task: { dueAt: number | null; allDay: boolean; status: string }, now: number): boolean {
  if (task.dueAt === null || task.status === "COMPLETED") return false;
  return task.allDay ? task.dueAt + ALL_DAY_MS <= now : task.dueAt <= now;
}

function calendarDay(text: string): number {
  const match = DATE.exec(text);
  const day = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  // Date.UTC rolls 2026-02-30 over into March; a real date formats back to itself.
  if (Number.isNaN(day) || !new Date(day).toISOString().startsWith(text))
    throw new ValidationError("TASK_DUE_DATE_INVALID", `The due date must be a date such as 2026-04-01.`);
  return day;
}

function minutesOfDay(text: string): number {
  const match = TIME.exec(text);
  const hours = Number(match?.[1] ?? Number.NaN);
  const minutes = Number(match?.[2] ?? Number.NaN);
  if (!(hours < 24 && minutes < 60))
    throw new ValidationError("TASK_DUE_TIME_INVALID", "The due time must be a time such as 09:30.");
  return hours * 60 + minutes;
}

/** @throws ValidationError INVALID_TIME_ZONE */
function requireZone(zone: string): string {
  const canonical = canonicalZone(zone);
  if (canonical !== undefined) return canonical;
  throw new ValidationError("INVALID_TIME_ZONE", "The time zone must be one such as Asia/Tokyo or UTC.");
}
