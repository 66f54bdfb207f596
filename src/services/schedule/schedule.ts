// A user's schedule (docs/api.md "Personal schedule"): their personal events and the group events
// they take part in, in one list ordered by the start of each event's first occurrence in a window.
import type { Actor } from "../../domain/access.js";
import type { CalendarEvent, PersonalEvent } from "../../domain/event.js";
import type { Window } from "../../domain/event-time.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef, PersonalEventRef } from "../../domain/item-id.js";
import type { PageWindow } from "../../store/page-window.js";
import type { EventCandidate } from "../../store/queries/events.js";
import type { Store, Tx } from "../../store/store.js";
import type { CommentDetail } from "../comment/comment-detail.js";
import { commentsByItem } from "../comment/embedded-comments.js";
import { type EventEntry, entryOf, eventRef, requireEvent, wholeEntry } from "../event/event.js";
import { expansions } from "../event/expansion-cache.js";
import { requireGroupMember } from "../group/group-access.js";
import { requireOwnPersonalEvent } from "./personal-event.js";
import type { ServiceContext } from "../context.js";

/**
 * One event of a schedule. `entry.shown` is its first occurrence inside the window (the event
 * itself when read alone); `entry.occurrences` are a repeating event's occurrences inside the
 * window, moved ones at their new times and cancelled ones left out, at most 100 (empty for a
 * one-off event, whose one occurrence is `shown`). `entry.event` is the whole event: its rule
 * and exceptions, its time zone and whether it is all-day (what an iCalendar feed writes).
 */
export type ScheduleItem =
  | { readonly kind: "personal"; readonly entry: EventEntry<PersonalEvent> }
  | { readonly kind: "group"; readonly group: Group; readonly entry: EventEntry<CalendarEvent> };

/** A page of a schedule, or one item of it. */
export interface ScheduleView {
  readonly items: readonly ScheduleItem[];
  /** Matching events over all pages (`cbl:totalCount`). */
  readonly total: number;
  /** The embedded comments of the group events, by event id (personal events have none). */
  readonly comments: ReadonlyMap<number, readonly CommentDetail[]> | undefined;
}

/** An event placed in the window by its first occurrence there, before it is read whole. */
interface Placed {
  readonly kind: "personal" | "group";
  readonly id: number;
  readonly groupId: number;
  readonly first: number;
}

const KIND_ORDER = { personal: 0, group: 1 } as const;

function place(kind: Placed["kind"], candidates: readonly (EventCandidate & { groupId?: number })[], window: Window) {
  return candidates.flatMap((candidate): Placed[] => {
    const first = expansions.expand(candidate, window, 1).occurrences[0];
    return first === undefined ? [] : [{ kind, id: candidate.id, groupId: candidate.groupId ?? 0, first: first.start }];
  });
}

