// Mail reminders before group events: how long before a person may ask for, and when the next
// one is due for an event that may repeat.
import type { EventBase } from "./event.js";
import { placeOccurrences } from "./event-occurrence.js";
import { ValidationError } from "./errors.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** The choices the event page offers, in minutes before the start: 10 minutes, an hour, a day. */
export const REMINDER_MINUTES = [10, 60, 1440] as const;

/** How far ahead the next occurrence is looked for: a yearly event's next one, with room. */
const LOOK_AHEAD_MS = 400 * DAY_MS;
/** Occurrences read at once while looking (the earliest come first). */
const OCCURRENCES_READ = 50;

/**
 * Reads the reminder a form or request asks for: a number of minutes from {@link REMINDER_MINUTES},
 * or "" / "0" for none (0).
 * @throws ValidationError REMINDER_INVALID
 */
export function parseReminderMinutes(text: string): number {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed === "0") return 0;
  const minutes = Number(trimmed);
  if (!(REMINDER_MINUTES as readonly number[]).includes(minutes)) {
    throw new ValidationError(
      "REMINDER_INVALID",
      `A reminder is ${REMINDER_MINUTES.join(", ")} minutes before the event, or none (got "${trimmed.slice(0, 20)}").`,
    );
  }
  return minutes;
}

/**
 * When the reminder of the event's first occurrence whose reminder time is after `after` is due,
 * `minutesBefore` its start; null when no occurrence is left (within a look-ahead of 400 days).
 */
export function nextReminderAt(event: EventBase, minutesBefore: number, after: number): number | null {
  const lead = minutesBefore * MINUTE_MS;
  const from = after + lead;
  const occurrences = placeOccurrences(event, { start: from, end: from + LOOK_AHEAD_MS }, OCCURRENCES_READ);
  const next = occurrences.find((occurrence) => occurrence.start > from);
  return next === undefined ? null : next.start - lead;
}
