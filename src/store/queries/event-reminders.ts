// People's mail reminders of group events: one row per person per event, read by the event page
// and, by their due time, by the notification mailer.
import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** A person's reminder of an event. */
export interface EventReminder {
  readonly eventId: number;
  readonly userId: number;
  readonly minutesBefore: number;
  /** When the next reminder is due; null once the event has no occurrence left. */
  readonly nextAt: number | null;
}

/** Event reminders. */
export interface EventReminderRepo {
  find(eventId: number, userId: number): Promise<EventReminder | undefined>;
  /** Sets (or replaces) the person's reminder of the event. */
  put(reminder: EventReminder): Promise<void>;
  remove(eventId: number, userId: number): Promise<void>;
  /** Reminders due at `now` (next_at at or before it), the earliest first, at most `limit`. */
  due(now: number, limit: number): Promise<EventReminder[]>;
  /**
   * Moves a reminder on from `from` (the due time just handled) to `to`; false when another
   * process moved it first, or it was changed or removed meanwhile (then nothing is sent).
   */
  advance(reminder: EventReminder, to: number | null): Promise<boolean>;
  /** The reminders of an event, to place again after the event's times changed. */
  ofEvent(eventId: number): Promise<EventReminder[]>;
}

function toReminder(row: { event_id: number; user_id: number; minutes_before: number; next_at: number | null }) {
  return { eventId: row.event_id, userId: row.user_id, minutesBefore: row.minutes_before, nextAt: row.next_at };
}

/** Event reminder queries, the same on both engines. */
export function eventReminderRepo(db: Kysely<Database>): EventReminderRepo {
  return {
    async find(eventId, userId) {
      const row = await db
        .selectFrom("event_reminders")
        .selectAll()
        .where("event_id", "=", eventId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return row && toReminder(row);
    },
    async put(reminder) {
      const values = {
        event_id: reminder.eventId,
        user_id: reminder.userId,
        minutes_before: reminder.minutesBefore,
        next_at: reminder.nextAt,
      };
      await db
        .insertInto("event_reminders")
        .values(values)
        .onConflict((oc) =>
          oc
            .columns(["event_id", "user_id"])
            .doUpdateSet({ minutes_before: values.minutes_before, next_at: values.next_at }),
        )
        .execute();
    },
    async remove(eventId, userId) {
      await db.deleteFrom("event_reminders").where("event_id", "=", eventId).where("user_id", "=", userId).execute();
    },
    async due(now, limit) {
      const rows = await db
        .selectFrom("event_reminders")
        .selectAll()
        .where("next_at", "<=", now)
        .orderBy("next_at")
        .orderBy("event_id")
        .orderBy("user_id")
        .limit(limit)
        .execute();
      return rows.map(toReminder);
    },
    async advance(reminder, to) {
      const result = await db
        .updateTable("event_reminders")
        .set({ next_at: to })
        .where("event_id", "=", reminder.eventId)
        .where("user_id", "=", reminder.userId)
        .where("minutes_before", "=", reminder.minutesBefore)
        .where("next_at", "=", reminder.nextAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async ofEvent(eventId) {
      const rows = await db.selectFrom("event_reminders").selectAll().where("event_id", "=", eventId).execute();
      return rows.map(toReminder);
    },
  };
}
