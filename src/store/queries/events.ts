import type { Kysely, SelectQueryBuilder } from "kysely";
import type { CalendarEvent, EventDraft, EventException, NamedRef, Participant } from "../../domain/event.js";
import { type EventAnswer, toEventAnswer } from "../../domain/event-answer.js";
import type { Window } from "../../domain/event-time.js";
import type { Database } from "../schema.js";
import type { RowOf } from "./rows.js";
import {
  type EventCandidate,
  exceptionColumns,
  exceptionsIn,
  oneOffEarliest,
  push,
  toCandidate,
} from "./event-window.js";

export type { EventCandidate } from "./event-window.js";

/** Which events of a group a list shows: every one, those without a menu, or one menu's. */
export type EventMenuFilter =
  { readonly kind: "all" } | { readonly kind: "unclassified" } | { readonly kind: "menu"; readonly menuId: number };

/** An event's fields as stored (the store writes its participants, facilities and exceptions with it). */
export interface EventFields extends EventDraft {
  /** Bound of the last occurrence's end (domain/recurrence.ts); null when the rule never ends. */
  readonly seriesEnd: number | null;
}

/** Group events with their participants, facilities, exceptions, menus; and the group's facilities. */
export interface EventRepo {
  insert(event: EventFields & { groupId: number; creatorId: number; at: number }): Promise<number>;
  /** Replaces every field of the event and its lists; participants still named keep their answers. */
  replace(id: number, groupId: number, event: EventFields & { at: number }): Promise<void>;
  /** Deletes the event and its lists (its comments and reactions are the caller's to remove first). */
  remove(id: number): Promise<void>;
  /** Sets a named participant's answer; false when the event does not name them. */
  setAnswer(eventId: number, userId: number, answer: EventAnswer, at: number): Promise<boolean>;
  findById(id: number): Promise<CalendarEvent | undefined>;
  /** Whole events, in the order of `ids`. */
  findByIds(ids: readonly number[]): Promise<CalendarEvent[]>;
  /** The group's events that may meet the window: one-off events that do, and series that can reach it. */
  candidates(groupId: number, window: Window, menu: EventMenuFilter): Promise<EventCandidate[]>;
  /**
   * The events that may meet the window in the groups the user has joined and in which the user
   * takes part: named as a participant, or the event names no one (the whole group).
   */
  takenPartCandidates(userId: number, window: Window): Promise<(EventCandidate & { groupId: number })[]>;
  /** A group's event menus or facilities, by id. */
  listNamed(table: "event_menus" | "facilities", groupId: number): Promise<NamedRef[]>;
  findNamed(table: "event_menus" | "facilities", id: number): Promise<(NamedRef & { groupId: number }) | undefined>;
  insertNamed(table: "event_menus" | "facilities", groupId: number, name: string, at: number): Promise<NamedRef>;
  renameNamed(table: "event_menus" | "facilities", id: number, name: string): Promise<void>;
  removeNamed(table: "event_menus" | "facilities", id: number): Promise<void>;
}

function selectEvents(db: Kysely<Database>) {
  return db
    .selectFrom("events")
    .innerJoin("users as creator", "creator.id", "events.creator_id")
    .leftJoin("event_menus", "event_menus.id", "events.menu_id")
    .selectAll("events")
    .select(["creator.name as creator_name", "event_menus.name as menu_name"]);
}

type EventRow = RowOf<typeof selectEvents>;

interface EventLists {
  readonly participants: Map<number, Participant[]>;
  readonly facilities: Map<number, NamedRef[]>;
  readonly exceptions: Map<number, EventException[]>;
}

