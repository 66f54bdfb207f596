// Personal events (docs/api.md "Personal schedule"): private to their owner. Nobody else reads,
// changes, comments, likes or is notified of one; to anyone else such an id names nothing.
import type { Actor } from "../../domain/access.js";
import { NotFoundError, ValidationError } from "../../domain/errors.js";
import { type EventDraft, type PersonalEvent, checkPersonalDraft } from "../../domain/event.js";
import { type EventInput, resolveEventDraft } from "../../domain/event-draft.js";
import type { PersonalEventRef } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { type EventEntry, wholeEntry } from "../event/event.js";
import { type EventZoneDefault, fieldsOf, withKeptExceptions, zoneOf } from "../event/event-write.js";

function notFound(): NotFoundError {
  return new NotFoundError("NOT_FOUND", "The event does not exist.");
}

/**
 * The caller's own personal event; another user's is the same "no such event" as a missing one.
 * @throws NotFoundError NOT_FOUND
 */
export async function requireOwnPersonalEvent(tx: Tx, userId: number, ref: PersonalEventRef): Promise<PersonalEvent> {
  if (ref.ownerId !== userId) throw notFound();
  const event = await tx.personalEvents.findById(ref.id);
  if (!event || event.ownerId !== userId) throw notFound();
  return event;
}

/**
 * Refuses a comment, like or favorite of a personal event: its owner is told why (400), anyone
 * else learns nothing (404, as for an event that does not exist).
 * @throws ValidationError PERSONAL_EVENT_NOT_SHARED; NotFoundError NOT_FOUND
 */
export async function refusePersonalEventSharing(tx: Tx, actor: Actor, ref: PersonalEventRef): Promise<never> {
  await requireOwnPersonalEvent(tx, actor.user.id, ref);
  throw new ValidationError(
    "PERSONAL_EVENT_NOT_SHARED",
    "A personal event is private: it takes no comments, likes or favorites.",
  );
}

/** {@link refusePersonalEventSharing} in its own read. */
export async function refusePersonalEventComments(
  ctx: ServiceContext,
  actor: Actor,
  ref: PersonalEventRef,
): Promise<never> {
  return ctx.store.read((tx) => refusePersonalEventSharing(tx, actor, ref));
}

/**
 * Creates a personal event of the caller's; nobody is notified.
 * @throws ValidationError (see resolveEventDraft), PERSONAL_EVENT_NOT_SHARED
 */
export async function createPersonalEvent(
  ctx: ServiceContext,
  actor: Actor,
  input: EventInput & EventZoneDefault,
): Promise<EventEntry<PersonalEvent>> {
  return ctx.store.transaction(async (tx) => {
    const draft = resolveEventDraft(input, await zoneOf(tx, actor, input, input.defaultTimeZone));
    checkPersonalDraft(draft);
    return wholeEntry(await insertPersonalEvent(tx, actor.user.id, draft, ctx.clock.now()));
  });
}

/**
 * Replaces the fields of one of the caller's personal events (an omitted memo empties it).
 * `keepExceptions` (the web form, which does not list them) keeps the moved and cancelled
 * occurrences the new rule still has.
 * @throws ValidationError (see resolveEventDraft), PERSONAL_EVENT_NOT_SHARED; NotFoundError NOT_FOUND
 */
export async function updatePersonalEvent(
  ctx: ServiceContext,
  actor: Actor,
  input: EventInput & EventZoneDefault & { ref: PersonalEventRef; keepExceptions?: boolean },
): Promise<EventEntry<PersonalEvent>> {
  return ctx.store.transaction(async (tx) => {
    const current = await requireOwnPersonalEvent(tx, actor.user.id, input.ref);
    const resolved = resolveEventDraft(input, await zoneOf(tx, actor, input, input.defaultTimeZone, current));
    const draft = input.keepExceptions ? withKeptExceptions(resolved, current) : resolved;
    checkPersonalDraft(draft);
    await tx.personalEvents.replace(current.id, fieldsOf(draft, ctx.clock.now()));
    return wholeEntry(await requireOwnPersonalEvent(tx, actor.user.id, input.ref));
  });
}

/** Deletes one of the caller's personal events. @throws NotFoundError NOT_FOUND */
export async function deletePersonalEvent(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: PersonalEventRef },
): Promise<PersonalEvent> {
  return ctx.store.transaction(async (tx) => {
    const event = await requireOwnPersonalEvent(tx, actor.user.id, input.ref);
    await tx.personalEvents.remove(event.id);
    return event;
  });
}

/** Inserts a personal event (its draft checked by the caller) inside the caller's transaction; nobody is notified. */
export async function insertPersonalEvent(
  tx: Tx,
  ownerId: number,
  draft: EventDraft,
  at: number,
): Promise<PersonalEvent> {
  const id = await tx.personalEvents.insert({ ...fieldsOf(draft, at), ownerId });
  return requireOwnPersonalEvent(tx, ownerId, { kind: "MP_SCHEDULE", ownerId, id });
}
