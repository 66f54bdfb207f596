import { type Kysely, sql } from "kysely";
import type { EventException } from "../../domain/event.js";
import type { Database } from "../schema.js";
import type { Engine } from "./engine.js";

/** One generated event as stored, with its participants and exceptions (`kairan generate --events`). */
export interface GeneratedEvent {
  readonly groupId: number;
  readonly creatorId: number;
  readonly title: string;
  readonly memo: string;
  readonly start: number;
  readonly end: number;
  readonly allDay: boolean;
  readonly timeZone: string;
  readonly rule: string | null;
  readonly seriesEnd: number | null;
  readonly participantIds: readonly number[];
  readonly exceptions: readonly EventException[];
  readonly at: number;
}

/** The event part of the dataset loader, and the statistics step that ends it. */
export interface DatasetEventRepo {
  /** Inserts the events in order, with their participants and exceptions. */
  insertEvents(events: readonly GeneratedEvent[]): Promise<void>;
  /**
   * Gathers the planner's statistics after a bulk load. PostgreSQL plans without them were about
   * 10x slower (the search bench saw it); SQLite keeps its plans as a server would (a server never
   * runs ANALYZE there), so it is left alone.
   */
  analyze(): Promise<void>;
}

/** Event rows per multi-row INSERT: 14 parameters each, far below every engine's parameter limit. */
const EVENT_BATCH = 200;

/** Bulk event inserts of the dataset loader. */
export function datasetEventQueries(db: Kysely<Database>, engine: Engine): DatasetEventRepo {
  return {
    async insertEvents(events) {
      for (let from = 0; from < events.length; from += EVENT_BATCH) {
        const batch = events.slice(from, from + EVENT_BATCH);
        const ids = await db
          .insertInto("events")
          .values(batch.map(columnsOf))
          .returning("id")
          .execute()
          .then((rows) => rows.map((row) => row.id).sort((a, b) => a - b));
        // An empty database numbers one statement's rows in the order of its VALUES.
        await insertChildren(db, batch, ids);
      }
    },
    async analyze() {
      if (engine === "postgres") await sql`ANALYZE`.execute(db);
    },
  };
}

function columnsOf(event: GeneratedEvent) {
  return {
    group_id: event.groupId,
    creator_id: event.creatorId,
    title: event.title,
    memo: event.memo,
    start_at: event.start,
    end_at: event.end,
    all_day: event.allDay ? 1 : 0,
    time_zone: event.timeZone,
    rule: event.rule,
    series_end: event.seriesEnd,
    menu_id: null,
    created_at: event.at,
    updated_at: event.at,
  };
}

async function insertChildren(
  db: Kysely<Database>,
  batch: readonly GeneratedEvent[],
  ids: readonly number[],
): Promise<void> {
  const people = batch.flatMap((event, index) =>
    event.participantIds.map((userId) => ({ event_id: ids[index]!, group_id: event.groupId, user_id: userId })),
  );
  if (people.length > 0) await db.insertInto("event_participants").values(people).execute();
  const exceptions = batch.flatMap((event, index) =>
    event.exceptions.map((exception) => ({
      event_id: ids[index]!,
      group_id: event.groupId,
      original_start: exception.originalStart,
      cancelled: exception.cancelled ? 1 : 0,
      start_at: exception.cancelled ? null : exception.start,
      end_at: exception.cancelled ? null : exception.end,
    })),
  );
  if (exceptions.length > 0) await db.insertInto("event_exceptions").values(exceptions).execute();
}
