// What the calendar pages show: the occurrences of events in a window, whatever their source. The
// views (src/web/calendar/*) take these occurrences only. The personal calendar reads the user's
// schedule (services/schedule/schedule.ts), the same list as `GET /api/schedule/V2` and `me.ics`.
import type { Actor } from "../../domain/access.js";
import type { CalendarEvent, EventBase, NamedRef } from "../../domain/event.js";
import { placeOccurrences } from "../../domain/event-occurrence.js";
import type { Window } from "../../domain/event-time.js";
import type { Group, Membership } from "../../domain/group.js";
import type { EventMenuFilter } from "../../store/queries/events.js";
import type { Tx } from "../../store/store.js";
import { requireMenuOf } from "../event/event.js";
import { requireGroupMember } from "../group/group-access.js";
import { listScheduleOccurrences } from "./schedule.js";
import type { ServiceContext } from "../context.js";

/** One occurrence of one event, as every calendar view takes it. */
export interface CalendarOccurrence {
  readonly eventId: number;
  /** A personal event of the reader's own: no group (`groupId` 0, `groupName` ""). */
  readonly personal: boolean;
  readonly groupId: number;
  readonly groupName: string;
  readonly title: string;
  readonly start: number;
  readonly end: number;
  /** The start the event's rule gives this occurrence (its own start unless it was moved). */
  readonly originalStart: number;
  readonly allDay: boolean;
  /** The event's zone: an all-day occurrence covers whole days of it. */
  readonly timeZone: string;
  readonly repeating: boolean;
  readonly menuName: string | null;
}

/** What a group's calendar page shows. */
export interface GroupCalendarView {
  readonly group: Group;
  readonly membership: Membership;
  readonly menus: readonly NamedRef[];
  readonly occurrences: readonly CalendarOccurrence[];
}

/** Enough occurrences for a daily event over the longest window (366 days). */
const OCCURRENCES_PER_EVENT = 400;

export function byStart(a: CalendarOccurrence, b: CalendarOccurrence): number {
  return a.start - b.start || a.end - b.end || a.eventId - b.eventId || Number(b.personal) - Number(a.personal);
}

/** The occurrences of events of one group, or personal ones (`group` undefined). */
export function occurrencesOf(
  events: readonly (EventBase & { menuName?: string | null })[],
  group: Group | undefined,
  window: Window,
): CalendarOccurrence[] {
  const out = events.flatMap((event) =>
    placeOccurrences(event, window, OCCURRENCES_PER_EVENT).map((occurrence) => ({
      eventId: event.id,
      personal: group === undefined,
      groupId: group?.id ?? 0,
      groupName: group?.name ?? "",
      title: event.title,
      start: occurrence.start,
      end: occurrence.end,
      originalStart: occurrence.originalStart,
      allDay: event.allDay,
      timeZone: event.timeZone,
      repeating: event.rule !== null,
      menuName: event.menuName ?? null,
    })),
  );
  return out.sort(byStart);
}

async function eventsIn(tx: Tx, groupId: number, window: Window, menu: EventMenuFilter): Promise<CalendarEvent[]> {
  const candidates = await tx.events.candidates(groupId, window, menu);
  return tx.events.findByIds(candidates.map((candidate) => candidate.id));
}

/**
 * A group's occurrences meeting the window, optionally of one menu, with the group's menus.
 * @throws NotFoundError GROUP_NOT_FOUND, NOT_FOUND (menu); ForbiddenError GROUP_NOT_JOINED
 */
export async function readGroupCalendar(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; window: Window; menu: EventMenuFilter },
): Promise<GroupCalendarView> {
  return ctx.store.read(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    if (input.menu.kind === "menu") await requireMenuOf(tx, group.id, input.menu.menuId);
    const events = await eventsIn(tx, group.id, input.window, input.menu);
    const menus = await tx.events.listNamed("event_menus", group.id);
    return { group, membership, menus, occurrences: occurrencesOf(events, group, input.window) };
  });
}

/**
 * The caller's occurrences meeting the window: their personal events, and the events of their
 * groups that name them or name nobody (the schedule's list, expanded over the whole window).
 */
export async function readMyCalendar(
  ctx: ServiceContext,
  actor: Actor,
  input: { window: Window },
): Promise<{ occurrences: readonly CalendarOccurrence[] }> {
  const items = await listScheduleOccurrences(ctx, actor.user.id, input.window);
  // The schedule keeps at most 100 occurrences of an event; a month or list view may need more.
  const all = items.flatMap((item) =>
    item.kind === "personal"
      ? occurrencesOf([item.entry.event], undefined, input.window)
      : occurrencesOf([item.entry.event], item.group, input.window),
  );
  return { occurrences: all.sort(byStart) };
}
