import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import { type CalendarEvent, type EventBase, type NamedRef, eventRef } from "../../domain/event.js";
import type { Window } from "../../domain/event-time.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { type Occurrence, expandEvent } from "../../domain/recurrence.js";
import type { PageWindow } from "../../store/page-window.js";
import type { EventCandidate, EventMenuFilter } from "../../store/queries/events.js";
import type { Tx } from "../../store/store.js";
import type { CommentDetail } from "../comment/comment-detail.js";
import { commentsByItem } from "../comment/embedded-comments.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";
import { expansions } from "./expansion-cache.js";
import { type ChangeCursor, refuseChanges } from "../../domain/changes.js";
import { type ChangeFeed, type ChangesView, latestCursor, readChanges } from "../item/changes.js";

/** An event (a group's by default) as a feed writes it: the occurrence shown in `cbl:when`, and those inside the window. */
export interface EventEntry<E extends EventBase = CalendarEvent> {
  readonly event: E;
  /** The first occurrence inside the window (the event itself when read alone). */
  readonly shown: Occurrence;
  /** A repeating event's occurrences inside the window, at most 100; empty for a one-off event. */
  readonly occurrences: readonly Occurrence[];
}

/** What an event read returns. */
export interface EventListView {
  readonly group: Group;
  readonly entries: readonly EventEntry[];
  /** Matching events over all pages (`cbl:totalCount`). */
  readonly total: number;
  readonly comments: ReadonlyMap<number, readonly CommentDetail[]> | undefined;
  /** A list read's delta sync (a fixed window): the next cursor, and the changes of a changes-since read. */
  readonly changes?: ChangesView;
}

// Its callers among the services import it from here (the presenters read it in the domain).
export { eventRef };

const DAY_MS = 24 * 60 * 60 * 1000;

/** @throws NotFoundError NOT_FOUND (also when the id names another group) */
export async function requireEvent(tx: Tx, ref: ContentRef): Promise<CalendarEvent> {
  const event = ref.kind === "GW_SCHEDULE" ? await tx.events.findById(ref.id) : undefined;
  if (!event || event.groupId !== ref.groupId) throw new NotFoundError("NOT_FOUND", "The event does not exist.");
  return event;
}

/** @throws NotFoundError NOT_FOUND when the menu is not one of the group's */
export async function requireMenuOf(tx: Tx, groupId: number, menuId: number): Promise<NamedRef> {
  const menu = await tx.events.findNamed("event_menus", menuId);
  if (!menu || menu.groupId !== groupId) throw new NotFoundError("NOT_FOUND", "The event menu does not exist.");
  return menu;
}

/** The first occurrence of a candidate inside the window; undefined when it has none there. */
function firstInside(candidate: EventCandidate | CalendarEvent, window: Window): Occurrence | undefined {
  return expansions.expand(candidate, window, 1).occurrences[0];
}

/**
 * A page of a group's events that meet the window, by the start of their first occurrence inside
 * it, then id; or with `changesSince` the events changed after the cursor (docs/api.md "Delta
 * sync"), an event the window or menu no longer shows as a tombstone. Only a fixed window
 * (`fixedWindow`: a bound given) has a cursor: one counted from now changes with the clock.
 * @throws NotFoundError GROUP_NOT_FOUND, NOT_FOUND (menu); ForbiddenError GROUP_NOT_JOINED
 * @throws ValidationError CHANGES_NOT_SUPPORTED and cursor codes; GoneError CHANGES_CURSOR_EXPIRED
 */
