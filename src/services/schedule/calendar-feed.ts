// Calendar feeds (docs/api.md "Calendar feeds"): the per-user secret behind the /ical/ addresses,
// and the events those addresses serve. A feed request carries no other credential: the secret
// names its owner, and the owner's account and memberships decide what it shows, as they are now.
import { generateSecret, hashToken } from "../../auth/token.js";
import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import type { CalendarEvent } from "../../domain/event.js";
import type { Window } from "../../domain/event-time.js";
import { type ContentRef, formatContentId, formatPersonalEventId } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import type { User } from "../../domain/user.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { eventRef } from "../event/event.js";
import { scheduleEvents } from "./schedule.js";

/**
 * What a feed writes of an event: any kind of event with these fields joins a calendar (a
 * personal event too, with no menu or facilities).
 */
export type FeedEventFields = Pick<
  CalendarEvent,
  | "title"
  | "memo"
  | "start"
  | "end"
  | "allDay"
  | "timeZone"
  | "rule"
  | "exceptions"
  | "menuName"
  | "facilities"
  | "createdAt"
  | "updatedAt"
>;

/** One event of a feed, with the item id its UID is made from and the web page it links to. */
export interface FeedEvent {
  /** The item id (`GROUP,1:g,GW_SCHEDULE,1:n`). */
  readonly itemId: string;
  /** Its web page: the group item's, or the owner's personal event's (domain/item-links.ts makes the URL). */
  readonly page:
    { readonly kind: "group"; readonly ref: ContentRef } | { readonly kind: "personal"; readonly eventId: number };
  readonly event: FeedEventFields;
}

/** What one calendar address serves. */
export interface CalendarView {
  /** The calendar's name: the group's, or "Kairan: <owner>" for `me.ics`. */
  readonly name: string;
  readonly owner: User;
  readonly events: readonly FeedEvent[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
// The calendar's far end: events never lie past 2100-12-31.
const FEED_END = Date.UTC(2101, 0, 1);

/** The same 404 for an unknown secret, a disabled owner, a group that does not exist or is not theirs. */
function noCalendar(): NotFoundError {
  return new NotFoundError("NOT_FOUND", "There is no calendar at this address.");
}

/** When the caller's calendar secret was made; undefined when they have none. */
export async function calendarSecretOf(ctx: ServiceContext, actor: Actor): Promise<number | undefined> {
  return ctx.store.read((tx) => tx.calendarFeeds.createdAtOf(actor.user.id));
}

/**
 * Makes the caller a new calendar secret and returns it (shown once: only its hash is kept). An
 * earlier secret stops working in the same transaction.
 */
export async function renewCalendarSecret(ctx: ServiceContext, actor: Actor): Promise<string> {
  const secret = generateSecret();
  await ctx.store.transaction((tx) => tx.calendarFeeds.replace(actor.user.id, hashToken(secret), ctx.clock.now()));
  return secret;
}

/** Ends every calendar address of the caller. @throws NotFoundError CALENDAR_SECRET_NOT_FOUND */
export async function revokeCalendarSecret(ctx: ServiceContext, actor: Actor): Promise<void> {
  const removed = await ctx.store.transaction((tx) => tx.calendarFeeds.remove(actor.user.id));
  if (!removed) throw new NotFoundError("CALENDAR_SECRET_NOT_FOUND", "You have no calendar address to revoke.");
}

/** Events ending after a year ago (a series: its last end), and every later one. */
function feedWindow(now: number): Window {
  return { start: now - LIMITS.calendarFeedPastDays * DAY_MS, end: FEED_END };
}

async function requireOwner(tx: Tx, secret: string): Promise<User> {
  const owner = await tx.calendarFeeds.findOwner(hashToken(secret));
  if (owner === undefined) throw noCalendar();
  return owner;
}

/** A group's events in the window, whole (series with every exception). */
async function groupEvents(tx: Tx, groupId: number, window: Window): Promise<CalendarEvent[]> {
  const candidates = await tx.events.candidates(groupId, window, { kind: "all" });
  const events = await tx.events.findByIds(candidates.map((candidate) => candidate.id));
  return events.sort((a, b) => a.start - b.start || a.id - b.id);
}

function feedEventOf(event: CalendarEvent): FeedEvent {
  const ref = eventRef(event);
  return { itemId: formatContentId(ref), page: { kind: "group", ref }, event };
}

/** One group's events for the owner of `secret`. @throws NotFoundError NOT_FOUND (also for a group not theirs) */
export async function readGroupCalendar(
  ctx: ServiceContext,
  input: { secret: string; groupId: number },
): Promise<CalendarView> {
  return ctx.store.read(async (tx) => {
    const owner = await requireOwner(tx, input.secret);
    const group = await tx.groups.findById(input.groupId);
    const membership = group && (await tx.memberships.findJoined(group.id, owner.id));
    if (!group || !membership) throw noCalendar();
    const events = await groupEvents(tx, group.id, feedWindow(ctx.clock.now()));
    return { name: group.name, owner, events: events.map(feedEventOf) };
  });
}

/**
 * Everything `me.ics` shows, in schedule order: the user's personal events and the group events
 * they take part in (a listed participant, or an event without a participant list).
 */
async function gatherMyEvents(tx: Tx, user: User, window: Window): Promise<FeedEvent[]> {
  return (await scheduleEvents(tx, user.id, window)).map((item) =>
    item.kind === "group"
      ? feedEventOf(item.event)
      : {
          itemId: formatPersonalEventId(item.event),
          page: { kind: "personal", eventId: item.event.id },
          event: { ...item.event, menuName: null, facilities: [] },
        },
  );
}

/** The owner's own calendar (`me.ics`). @throws NotFoundError NOT_FOUND */
export async function readMyCalendar(ctx: ServiceContext, input: { secret: string }): Promise<CalendarView> {
  return ctx.store.read(async (tx) => {
    const owner = await requireOwner(tx, input.secret);
    return {
      name: `Kairan: ${owner.name}`,
      owner,
      events: await gatherMyEvents(tx, owner, feedWindow(ctx.clock.now())),
    };
  });
}