function toEvent(row: EventRow, lists: EventLists): CalendarEvent {
  return {
    id: row.id,
    groupId: row.group_id,
    creatorId: row.creator_id,
    creatorName: row.creator_name,
    title: row.title,
    memo: row.memo,
    start: row.start_at,
    end: row.end_at,
    allDay: row.all_day === 1,
    timeZone: row.time_zone,
    rule: row.rule,
    menuId: row.menu_id,
    menuName: row.menu_name,
    participants: lists.participants.get(row.id) ?? [],
    facilities: lists.facilities.get(row.id) ?? [],
    exceptions: lists.exceptions.get(row.id) ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function exceptionsOf(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, EventException[]>> {
  return exceptionsIn(db, "event_exceptions", ids);
}

async function listsOf(db: Kysely<Database>, ids: readonly number[]): Promise<EventLists> {
  const participants = new Map<number, Participant[]>();
  const facilities = new Map<number, NamedRef[]>();
  if (ids.length === 0) return { participants, facilities, exceptions: new Map() };
  const people = await db
    .selectFrom("event_participants")
    .innerJoin("users", "users.id", "event_participants.user_id")
    .select(["event_participants.event_id", "users.id", "users.name", "event_participants.answer"])
    .where("event_participants.event_id", "in", ids)
    .orderBy("users.id")
    .execute();
  for (const row of people)
    push(participants, row.event_id, { id: row.id, name: row.name, answer: toEventAnswer(row.answer) });
  const booked = await db
    .selectFrom("event_facilities")
    .innerJoin("facilities", "facilities.id", "event_facilities.facility_id")
    .select(["event_facilities.event_id", "facilities.id", "facilities.name"])
    .where("event_facilities.event_id", "in", ids)
    .orderBy("facilities.id")
    .execute();
  for (const row of booked) push(facilities, row.event_id, { id: row.id, name: row.name });
  return { participants, facilities, exceptions: await exceptionsOf(db, ids) };
}

function columnsOf(event: EventFields & { at: number }) {
  return {
    title: event.title,
    memo: event.memo,
    start_at: event.start,
    end_at: event.end,
    all_day: event.allDay ? 1 : 0,
    time_zone: event.timeZone,
    rule: event.rule,
    series_end: event.seriesEnd,
    menu_id: event.menuId,
    updated_at: event.at,
  };
}

/** The answers an event's participants gave, by user id. */
type Answers = ReadonlyMap<number, { answer: string | null; answered_at: number | null }>;

async function writeLists(
  db: Kysely<Database>,
  eventId: number,
  groupId: number,
  event: EventFields,
  answers: Answers = new Map(),
): Promise<void> {
  const participants = [...new Set(event.participantIds)];
  const facilities = [...new Set(event.facilityIds)];
  if (participants.length > 0)
    await db
      .insertInto("event_participants")
      .values(
        participants.map((userId) => ({
          event_id: eventId,
          group_id: groupId,
          user_id: userId,
          answer: answers.get(userId)?.answer ?? null,
          answered_at: answers.get(userId)?.answered_at ?? null,
        })),
      )
      .execute();
  if (facilities.length > 0)
    await db
      .insertInto("event_facilities")
      .values(facilities.map((facilityId) => ({ event_id: eventId, group_id: groupId, facility_id: facilityId })))
      .execute();
  if (event.exceptions.length > 0)
    await db
      .insertInto("event_exceptions")
      .values(
        event.exceptions.map((exception) => ({ event_id: eventId, group_id: groupId, ...exceptionColumns(exception) })),
      )
      .execute();
}

async function removeLists(db: Kysely<Database>, eventId: number): Promise<void> {
  for (const table of ["event_participants", "event_facilities", "event_exceptions"] as const)
    await db.deleteFrom(table).where("event_id", "=", eventId).execute();
}

/** Narrows the window queries to some events (a group's, a menu's, the ones a user takes part in). */
type EventScope = (
  query: SelectQueryBuilder<Database, "events", object>,
) => SelectQueryBuilder<Database, "events", object>;

/**
 * The events of `scope` that may meet the window, in two queries, each matching its partial index
 * of migration 0028 (`rule is null` / `is not null`): one-off events last at most 366 days, so
 * their start lies no further before the window; a series starts before the window's end and
 * ends (series_end) after its start, or never.
 */
async function windowCandidates(
  db: Kysely<Database>,
  window: Window,
  scope: EventScope,
): Promise<(EventCandidate & { groupId: number })[]> {
  const oneOffs = await scope(
    db
      .selectFrom("events")
      .where("rule", "is", null)
      .where("start_at", ">", oneOffEarliest(window))
      .where("start_at", "<", window.end)
      .where("end_at", ">", window.start),
  )
    .select(["id", "group_id", "start_at", "end_at", "all_day", "time_zone"])
    .execute();
  const series = await scope(
    db
      .selectFrom("events")
      .where("rule", "is not", null)
      .where("start_at", "<", window.end)
      .where((eb) => eb.or([eb("series_end", "is", null), eb("series_end", ">", window.start)])),
  )
    .select(["id", "group_id", "start_at", "end_at", "all_day", "time_zone", "rule"])
    .execute();
  const exceptions = await exceptionsOf(
    db,
    series.map((row) => row.id),
  );
  // Every column the one-off rows need is in their index: the rule (null) is not read.
  return [...oneOffs.map((row) => ({ ...row, rule: null })), ...series].map((row) => ({
    ...toCandidate(row, exceptions),
    groupId: row.group_id,
  }));
}

/** Event queries. */
export function eventRepo(db: Kysely<Database>): EventRepo {
  const findByIds = async (ids: readonly number[]): Promise<CalendarEvent[]> => {
    if (ids.length === 0) return [];
    const rows = await selectEvents(db).where("events.id", "in", ids).execute();
    const lists = await listsOf(db, ids);
    const byId = new Map(rows.map((row) => [row.id, toEvent(row, lists)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };
  return {
    async insert(event) {
      const row = await db
        .insertInto("events")
        .values({ ...columnsOf(event), group_id: event.groupId, creator_id: event.creatorId, created_at: event.at })
        .returning("id")
        .executeTakeFirstOrThrow();
      await writeLists(db, row.id, event.groupId, event);
      return row.id;
    },
    async replace(id, groupId, event) {
      await db.updateTable("events").set(columnsOf(event)).where("id", "=", id).execute();
      const answered = await db
        .selectFrom("event_participants")
        .select(["user_id", "answer", "answered_at"])
        .where("event_id", "=", id)
        .where("answer", "is not", null)
        .execute();
      await removeLists(db, id);
      await writeLists(db, id, groupId, event, new Map(answered.map((row) => [row.user_id, row])));
    },
    async setAnswer(eventId, userId, answer, at) {
      const result = await db
        .updateTable("event_participants")
        .set({ answer, answered_at: at })
        .where("event_id", "=", eventId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(id) {
      await removeLists(db, id);
      await db.deleteFrom("events").where("id", "=", id).execute();
    },
    async findById(id) {
      return (await findByIds([id]))[0];
    },
    findByIds,
    async candidates(groupId, window, menu) {
      return windowCandidates(db, window, (query) => {
        const mine = query.where("group_id", "=", groupId);
        if (menu.kind === "unclassified") return mine.where("menu_id", "is", null);
        if (menu.kind === "menu") return mine.where("menu_id", "=", menu.menuId);
        return mine;
      });
    },
    async takenPartCandidates(userId, window) {
      // The joined groups as a list, not a subquery: each engine then walks the window indexes
      // group by group.
      const groupIds = (
        await db
          .selectFrom("memberships")
          .select("group_id")
          .where("user_id", "=", userId)
          .where("status", "=", "JOIN")
          .execute()
      ).map((row) => row.group_id);
      if (groupIds.length === 0) return [];
      return windowCandidates(db, window, (query) =>
        query.where("group_id", "in", groupIds).where((eb) => {
          const named = eb.selectFrom("event_participants").whereRef("event_participants.event_id", "=", "events.id");
          return eb.or([
            eb.not(eb.exists(named.select("event_participants.user_id"))),
            eb.exists(named.select("event_participants.user_id").where("event_participants.user_id", "=", userId)),
          ]);
        }),
      );
    },
    async listNamed(table, groupId) {
      return db.selectFrom(table).select(["id", "name"]).where("group_id", "=", groupId).orderBy("id").execute();
    },
    async findNamed(table, id) {
      const row = await db.selectFrom(table).select(["id", "name", "group_id"]).where("id", "=", id).executeTakeFirst();
      return row && { id: row.id, name: row.name, groupId: row.group_id };
    },
    async insertNamed(table, groupId, name, at) {
      return db
        .insertInto(table)
        .values({ group_id: groupId, name, created_at: at })
        .returning(["id", "name"])
        .executeTakeFirstOrThrow();
    },
    async renameNamed(table, id, name) {
      await db.updateTable(table).set({ name }).where("id", "=", id).execute();
    },
    async removeNamed(table, id) {
      await db.deleteFrom(table).where("id", "=", id).execute();
    },
  };
}
