import type { Kysely } from "kysely";
import type { EventException, PersonalEvent } from "../../domain/event.js";
import type { Window } from "../../domain/event-time.js";
import type { Database } from "../schema.js";
import {
  CANDIDATE_COLUMNS,
  type EventCandidate,
  exceptionColumns,
  exceptionsIn,
  mayMeetWindow,
  toCandidate,
} from "./event-window.js";
import type { EventFields } from "./events.js";
import type { RowOf } from "./rows.js";

/** What the store keeps of a personal event: an event's checked fields less what names a group. */
export type PersonalEventFields = Omit<EventFields, "menuId" | "participantIds" | "facilityIds">;

/** Users' personal events (docs/api.md "Personal schedule") and their exceptions. */
export interface PersonalEventRepo {
  insert(event: PersonalEventFields & { ownerId: number; at: number }): Promise<number>;
  /** Replaces every field of the event and its exceptions. */
  replace(id: number, event: PersonalEventFields & { at: number }): Promise<void>;
  remove(id: number): Promise<void>;
  findById(id: number): Promise<PersonalEvent | undefined>;
  /** Whole events, in the order of `ids`. */
  findByIds(ids: readonly number[]): Promise<PersonalEvent[]>;
  /** The owner's events that may meet the window: one-off events that do, and series that can reach it. */
  candidates(ownerId: number, window: Window): Promise<EventCandidate[]>;
}

function selectEvents(db: Kysely<Database>) {
  return db
    .selectFrom("personal_events")
    .innerJoin("users as owner", "owner.id", "personal_events.owner_id")
    .selectAll("personal_events")
    .select("owner.name as owner_name");
}

function toEvent(row: RowOf<typeof selectEvents>, exceptions: ReadonlyMap<number, EventException[]>): PersonalEvent {
  return {
    id: row.id,
    ownerId: row.owner_id,
    creatorId: row.owner_id,
    creatorName: row.owner_name,
    title: row.title,
    memo: row.memo,
    start: row.start_at,
    end: row.end_at,
    allDay: row.all_day === 1,
    timeZone: row.time_zone,
    rule: row.rule,
    exceptions: exceptions.get(row.id) ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function exceptionsOf(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, EventException[]>> {
  return exceptionsIn(db, "personal_event_exceptions", ids);
}

function columnsOf(event: PersonalEventFields & { at: number }) {
  return {
    title: event.title,
    memo: event.memo,
    start_at: event.start,
    end_at: event.end,
    all_day: event.allDay ? 1 : 0,
    time_zone: event.timeZone,
    rule: event.rule,
    series_end: event.seriesEnd,
    updated_at: event.at,
  };
}

async function writeExceptions(db: Kysely<Database>, eventId: number, exceptions: readonly EventException[]) {
  if (exceptions.length === 0) return;
  await db
    .insertInto("personal_event_exceptions")
    .values(exceptions.map((exception) => ({ event_id: eventId, ...exceptionColumns(exception) })))
    .execute();
}

/** Personal event queries. */
export function personalEventRepo(db: Kysely<Database>): PersonalEventRepo {
  const findByIds = async (ids: readonly number[]): Promise<PersonalEvent[]> => {
    if (ids.length === 0) return [];
    const rows = await selectEvents(db).where("personal_events.id", "in", ids).execute();
    const exceptions = await exceptionsOf(db, ids);
    const byId = new Map(rows.map((row) => [row.id, toEvent(row, exceptions)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };
  return {
    async insert(event) {
      const row = await db
        .insertInto("personal_events")
        .values({ ...columnsOf(event), owner_id: event.ownerId, created_at: event.at })
        .returning("id")
        .executeTakeFirstOrThrow();
      await writeExceptions(db, row.id, event.exceptions);
      return row.id;
    },
    async replace(id, event) {
      await db.updateTable("personal_events").set(columnsOf(event)).where("id", "=", id).execute();
      await db.deleteFrom("personal_event_exceptions").where("event_id", "=", id).execute();
      await writeExceptions(db, id, event.exceptions);
    },
    async remove(id) {
      await db.deleteFrom("personal_event_exceptions").where("event_id", "=", id).execute();
      await db.deleteFrom("personal_events").where("id", "=", id).execute();
    },
    async findById(id) {
      return (await findByIds([id]))[0];
    },
    findByIds,
    async candidates(ownerId, window) {
      const rows = await db
        .selectFrom("personal_events")
        .select(CANDIDATE_COLUMNS)
        .where("owner_id", "=", ownerId)
        .where((eb) => mayMeetWindow(eb, window))
        .execute();
      const exceptions = await exceptionsOf(
        db,
        rows.filter((row) => row.rule !== null).map((row) => row.id),
      );
      return rows.map((row) => toCandidate(row, exceptions));
    },
  };
}