/** Every event of the user's schedule that meets the window, in schedule order. */
async function placeAll(tx: Tx, userId: number, window: Window): Promise<Placed[]> {
  const placed = [
    ...place("personal", await tx.personalEvents.candidates(userId, window), window),
    ...place("group", await tx.events.takenPartCandidates(userId, window), window),
  ];
  return placed.sort((a, b) => a.first - b.first || a.id - b.id || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}

/** The placed events read whole, in the order given. */
async function itemsOf(tx: Tx, userId: number, placed: readonly Placed[], window: Window): Promise<ScheduleItem[]> {
  const ids = (kind: Placed["kind"]) => placed.filter((item) => item.kind === kind).map((item) => item.id);
  const personal = new Map((await tx.personalEvents.findByIds(ids("personal"))).map((event) => [event.id, event]));
  const shared = new Map((await tx.events.findByIds(ids("group"))).map((event) => [event.id, event]));
  const groups = new Map<number, Group>();
  for (const groupId of new Set(placed.filter((item) => item.kind === "group").map((item) => item.groupId))) {
    const group = await tx.groups.findById(groupId);
    if (group) groups.set(groupId, group);
  }
  return placed.flatMap((item): ScheduleItem[] => {
    if (item.kind === "personal") {
      const event = personal.get(item.id);
      return event && event.ownerId === userId ? [{ kind: "personal", entry: entryOf(event, window) }] : [];
    }
    const event = shared.get(item.id);
    const group = groups.get(item.groupId);
    return event && group ? [{ kind: "group", group, entry: entryOf(event, window) }] : [];
  });
}

/**
 * The user's schedule in a window, every event of it: their personal events and the group events
 * of their groups in which they take part (named as a participant, or the event names no one),
 * ordered by the start of the first occurrence inside the window, then id. For the browser's
 * calendar and the iCalendar feed, which show a user's own schedule (no access level applies).
 */
export async function listScheduleOccurrences(
  ctx: { readonly store: Store },
  userId: number,
  window: Window,
): Promise<ScheduleItem[]> {
  return ctx.store.read(async (tx) => itemsOf(tx, userId, await placeAll(tx, userId, window), window));
}

/** An event of a user's schedule, whole and not expanded. */
export type ScheduleEvent =
  | { readonly kind: "personal"; readonly event: PersonalEvent }
  | { readonly kind: "group"; readonly event: CalendarEvent };

/**
 * The events of the user's schedule that meet the window, whole (rules and every exception) and in
 * schedule order, without expanding their occurrences: what an iCalendar feed writes.
 */
export async function scheduleEvents(tx: Tx, userId: number, window: Window): Promise<ScheduleEvent[]> {
  const placed = await placeAll(tx, userId, window);
  const ids = (kind: Placed["kind"]) => placed.filter((item) => item.kind === kind).map((item) => item.id);
  const personal = new Map((await tx.personalEvents.findByIds(ids("personal"))).map((event) => [event.id, event]));
  const shared = new Map((await tx.events.findByIds(ids("group"))).map((event) => [event.id, event]));
  return placed.flatMap((item): ScheduleEvent[] => {
    if (item.kind === "personal") {
      const event = personal.get(item.id);
      return event && event.ownerId === userId ? [{ kind: "personal", event }] : [];
    }
    const event = shared.get(item.id);
    return event ? [{ kind: "group", event }] : [];
  });
}

/** A page of the caller's schedule in a window (`GET /api/schedule/V2`). */
export async function listSchedule(
  ctx: ServiceContext,
  actor: Actor,
  input: { window: Window; page: PageWindow; embedComments: boolean },
): Promise<ScheduleView> {
  return ctx.store.read(async (tx) => {
    const placed = await placeAll(tx, actor.user.id, input.window);
    const page = placed.slice(input.page.offset, input.page.offset + input.page.limit);
    const items = await itemsOf(tx, actor.user.id, page, input.window);
    return { items, total: placed.length, comments: await commentsOf(tx, actor, items, input.embedComments) };
  });
}

/**
 * One item of the schedule by id: one of the caller's personal events, or a group event of a
 * group the caller has joined, its occurrences counted from its own start.
 * @throws NotFoundError NOT_FOUND, GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function getScheduleItem(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: PersonalEventRef | ContentRef; embedComments: boolean },
): Promise<ScheduleView> {
  return ctx.store.read(async (tx) => {
    const { ref } = input;
    let item: ScheduleItem;
    if (ref.kind === "MP_SCHEDULE") {
      item = { kind: "personal", entry: wholeEntry(await requireOwnPersonalEvent(tx, actor.user.id, ref)) };
    } else {
      const { group } = await requireGroupMember(tx, actor, ref.groupId);
      item = { kind: "group", group, entry: wholeEntry(await requireEvent(tx, ref)) };
    }
    return { items: [item], total: 1, comments: await commentsOf(tx, actor, [item], input.embedComments) };
  });
}

async function commentsOf(
  tx: Tx,
  actor: Actor,
  items: readonly ScheduleItem[],
  embed: boolean,
): Promise<ReadonlyMap<number, readonly CommentDetail[]> | undefined> {
  if (!embed) return undefined;
  const refs = items.flatMap((item) => (item.kind === "group" ? [eventRef(item.entry.event)] : []));
  return commentsByItem(tx, actor.user.id, refs);
}
