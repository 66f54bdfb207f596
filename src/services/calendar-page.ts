// What the calendar pages show: the occurrences of events in a window, whatever their source. The
// views (src/web/calendar/*) take these occurrences only, so a personal schedule's own events can
// join the personal calendar by adding to `readMyCalendar`.
import type { Actor } from "../domain/access.js";
import type { CalendarEvent, NamedRef } from "../domain/event.js";
import { placeOccurrences } from "../domain/event-occurrence.js";
import type { Window } from "../domain/event-time.js";
import type { Group, Membership } from "../domain/group.js";
import type { EventMenuFilter } from "../store/queries/events.js";
import type { Tx } from "../store/store.js";
import { requireMenuOf } from "./event.js";
import { requireGroupMember } from "./group-access.js";
import type { ServiceContext } from "./context.js";

/** One occurrence of one event, as every calendar view takes it. */
export interface CalendarOccurrence {
  readonly eventId: number;
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

function occurrencesOf(events: readonly CalendarEvent[], group: Group, window: Window): CalendarOccurrence[] {
  const out = events.flatMap((event) =>
    placeOccurrences(event, window, OCCURRENCES_PER_EVENT).map((occurrence) => ({
      eventId: event.id,
      groupId: group.id,
      groupName: group.name,
      title: event.title,
      start: occurrence.start,
      end: occurrence.end,
      originalStart: occurrence.originalStart,
      allDay: event.allDay,
      timeZone: event.timeZone,
      repeating: event.rule !== null,
      menuName: event.menuName,
    })),
  );
  return out.sort((a, b) => a.start - b.start || a.end - b.end || a.eventId - b.eventId);
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

/** The caller's occurrences meeting the window: events of their groups that name them or name nobody. */
export async function readMyCalendar(
  ctx: ServiceContext,
  actor: Actor,
  input: { window: Window },
): Promise<{ occurrences: readonly CalendarOccurrence[] }> {
  return ctx.store.read(async (tx) => {
    const memberships = await tx.memberships.listJoinedOfUser(actor.user.id);
    const all: CalendarOccurrence[] = [];
    for (const membership of memberships) {
      const group = await tx.groups.findById(membership.groupId);
      if (group === undefined) continue;
      const events = (await eventsIn(tx, group.id, input.window, { kind: "all" })).filter(
        (event) => event.participants.length === 0 || event.participants.some((person) => person.id === actor.user.id),
      );
      all.push(...occurrencesOf(events, group, input.window));
    }
    all.sort((a, b) => a.start - b.start || a.end - b.end || a.eventId - b.eventId);
    return { occurrences: all };
  });
}
