// What group events and personal events share in the store: the rows of a window, and exceptions.
import type { ExpressionBuilder, Kysely } from "kysely";
import type { EventException } from "../../domain/event.js";
import type { Window } from "../../domain/event-time.js";
import { LIMITS } from "../../domain/limits.js";
import type { Database } from "../schema.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a listing needs to place an event in a window before it reads the whole event. */
export interface EventCandidate {
  readonly id: number;
  readonly start: number;
  readonly end: number;
  readonly allDay: boolean;
  readonly timeZone: string;
  readonly rule: string | null;
  readonly exceptions: readonly EventException[];
}

/** The columns a candidate is read from, the same in both event tables (personal events read them so). */
export const CANDIDATE_COLUMNS = ["id", "start_at", "end_at", "all_day", "time_zone", "rule"] as const;

/**
 * The rows that may meet the window: one-off events that do, and series that can still reach it.
 * Personal events use it (a few per owner); group events, many per group, take the two queries of
 * `windowCandidates` (queries/events.ts), each on its partial index.
 * One-off events last at most 366 days, so their start lies no further before the window: a
 * range on the start index.
 */
/** One-off events last at most 366 days: one meeting the window starts no earlier than this. */
export function oneOffEarliest(window: Window): number {
  return window.start - LIMITS.eventMaxDays * DAY_MS;
}

export function mayMeetWindow<T extends "events" | "personal_events">(
  eb: ExpressionBuilder<Database, T>,
  window: Window,
) {
  // Kysely cannot resolve a column of a table parameter; both tables have these columns (schema-events.ts).
  const table = eb as unknown as ExpressionBuilder<Database, "events" | "personal_events">;
  const earliest = oneOffEarliest(window);
  return table.and([
    table("start_at", "<", window.end),
    table.or([
      table.and([table("rule", "is", null), table("start_at", ">", earliest), table("end_at", ">", window.start)]),
      table.and([
        table("rule", "is not", null),
        table.or([table("series_end", "is", null), table("series_end", ">", window.start)]),
      ]),
    ]),
  ]);
}

/** A stored exception row. */
export function toException(row: {
  original_start: number;
  cancelled: number;
  start_at: number | null;
  end_at: number | null;
}): EventException {
  return row.cancelled === 1 || row.start_at === null || row.end_at === null
    ? { originalStart: row.original_start, cancelled: true }
    : { originalStart: row.original_start, cancelled: false, start: row.start_at, end: row.end_at };
}

/** An exception's columns. */
export function exceptionColumns(exception: EventException) {
  return {
    original_start: exception.originalStart,
    cancelled: exception.cancelled ? 1 : 0,
    start_at: exception.cancelled ? null : exception.start,
    end_at: exception.cancelled ? null : exception.end,
  };
}

/** A candidate from its row and its exceptions. */
export function toCandidate(
  row: { id: number; start_at: number; end_at: number; all_day: number; time_zone: string; rule: string | null },
  exceptions: ReadonlyMap<number, EventException[]>,
): EventCandidate {
  return {
    id: row.id,
    start: row.start_at,
    end: row.end_at,
    allDay: row.all_day === 1,
    timeZone: row.time_zone,
    rule: row.rule,
    exceptions: exceptions.get(row.id) ?? [],
  };
}

/** Adds `value` to the list under `key`. */
export function push<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** The exceptions of the given events, by event, in the order of their original starts; either table. */
export async function exceptionsIn(
  db: Kysely<Database>,
  table: "event_exceptions" | "personal_event_exceptions",
  ids: readonly number[],
): Promise<Map<number, EventException[]>> {
  const exceptions = new Map<number, EventException[]>();
  if (ids.length === 0) return exceptions;
  const rows = await db
    .selectFrom(table)
    .select(["event_id", "original_start", "cancelled", "start_at", "end_at"])
    .where("event_id", "in", ids)
    .orderBy("original_start")
    .execute();
  for (const row of rows) push(exceptions, row.event_id, toException(row));
  return exceptions;
}