export async function listEvents(
  ctx: ServiceContext,
  actor: Actor,
  input: {
    groupId: number;
    window: Window;
    menu: EventMenuFilter;
    page: PageWindow;
    embedComments: boolean;
    fixedWindow?: boolean;
    changesSince?: ChangeCursor | undefined;
  },
): Promise<EventListView> {
  return ctx.store.read(async (tx) => {
    const feed = eventChanges(input.groupId, input.window, input.menu);
    if (input.changesSince !== undefined) {
      if (input.fixedWindow !== true) refuseChanges("a window counted from now (give term-start or term-end)");
      const read = await readChanges(tx, actor, feed, input.changesSince, input.page.limit);
      const entries = read.items.map((event) => entryOf(event, input.window));
      const comments = await commentsOf(tx, actor, read.items, input.embedComments && !read.departed);
      return { group: read.group, entries, total: entries.length, comments, changes: read.changes };
    }
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    await feed.check?.(tx, group);
    const changes = input.fixedWindow === true ? await latestCursor(tx, feed.scope) : undefined;
    const placed = (await tx.events.candidates(group.id, input.window, input.menu)).flatMap((candidate) => {
      const first = firstInside(candidate, input.window);
      return first === undefined ? [] : [{ id: candidate.id, first }];
    });
    placed.sort((a, b) => a.first.start - b.first.start || a.id - b.id);
    const page = placed.slice(input.page.offset, input.page.offset + input.page.limit);
    const events = await tx.events.findByIds(page.map((item) => item.id));
    const entries = events.map((event) => entryOf(event, input.window));
    const comments = await commentsOf(tx, actor, events, input.embedComments);
    return { group, entries, total: placed.length, comments, ...(changes === undefined ? {} : { changes }) };
  });
}

/** The event list as delta sync follows it: the group's events the menu and the window show. */
function eventChanges(groupId: number, window: Window, menu: EventMenuFilter): ChangeFeed<CalendarEvent> {
  return {
    scope: { groupId, kind: "GW_SCHEDULE", parentId: 0 },
    async load(tx, ids) {
      return (await tx.events.findByIds(ids)).filter((event) => event.groupId === groupId);
    },
    idOf: (event) => event.id,
    shows: (event) => showsInMenu(event, menu) && firstInside(event, window) !== undefined,
    async check(tx, group) {
      if (menu.kind === "menu") await requireMenuOf(tx, group.id, menu.menuId);
    },
  };
}

function showsInMenu(event: CalendarEvent, menu: EventMenuFilter): boolean {
  if (menu.kind === "all") return true;
  if (menu.kind === "unclassified") return event.menuId === null;
  return event.menuId === menu.menuId;
}

/** One event, its occurrences counted from its own start. @throws NotFoundError NOT_FOUND; ForbiddenError */
export async function getEvent(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; embedComments: boolean },
): Promise<EventListView> {
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.ref.groupId);
    const event = await requireEvent(tx, input.ref);
    return {
      group,
      entries: [wholeEntry(event)],
      total: 1,
      comments: await commentsOf(tx, actor, [event], input.embedComments),
    };
  });
}

/** An event as a write answers it, or as read alone: shown as itself, occurrences from its start. */
export function wholeEntry<E extends EventBase>(event: E): EventEntry<E> {
  const window = { start: event.start, end: event.start + LIMITS.eventWindowMaxDays * DAY_MS };
  const occurrences = event.rule === null ? [] : expandEvent(event, window).occurrences;
  return { event, shown: { start: event.start, end: event.end }, occurrences };
}

/** An event as a listing writes it: shown at its first occurrence inside the window. */
export function entryOf<E extends EventBase>(event: E, window: Window): EventEntry<E> {
  const { occurrences } = expansions.expand(event, window);
  const shown = occurrences[0] ?? { start: event.start, end: event.end };
  return { event, shown, occurrences: event.rule === null ? [] : occurrences };
}

async function commentsOf(
  tx: Tx,
  actor: Actor,
  events: readonly CalendarEvent[],
  embed: boolean,
): Promise<ReadonlyMap<number, readonly CommentDetail[]> | undefined> {
  return embed ? commentsByItem(tx, actor.user.id, events.map(eventRef)) : undefined;
}

/** A group's event menus. @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function listEventMenus(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; page: PageWindow },
): Promise<{ group: Group; menus: readonly NamedRef[] }> {
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    const menus = await tx.events.listNamed("event_menus", group.id);
    return { group, menus: menus.slice(input.page.offset, input.page.offset + input.page.limit) };
  });
}
