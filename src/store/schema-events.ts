// Table shapes of group events (migration 0021), part of `Database` (schema.ts).
import type { ColumnType, Generated } from "kysely";

/** A group's event menus (会議, 外出...) and its facilities: a name per group. */
export interface EventMenusTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  created_at: number;
}

/** A group's facilities (rooms, cars, projectors) that events book. */
export type FacilitiesTable = EventMenusTable;

/** Group events; `rule` is the RRULE value of a repeating one, `series_end` bounds its last end. */
export interface EventsTable {
  id: Generated<number>;
  group_id: number;
  creator_id: number;
  title: string;
  memo: string;
  start_at: number;
  end_at: number;
  all_day: number;
  time_zone: string;
  rule: string | null;
  series_end: number | null;
  menu_id: number | null;
  created_at: number;
  updated_at: number;
}

/** The people an event names (none: the whole group). */
export interface EventParticipantsTable {
  event_id: number;
  group_id: number;
  user_id: number;
  /** `attending`, `maybe` or `declined`; null until the participant answers (migration 0051). */
  answer: ColumnType<string | null, string | null | undefined, string | null>;
  answered_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Who asked to be reminded of an event by mail, how long before, and when next (migration 0056). */
export interface EventRemindersTable {
  event_id: number;
  user_id: number;
  minutes_before: number;
  /** When the next reminder is due; null once the event has no occurrence left to remind of. */
  next_at: number | null;
}

/** The facilities an event books. */
export interface EventFacilitiesTable {
  event_id: number;
  group_id: number;
  facility_id: number;
}

/** Moved (start_at, end_at) or cancelled occurrences of a repeating event, by their original start. */
export interface EventExceptionsTable {
  event_id: number;
  group_id: number;
  original_start: number;
  cancelled: number;
  start_at: number | null;
  end_at: number | null;
}

/** A user's personal events (migration 0023): private to `owner_id`, no group, participants or facilities. */
export interface PersonalEventsTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  memo: string;
  start_at: number;
  end_at: number;
  all_day: number;
  time_zone: string;
  rule: string | null;
  series_end: number | null;
  created_at: number;
  updated_at: number;
}

/** Moved or cancelled occurrences of a repeating personal event, as for group events. */
export interface PersonalEventExceptionsTable {
  event_id: number;
  original_start: number;
  cancelled: number;
  start_at: number | null;
  end_at: number | null;
}

/** A user's calendar feed secret, as its SHA-256 (migration 0026). */
export interface CalendarFeedsTable {
  user_id: number;
  secret_hash: string;
  created_at: number;
}
