// `kairan generate --events` on every engine: the events are valid as the domain sees them (rule,
// series_end, exceptions on real occurrences), spread as the plan says over groups, kinds and
// about a year around the chosen day, written by members, the same rows for the same seed on
// each engine; and PostgreSQL has its statistics when the load ends.
import assert from "node:assert/strict";
import { before, it } from "node:test";
import { type Kysely, sql } from "kysely";
import type { StoreConfig } from "../../src/config/config.js";
import { parseEventRule } from "../../src/domain/event-rule.js";
import { isRuleOccurrence, seriesEndBound } from "../../src/domain/recurrence.js";
import { generateDataset } from "../../src/services/dataset/dataset.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import type { DatasetPlan } from "../../src/store/queries/dataset.js";
import type { Database } from "../../src/store/schema.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { type Backend, describeEachBackend, openTestStore } from "../support/backends.js";

const DAY_MS = 86_400_000;
const AROUND = Date.UTC(2026, 5, 15);
const PLAN: DatasetPlan = {
  seed: 9,
  users: 40,
  groups: 4,
  bigGroupMembers: 25,
  membersPerGroup: 6,
  topics: 0,
  bigGroupTopics: 0,
  comments: 0,
  tasks: 0,
  notificationTopics: 0,
  startAt: Date.UTC(2025, 0, 1),
  events: 300,
  bigGroupEvents: 120,
  eventsAround: AROUND,
};

async function generated(backend: Backend, plan: DatasetPlan) {
  const opened = await openTestStore(backend);
  try {
    await generateDataset(opened, { plan, at: plan.startAt, progress: () => {} });
    const db = rawDatabase(opened.storeConfig);
    try {
      return {
        events: await db.selectFrom("events").selectAll().orderBy("id").execute(),
        participants: await db
          .selectFrom("event_participants")
          .selectAll()
          .orderBy("event_id")
          .orderBy("user_id")
          .execute(),
        exceptions: await db.selectFrom("event_exceptions").selectAll().orderBy("event_id").execute(),
        memberships: await db.selectFrom("memberships").select(["group_id", "user_id"]).execute(),
        // PostgreSQL only: -1 until the table has been analysed (or vacuumed) once.
        analysedRows:
          backend === "postgres"
            ? Number(
                (
                  await sql<{
                    n: number;
                  }>`select reltuples as n from pg_class where oid = to_regclass('events')`.execute(db)
                ).rows[0]?.n,
              )
            : undefined,
      };
    } finally {
      await db.destroy();
    }
  } finally {
    await opened.close();
  }
}

function rawDatabase(config: StoreConfig): Kysely<Database> {
  return config.kind === "sqlite" ? openSqliteDatabase(config.file) : openPostgresDatabase({ url: config.url });
}

describeEachBackend("kairan generate's events", (backend) => {
  let first: Awaited<ReturnType<typeof generated>>;
  before(async () => {
    first = await generated(backend, PLAN);
  });

  it("makes --events events, every fifth repeating, the first --big-events in group 1, the rest round-robin", () => {
    const { events } = first;
    assert.equal(events.length, 300);
    assert.deepEqual(
      events.filter((event) => event.rule !== null).map((event) => event.id),
      events.filter((event) => event.id % 5 === 0).map((event) => event.id),
    );
    const count = (groupId: number) => events.filter((event) => event.group_id === groupId).length;
    // 180 over groups 2..4: 60 each.
    assert.deepEqual([1, 2, 3, 4].map(count), [120, 60, 60, 60]);
  });

  it("stores valid events: rules the domain accepts, series_end from seriesEndBound, exceptions on real occurrences", () => {
    for (const row of first.events) {
      const exceptions = first.exceptions
        .filter((exception) => exception.event_id === row.id)
        .map((exception) => ({ originalStart: exception.original_start, cancelled: true as const }));
      const timing = { start: row.start_at, end: row.end_at, allDay: row.all_day === 1, timeZone: row.time_zone };
      if (row.rule !== null) assert.equal(parseEventRule(row.rule).text, row.rule);
      assert.equal(
        row.series_end,
        seriesEndBound({ ...timing, rule: row.rule, exceptions }) ?? null,
        `event ${row.id}`,
      );
      assert.ok(row.end_at > row.start_at && row.end_at - row.start_at <= 3 * DAY_MS + 2 * 3_600_000);
      assert.ok(Math.abs(row.start_at - AROUND) <= 184 * DAY_MS, `event ${row.id} starts within half a year`);
      for (const exception of exceptions) {
        assert.ok(row.rule !== null && isRuleOccurrence({ ...timing, rule: row.rule }, exception.originalStart));
      }
    }
    assert.ok(first.exceptions.length > 0, "some series have a cancelled occurrence");
  });

  it("mixes daily, weekly and monthly series ending by COUNT, UNTIL or never; all-day events; participants", () => {
    const rules = first.events.flatMap((event) => (event.rule === null ? [] : [parseEventRule(event.rule)]));
    for (const frequency of ["DAILY", "WEEKLY", "MONTHLY"])
      assert.ok(
        rules.some((rule) => rule.frequency === frequency),
        frequency,
      );
    assert.ok(rules.some((rule) => rule.count !== undefined));
    assert.ok(rules.some((rule) => rule.until !== undefined));
    assert.ok(rules.some((rule) => rule.count === undefined && rule.until === undefined));
    const allDay = first.events.filter((event) => event.all_day === 1).length;
    assert.ok(allDay > 15 && allDay < 90, `${allDay} all-day events of 300`);
    assert.ok(new Set(first.events.map((event) => event.time_zone)).size >= 3, "several time zones");
    const withPeople = new Set(first.participants.map((row) => row.event_id)).size;
    assert.ok(withPeople > 45 && withPeople < 150, `${withPeople} events with participants of 300`);
  });

  it("has every event created by, and naming as participants, members of its group", () => {
    const isMember = (groupId: number, userId: number) =>
      first.memberships.some((m) => m.group_id === groupId && m.user_id === userId);
    for (const event of first.events) assert.ok(isMember(event.group_id, event.creator_id), `creator of ${event.id}`);
    for (const row of first.participants)
      assert.ok(isMember(row.group_id, row.user_id), `participant of ${row.event_id}`);
  });

  it("is the same for the same seed, on this engine and on SQLite; another seed gives other events", async () => {
    assert.deepEqual((await generated(backend, PLAN)).events, first.events);
    if (backend !== "sqlite") assert.deepEqual((await generated("sqlite", PLAN)).events, first.events);
    assert.notDeepEqual((await generated(backend, { ...PLAN, seed: 10 })).events, first.events);
  });

  if (backend === "postgres")
    it("ends with ANALYZE: the planner knows how many events there are", () => {
      assert.equal(first.analysedRows, 300);
    });
});
