// The operator's event commands (`kairan event ...`): the same rules as the API's writes, with the
// creator named by e-mail address and no caller to leave out of the notifications.
import { NotFoundError } from "../../domain/errors.js";
import { type CalendarEvent, type NamedRef, checkNamedName } from "../../domain/event.js";
import { type EventInput, resolveEventDraft } from "../../domain/event-draft.js";
import { requireEventZone } from "../../domain/event-time.js";
import type { ContentRef } from "../../domain/item-id.js";
import { requireGroup, requireMemberByEmail } from "../admin-lookup.js";
import { removeBlobs } from "../comment/comment-detail.js";
import { requireEvent } from "./event.js";
import { insertEvent, removeEvent, replaceEventFields, requireDraftRefs } from "./event-write.js";
import type { Tx } from "../../store/store.js";
import { type NamedList, insertNamed } from "./event-named.js";
import type { ServiceContext } from "../context.js";

/** An event as the command line gives it: participants by e-mail address. */
export type OperatorEventInput = Omit<EventInput, "participantIds"> & { readonly participantEmails: readonly string[] };

async function participantIds(tx: Tx, groupId: number, emails: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const email of emails) ids.push((await requireMemberByEmail(tx, groupId, email)).user.id);
  return ids;
}

/**
 * Adds an event created by a member; its participants (every member when none) but the creator
 * are notified. The zone: `--time-zone`, else the creator's setting, else UTC.
 * @throws ValidationError (the API's event errors), USER_NOT_MEMBER; NotFoundError GROUP_NOT_FOUND, USER_NOT_FOUND, NOT_FOUND
 */
export async function createEventAsOperator(
  ctx: ServiceContext,
  input: OperatorEventInput & { groupId: number; creatorEmail: string },
): Promise<CalendarEvent> {
  return ctx.store.transaction(async (tx) => {
    await requireGroup(tx, input.groupId);
    const creator = await requireMemberByEmail(tx, input.groupId, input.creatorEmail);
    const ids = await participantIds(tx, input.groupId, input.participantEmails);
    const zone =
      input.timeZone === undefined
        ? ((await tx.users.findPreferences(creator.user.id))?.timeZone ?? "UTC")
        : requireEventZone(input.timeZone);
    const draft = resolveEventDraft({ ...input, participantIds: ids }, zone);
    return insertEvent(tx, { groupId: input.groupId, creatorId: creator.user.id, draft }, ctx.clock.now());
  });
}

/**
 * Replaces an event's fields, as an update through the API does; every participant is notified.
 * @throws ValidationError, NotFoundError NOT_FOUND, USER_NOT_FOUND
 */
export async function updateEventAsOperator(
  ctx: ServiceContext,
  input: OperatorEventInput & { ref: ContentRef },
): Promise<CalendarEvent> {
  return ctx.store.transaction(async (tx) => {
    const current = await requireEvent(tx, input.ref);
    const ids = await participantIds(tx, current.groupId, input.participantEmails);
    const zone = input.timeZone === undefined ? current.timeZone : requireEventZone(input.timeZone);
    const draft = resolveEventDraft({ ...input, participantIds: ids }, zone);
    await requireDraftRefs(tx, current.groupId, draft);
    await replaceEventFields(tx, current, draft, { writerId: null, at: ctx.clock.now() });
    return requireEvent(tx, input.ref);
  });
}

/** Deletes an event with its comments and everything hanging on it. @throws NotFoundError NOT_FOUND */
export async function deleteEventAsOperator(ctx: ServiceContext, input: { ref: ContentRef }): Promise<CalendarEvent> {
  const { event, keys } = await ctx.store.transaction(async (tx) => {
    const found = await requireEvent(tx, input.ref);
    return { event: found, keys: await removeEvent(tx, found) };
  });
  await removeBlobs(ctx.blobs, keys);
  return event;
}

/**
 * Adds a menu or facility to a group.
 * @throws ValidationError EVENT_MENU_NAME_REQUIRED, EVENT_MENU_NAME_TOO_LONG; NotFoundError GROUP_NOT_FOUND
 */
export async function createNamedAsOperator(
  ctx: ServiceContext,
  input: { list: NamedList; groupId: number; name: string },
): Promise<NamedRef> {
  const name = checkNamedName(input.name);
  return ctx.store.transaction(async (tx) => {
    await requireGroup(tx, input.groupId);
    return insertNamed(tx, { list: input.list, groupId: input.groupId, name }, ctx.clock.now());
  });
}

/** A group's menus or facilities. @throws NotFoundError GROUP_NOT_FOUND */
export async function listNamedAsOperator(
  ctx: ServiceContext,
  input: { list: NamedList; groupId: number },
): Promise<NamedRef[]> {
  return ctx.store.read(async (tx) => {
    await requireGroup(tx, input.groupId);
    return tx.events.listNamed(input.list, input.groupId);
  });
}

/** Removes a menu (its events keep no menu) or a facility (events no longer book it). @throws NotFoundError NOT_FOUND */
export async function deleteNamedAsOperator(
  ctx: ServiceContext,
  input: { list: NamedList; id: number },
): Promise<NamedRef> {
  return ctx.store.transaction(async (tx) => {
    const found = await tx.events.findNamed(input.list, input.id);
    if (!found) throw new NotFoundError("NOT_FOUND", "No menu or facility has this id.");
    await tx.events.removeNamed(input.list, input.id);
    return { id: found.id, name: found.name };
  });
}
