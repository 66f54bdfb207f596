import type { Actor } from "../../domain/access.js";
import { ForbiddenError, NotFoundError } from "../../domain/errors.js";
import {
  type CalendarEvent,
  type EventBase,
  type EventDraft,
  checkEventLists,
  requireMayEditEvent,
} from "../../domain/event.js";
import { type EventInput, resolveEventDraft } from "../../domain/event-draft.js";
import { parseEventAnswer, requireOwnAnswer, requireParticipant } from "../../domain/event-answer.js";
import { requireEventZone } from "../../domain/event-time.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import { isRuleOccurrence, seriesEndBound } from "../../domain/recurrence.js";
import type { Tx } from "../../store/store.js";
import { removeBlobs, removeCommentsOf, removeItemRows } from "../comment/comment-detail.js";
import { type EventListView, eventRef, requireEvent, requireMenuOf, wholeEntry } from "./event.js";
import { placeRemindersAgain } from "./event-reminder.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";
import { queueItemDeleted } from "../webhook/enqueue.js";

/** The time zone events take when neither the write nor the creator's settings name one (the server's). */
export interface EventZoneDefault {
  readonly defaultTimeZone: string;
}

/**
 * The draft's zone: as sent, else the event's own (update), else the caller's setting, else the server's.
 * @throws ValidationError EVENT_TIME_ZONE_INVALID
 */
export async function zoneOf(
  tx: Tx,
  actor: Actor,
  input: EventInput,
  fallback: string,
  current?: Pick<CalendarEvent, "timeZone">,
) {
  if (input.timeZone !== undefined && input.timeZone.trim() !== "") return requireEventZone(input.timeZone);
  if (current !== undefined) return current.timeZone;
  return (await tx.users.findPreferences(actor.user.id))?.timeZone ?? fallback;
}

/**
 * Asserts what a draft names belongs to the group: its menu, its facilities, its participants (members).
 * @throws NotFoundError NOT_FOUND (menu, facility); ForbiddenError NOT_A_MEMBER (a participant)
 */
export async function requireDraftRefs(tx: Tx, groupId: number, draft: EventDraft): Promise<void> {
  if (draft.menuId !== null) await requireMenuOf(tx, groupId, draft.menuId);
  for (const facilityId of draft.facilityIds) {
    const facility = await tx.events.findNamed("facilities", facilityId);
    if (!facility || facility.groupId !== groupId)
      throw new NotFoundError("NOT_FOUND", "A facility of the event does not exist in this group.");
  }
  for (const userId of draft.participantIds) {
    if (!(await tx.memberships.findJoined(groupId, userId)))
      throw new ForbiddenError("NOT_A_MEMBER", "Every participant must be a member of the group.");
  }
}

/** What the store keeps of a draft written at `at`. */
export function fieldsOf(draft: EventDraft, at: number) {
  return { ...draft, seriesEnd: seriesEndBound(draft) ?? null, at };
}

/**
 * Creates an event in a group the caller has joined; its participants (every member when it names
 * none) but the caller are notified.
 * @throws ValidationError (see resolveEventDraft), NotFoundError GROUP_NOT_FOUND, NOT_FOUND;
 *   ForbiddenError GROUP_NOT_JOINED, NOT_A_MEMBER
 */
export async function createEvent(
  ctx: ServiceContext,
  actor: Actor,
  input: EventInput & EventZoneDefault & { groupId: number },
): Promise<EventListView> {
  return ctx.store.transaction(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    const draft = resolveEventDraft(input, await zoneOf(tx, actor, input, input.defaultTimeZone));
    const event = await insertEvent(tx, { groupId: group.id, creatorId: actor.user.id, draft }, ctx.clock.now());
    return { group, entries: [wholeEntry(event)], total: 1, comments: undefined };
  });
}

/**
 * Replaces an event's fields (an omitted memo empties it); the creator, the participants and the
 * group's managers may. Its participants as they are now are notified. `keepExceptions` (the web
 * form, which does not list them) keeps the moved and cancelled occurrences the new rule still has.
 * @throws ValidationError, NotFoundError NOT_FOUND, ForbiddenError GROUP_NOT_JOINED, EVENT_EDIT_FORBIDDEN, NOT_A_MEMBER
 */
export async function updateEvent(
  ctx: ServiceContext,
  actor: Actor,
  input: EventInput & EventZoneDefault & { ref: ContentRef; keepExceptions?: boolean },
): Promise<EventListView> {
  return ctx.store.transaction(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const current = await requireEvent(tx, input.ref);
    requireMayEditEvent(current, actor.user.id, membership);
    const resolved = resolveEventDraft(input, await zoneOf(tx, actor, input, input.defaultTimeZone, current));
    const draft = input.keepExceptions ? withKeptExceptions(resolved, current) : resolved;
    await requireDraftRefs(tx, group.id, draft);
    await replaceEventFields(tx, current, draft, { writerId: actor.user.id, at: ctx.clock.now() });
    const event = await requireEvent(tx, input.ref);
    return { group, entries: [wholeEntry(event)], total: 1, comments: undefined };
  });
}

