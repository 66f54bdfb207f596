// The events of a synthetic dataset (`kairan generate --events`). Unlike topics they are made in
// JavaScript, not in SQL: each one must be a valid event as the domain sees it (its rule parsed,
// its exception on a real occurrence, `series_end` from `seriesEndBound`), and the domain's own
// functions are the only safe way to get that right. 10,000 events take well under a second.
import type { EventException } from "../../domain/event.js";
import { parseEventRule } from "../../domain/event-rule.js";
import { zoneMidnight } from "../../domain/event-time.js";
import { expandEvent, seriesEndBound } from "../../domain/recurrence.js";
import { wallClockToUtc } from "../../domain/time-zone.js";
import type { DatasetPlan } from "../../store/queries/dataset.js";
import type { GeneratedEvent } from "../../store/queries/dataset-events.js";
import type { Store } from "../../store/store.js";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Events start from this many days before `eventsAround` to as many after: about a year. */
const SPREAD_DAYS = 183;
const ZONES = ["Asia/Tokyo", "Asia/Tokyo", "Asia/Tokyo", "Europe/Berlin", "America/New_York"] as const;
const MEMO = "Agenda: last week's notes, next steps, questions. Bring the numbers and the draft.";

/**
 * A deterministic number in [0, 1) from the seed, the event's number and a salt (a 32-bit integer
 * hash, murmur3's finaliser): the same seed always gives the same events.
 */
function random(seed: number, i: number, salt: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(seed * 31 + salt, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

/** The group of event i: the first --big-events in group 1, the rest round-robin over the others. */
function groupOf(plan: DatasetPlan, i: number): number {
  if (i <= plan.bigGroupEvents || plan.groups === 1) return 1;
  return 2 + ((i - plan.bigGroupEvents - 1) % (plan.groups - 1));
}

/** Member k (0-based) of a group, as the SQL loader places them (store/queries/dataset.ts). */
function memberOf(plan: DatasetPlan, groupId: number, k: number): number {
  if (groupId === 1) return (k % plan.bigGroupMembers) + 1;
  return ((groupId * 7919 + plan.seed + (k % plan.membersPerGroup)) % plan.users) + 1;
}

/** The repetition of a series: daily, weekly or monthly; by COUNT, by UNTIL or open-ended. */
function ruleOf(plan: DatasetPlan, i: number, start: number): string {
  const r = (salt: number) => random(plan.seed, i, salt);
  const kind = r(20);
  const base =
    kind < 0.4
      ? r(21) < 0.8
        ? "FREQ=DAILY"
        : "FREQ=DAILY;INTERVAL=2"
      : kind < 0.8
        ? r(21) < 0.8
          ? "FREQ=WEEKLY"
          : "FREQ=WEEKLY;INTERVAL=2"
        : "FREQ=MONTHLY";
  const ending = r(22);
  if (ending < 1 / 3) {
    const most = kind < 0.4 ? 60 : kind < 0.8 ? 52 : 24;
    return `${base};COUNT=${2 + Math.floor(r(23) * (most - 1))}`;
  }
  if (ending < 2 / 3) {
    const until = new Date(start + (30 + Math.floor(r(23) * 240)) * DAY_MS);
    return `${base};UNTIL=${until.toISOString().slice(0, 10).replaceAll("-", "")}T235959Z`;
  }
  return base;
}

/** Event i of the plan (1-based). */
export function generatedEvent(plan: DatasetPlan, i: number): GeneratedEvent {
  const r = (salt: number) => random(plan.seed, i, salt);
  const groupId = groupOf(plan, i);
  const size = groupId === 1 ? plan.bigGroupMembers : plan.membersPerGroup;
  const timeZone = ZONES[Math.floor(r(1) * ZONES.length)]!;
  const day = plan.eventsAround + (Math.floor(r(2) * (2 * SPREAD_DAYS + 1)) - SPREAD_DAYS) * DAY_MS;
  const allDay = r(3) < 0.15;
  const [start, end] = allDay
    ? [zoneMidnight(day, timeZone), zoneMidnight(day + (1 + Math.floor(r(4) * 3)) * DAY_MS, timeZone)]
    : timed(day, timeZone, 8 + Math.floor(r(4) * 12), Math.floor(r(5) * 2) * 30, 1 + Math.floor(r(6) * 6));
  const rule = i % 5 === 0 ? parseEventRule(ruleOf(plan, i, start)).text : null;
  const people = r(7) < 0.3 ? 1 + Math.floor(r(8) * Math.min(5, size)) : 0;
  const first = Math.floor(r(9) * size);
  const participantIds = [...new Set(Array.from({ length: people }, (_, k) => memberOf(plan, groupId, first + k)))];
  const timing = { start, end, allDay, timeZone, rule };
  const exceptions = rule !== null && r(10) < 0.2 ? secondCancelled(timing) : [];
  return {
    groupId,
    creatorId: memberOf(plan, groupId, Math.floor(r(11) * size)),
    title: `Event ${i}`,
    memo: MEMO.slice(0, 10 + Math.floor(r(12) * (MEMO.length - 10))),
    ...timing,
    seriesEnd: seriesEndBound({ ...timing, exceptions }) ?? null,
    participantIds,
    exceptions,
    at: plan.startAt + i * 1000,
  };
}

/** A timed event at hh:mm on the zone's clock of `day`, lasting `halfHours` half hours. */
function timed(day: number, zone: string, hour: number, minute: number, halfHours: number): [number, number] {
  const start = wallClockToUtc(day + hour * HOUR_MS + minute * 60_000, zone);
  return [start, start + halfHours * 30 * 60_000];
}

/** The series' second occurrence cancelled, as a person skipping one meeting would. */
function secondCancelled(event: Omit<Parameters<typeof expandEvent>[0], "exceptions">): EventException[] {
  const window = { start: event.start, end: event.start + 400 * DAY_MS };
  const second = expandEvent({ ...event, exceptions: [] }, window, 2).occurrences[1];
  return second === undefined ? [] : [{ originalStart: second.start, cancelled: true }];
}

/** Events per transaction: the WAL stays small, a commit is amortised. */
const EVENT_CHUNK = 5_000;

/** Makes the plan's events and stores them, a chunk per transaction. */
export async function insertGeneratedEvents(store: Store, plan: DatasetPlan): Promise<void> {
  for (let from = 1; from <= plan.events; from += EVENT_CHUNK) {
    const to = Math.min(plan.events, from + EVENT_CHUNK - 1);
    const events = Array.from({ length: to - from + 1 }, (_, k) => generatedEvent(plan, from + k));
    await store.transaction((tx) => tx.dataset.insertEvents(events));
  }
}
