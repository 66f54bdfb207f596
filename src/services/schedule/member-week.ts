// The group week view's data (`/g/:group/events?view=members`): for a page of the group's joined
// members, what each one's schedule holds in a window. Events of this group keep their titles;
// anything else (personal events, events of other groups) shows only as busy time, without title
// or link, except the reader's own personal events, which are theirs to see.
import type { Actor } from "../../domain/access.js";
import type { Window } from "../../domain/event-time.js";
import type { Group, Membership } from "../../domain/group.js";
import type { PageWindow } from "../../store/page-window.js";
import { requireGroupMember } from "../group/group-access.js";
import { type CalendarOccurrence, byStart, occurrencesOf } from "./calendar-page.js";
import { scheduleEvents } from "./schedule.js";
import type { ServiceContext } from "../context.js";

/** An occurrence of a member's schedule; a busy one carries no title, group or event id. */
export interface MemberOccurrence extends CalendarOccurrence {
  readonly busy: boolean;
}

/** One row of the group week view. */
export interface MemberRow {
  readonly userId: number;
  readonly name: string;
  readonly occurrences: readonly MemberOccurrence[];
}

/** What the group week view shows. */
export interface MemberWeekView {
  readonly group: Group;
  readonly membership: Membership;
  readonly rows: readonly MemberRow[];
  /** Joined members over all pages. */
  readonly total: number;
}

function busy(occurrence: CalendarOccurrence): MemberOccurrence {
  return {
    ...occurrence,
    busy: true,
    eventId: 0,
    personal: false,
    groupId: 0,
    groupName: "",
    title: "",
    menuName: null,
  };
}

/**
 * A page of the group's joined members (the reader first, then in the order they joined) with the
 * occurrences of each one's schedule meeting the window.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function readMemberWeek(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; window: Window; page: PageWindow },
): Promise<MemberWeekView> {
  return ctx.store.read(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    const joined = await tx.memberships.listJoinedForExport(group.id);
    const ordered = [
      ...joined.filter((m) => m.userId === actor.user.id),
      ...joined.filter((m) => m.userId !== actor.user.id),
    ];
    const page = ordered.slice(input.page.offset, input.page.offset + input.page.limit);
    const rows: MemberRow[] = [];
    for (const member of page) {
      const events = await scheduleEvents(tx, member.userId, input.window);
      const occurrences = events.flatMap((item): MemberOccurrence[] => {
        if (item.kind === "group") {
          const own = item.event.groupId === group.id;
          const placed = occurrencesOf([item.event], own ? group : { ...group, id: item.event.groupId }, input.window);
          return placed.map((o) => (own ? { ...o, busy: false } : busy(o)));
        }
        const placed = occurrencesOf([item.event], undefined, input.window);
        return placed.map((o) => (member.userId === actor.user.id ? { ...o, busy: false } : busy(o)));
      });
      rows.push({ userId: member.userId, name: member.name, occurrences: occurrences.sort(byStart) });
    }
    return { group, membership, rows, total: ordered.length };
  });
}