/** The draft with the current exceptions that name occurrences of its rule. @throws ValidationError EVENT_RULE_INVALID */
export function withKeptExceptions(draft: EventDraft, current: Pick<EventBase, "exceptions">): EventDraft {
  const rule = draft.rule;
  if (rule === null) return draft;
  const exceptions = current.exceptions.filter((exception) =>
    isRuleOccurrence({ ...draft, rule }, exception.originalStart),
  );
  const kept = { ...draft, exceptions };
  checkEventLists(kept);
  return kept;
}

/**
 * Deletes an event with its comments, their attachments, and every like, favorite and
 * notification of them; the attachment bytes go once the rows are gone.
 * @throws NotFoundError NOT_FOUND, ForbiddenError GROUP_NOT_JOINED, EVENT_EDIT_FORBIDDEN
 */
export async function deleteEvent(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef },
): Promise<{ event: CalendarEvent; group: Group }> {
  const { event, group, keys } = await ctx.store.transaction(async (tx) => {
    const { group: ownGroup, membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const found = await requireEvent(tx, input.ref);
    requireMayEditEvent(found, actor.user.id, membership);
    const removed = await removeEvent(tx, found);
    await queueItemDeleted(tx, input.ref, actor.user.id, ctx.clock.now());
    return { event: found, group: ownGroup, keys: removed };
  });
  await removeBlobs(ctx.blobs, keys);
  return { event, group };
}

/**
 * Inserts a group event whose creator has joined the group (the caller checked), inside the
 * caller's transaction; its participants (every member when it names none) but the creator are
 * notified.
 * @throws NotFoundError NOT_FOUND (menu, facility); ForbiddenError NOT_A_MEMBER (a participant)
 */
export async function insertEvent(
  tx: Tx,
  input: { groupId: number; creatorId: number; draft: EventDraft },
  at: number,
): Promise<CalendarEvent> {
  const { groupId } = input;
  const id = await recordEvent(tx, input, at);
  const event = await requireEvent(tx, { kind: "GW_SCHEDULE", groupId, id });
  await tx.notifications.fanOut({ item: eventRef(event), actorId: input.creatorId, cause: { kind: "created" }, at });
  return event;
}

/**
 * The one insert of group events, inside the caller's transaction, with what the draft names
 * checked here; no one is told (insertEvent tells; the import writes history). Returns the id.
 * @throws NotFoundError NOT_FOUND (menu, facility); ForbiddenError NOT_A_MEMBER (a participant)
 */
export async function recordEvent(
  tx: Tx,
  input: { groupId: number; creatorId: number; draft: EventDraft },
  at: number,
): Promise<number> {
  await requireDraftRefs(tx, input.groupId, input.draft);
  return tx.events.insert({ ...fieldsOf(input.draft, at), groupId: input.groupId, creatorId: input.creatorId });
}

/**
 * Replaces an event's fields with a checked draft inside the caller's transaction; its
 * participants hear of it but the writer (`null`: the operator, so all of them).
 */
export async function replaceEventFields(
  tx: Tx,
  current: CalendarEvent,
  draft: EventDraft,
  by: { writerId: number | null; at: number },
): Promise<void> {
  await tx.events.replace(current.id, current.groupId, fieldsOf(draft, by.at));
  await placeRemindersAgain(tx, eventRef(current), by.at);
  const cause = { kind: "updated", bodyChanged: draft.memo !== current.memo } as const;
  await tx.notifications.fanOut({ item: eventRef(current), actorId: by.writerId, cause, at: by.at });
}

/** Removes an event with its comments, likes, favorites and notifications; the blob keys to delete after commit. */
export async function removeEvent(tx: Tx, event: CalendarEvent): Promise<string[]> {
  const keys = await removeCommentsOf(tx, eventRef(event));
  await removeItemRows(tx, "GW_SCHEDULE", [event.id]);
  await tx.events.remove(event.id);
  return keys;
}

/**
 * A participant's answer to an event (attending, maybe, declined): only a participant the event
 * names answers, for the whole event (every occurrence of a series); answering again replaces it.
 * `forUserId` (the API's `cbl:who id`) may only name the caller: nobody answers for someone else.
 * @throws ValidationError EVENT_ANSWER_INVALID; NotFoundError NOT_FOUND;
 *   ForbiddenError GROUP_NOT_JOINED, NOT_A_PARTICIPANT, EVENT_ANSWER_NOT_YOURS
 */
export async function answerEvent(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; answer: unknown; forUserId?: number | undefined },
): Promise<CalendarEvent> {
  const answer = parseEventAnswer(input.answer);
  requireOwnAnswer(input.forUserId, actor.user.id);
  return ctx.store.transaction(async (tx) => {
    await requireGroupMember(tx, actor, input.ref.groupId);
    const event = await requireEvent(tx, input.ref);
    requireParticipant(event, actor.user.id);
    await tx.events.setAnswer(event.id, actor.user.id, answer, ctx.clock.now());
    return requireEvent(tx, input.ref);
  });
}
