// The occurrences of an event as a calendar shows them: each with the start its rule gave it, so
// that a moved occurrence can be found again ("this occurrence" names it by that start).
import type { EventBase } from "./event.js";
import type { Window } from "./event-time.js";
import { expandEvent } from "./recurrence.js";

/** One occurrence with the rule's own start of it (`originalStart`: its own start when not moved). */
export interface PlacedOccurrence {
  readonly start: number;
  readonly end: number;
  readonly originalStart: number;
  readonly moved: boolean;
}

/** The event's occurrences meeting `window`, at most `limit`, with their original starts. */
export function placeOccurrences(event: EventBase, window: Window, limit: number): PlacedOccurrence[] {
  const moved = new Map(
    event.exceptions.flatMap((exception) =>
      exception.cancelled ? [] : [[`${exception.start}/${exception.end}`, exception.originalStart] as const],
    ),
  );
  return expandEvent(event, window, limit).occurrences.map((occurrence) => {
    const original = moved.get(`${occurrence.start}/${occurrence.end}`);
    return { ...occurrence, originalStart: original ?? occurrence.start, moved: original !== undefined };
  });
}
