// What the web's event pages read: an event with its comments and likes, the choices of its form
// (members, menus, facilities), and the managers' page of a group's menus and facilities.
import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import { type CalendarEvent, type NamedRef, checkNamedName, mayEditEvent } from "../../domain/event.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { type NamedList, insertNamed } from "./event-named.js";
import { requireEvent } from "./event.js";
import { requireGroupManager, requireGroupMember } from "../group/group-access.js";
import { type ItemPageInput, type ItemPageView, aroundItem } from "../item/item-page.js";
import type { ServiceContext } from "../context.js";

/** What an event's page shows. */
export interface EventPageView extends ItemPageView {
  readonly event: CalendarEvent;
  /** The creator, the participants and the group's managers edit and delete it. */
  readonly mayEdit: boolean;
}

/** An event with its comments and likes. @throws NotFoundError NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readEventPage(ctx: ServiceContext, actor: Actor, input: ItemPageInput): Promise<EventPageView> {
  return ctx.store.read(async (tx) => {
    const access = await requireGroupMember(tx, actor, input.ref.groupId);
    const event = await requireEvent(tx, input.ref);
    return {
      ...(await aroundItem(tx, actor, access, input, event.memo, [event.creatorId])),
      event,
      mayEdit: mayEditEvent(event, actor.user.id, access.membership),
    };
  });
}

/** The choices of an event form, and the event being edited. */
export interface EventFormView {
  readonly group: Group;
  readonly members: readonly NamedRef[];
  readonly menus: readonly NamedRef[];
  readonly facilities: readonly NamedRef[];
  readonly event: CalendarEvent | undefined;
  readonly mayEdit: boolean;
}

/** The event form's choices. @throws NotFoundError NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, EVENT_EDIT_FORBIDDEN (editing) */
export async function readEventForm(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; ref?: ContentRef },
): Promise<EventFormView> {
  return ctx.store.read(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    const event = input.ref === undefined ? undefined : await requireEvent(tx, input.ref);
    const members = await tx.memberships.listMembers(group.id, "JOIN", {
      offset: 0,
      limit: LIMITS.eventParticipantsMax,
    });
    return {
      group,
      members: members.flatMap((m) => (m.userId === null ? [] : [{ id: m.userId, name: m.name }])),
      menus: await tx.events.listNamed("event_menus", group.id),
      facilities: await tx.events.listNamed("facilities", group.id),
      event,
      mayEdit: event === undefined || mayEditEvent(event, actor.user.id, membership),
    };
  });
}

/** A group's menus and facilities. @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED */
export async function readEventLists(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number },
): Promise<{ group: Group; menus: readonly NamedRef[]; facilities: readonly NamedRef[] }> {
  return ctx.store.read(async (tx) => {
    const group = await requireGroupManager(tx, actor, input.groupId);
    return {
      group,
      menus: await tx.events.listNamed("event_menus", group.id),
      facilities: await tx.events.listNamed("facilities", group.id),
    };
  });
}

/** What a manager does to a menu or facility: add one, rename or remove one of the group's. */
export type NamedChange =
  | { readonly kind: "add"; readonly name: string }
  | { readonly kind: "rename"; readonly id: number; readonly name: string }
  | { readonly kind: "remove"; readonly id: number };

/**
 * Changes a group's menus or facilities; a removed menu leaves its events without one, a removed
 * facility is no longer booked. @throws ValidationError EVENT_MENU_NAME_*; NotFoundError GROUP_NOT_FOUND,
 * NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED
 */
export async function changeEventList(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; list: NamedList; change: NamedChange },
): Promise<void> {
  const { change } = input;
  const name = change.kind === "remove" ? "" : checkNamedName(change.name);
  await ctx.store.transaction(async (tx) => {
    const group = await requireGroupManager(tx, actor, input.groupId);
    if (change.kind === "add") {
      await insertNamed(tx, { list: input.list, groupId: group.id, name }, ctx.clock.now());
      return;
    }
    const found = await tx.events.findNamed(input.list, change.id);
    if (!found || found.groupId !== group.id) throw new NotFoundError("NOT_FOUND", "No menu or facility has this id.");
    if (change.kind === "rename") await tx.events.renameNamed(input.list, change.id, name);
    else await tx.events.removeNamed(input.list, change.id);
  });
}
