// The operator's personal event commands (`kairan event add --user`, `update`/`delete` with a
// personal event id): the same rules as the API's writes of personal events, the owner named by
// e-mail address. Nobody is notified, as through the API.
import { NotFoundError } from "../../domain/errors.js";
import { type PersonalEvent, checkPersonalDraft } from "../../domain/event.js";
import { resolveEventDraft } from "../../domain/event-draft.js";
import { requireEventZone } from "../../domain/event-time.js";
import type { PersonalEventRef } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";
import { requireUserByEmail } from "../admin-lookup.js";
import type { ServiceContext } from "../context.js";
import { insertPersonalEvent } from "./personal-event.js";
import type { OperatorEventInput } from "../event/event-admin.js";
import { fieldsOf } from "../event/event-write.js";

/** @throws NotFoundError NOT_FOUND: no such personal event of that owner */
async function requirePersonalEvent(tx: Tx, ref: PersonalEventRef): Promise<PersonalEvent> {
  const event = await tx.personalEvents.findById(ref.id);
  if (!event || event.ownerId !== ref.ownerId)
    throw new NotFoundError("NOT_FOUND", "The personal event does not exist.");
  return event;
}

function draftOf(input: OperatorEventInput, zone: string) {
  const draft = resolveEventDraft({ ...input, participantIds: [] }, zone);
  checkPersonalDraft({ ...draft, participantIds: input.participantEmails });
  return draft;
}

/**
 * Adds a personal event of a user. The zone: `--time-zone`, else the user's setting, else UTC.
 * @throws ValidationError (the API's event errors), PERSONAL_EVENT_NOT_SHARED; NotFoundError USER_NOT_FOUND
 */
export async function createPersonalEventAsOperator(
  ctx: ServiceContext,
  input: OperatorEventInput & { ownerEmail: string },
): Promise<PersonalEvent> {
  return ctx.store.transaction(async (tx) => {
    const owner = await requireUserByEmail(tx, input.ownerEmail);
    const zone =
      input.timeZone === undefined
        ? ((await tx.users.findPreferences(owner.id))?.timeZone ?? "UTC")
        : requireEventZone(input.timeZone);
    return insertPersonalEvent(tx, owner.id, draftOf(input, zone), ctx.clock.now());
  });
}

/**
 * Replaces a personal event's fields, as an update through the API does.
 * @throws ValidationError, PERSONAL_EVENT_NOT_SHARED; NotFoundError NOT_FOUND
 */
export async function updatePersonalEventAsOperator(
  ctx: ServiceContext,
  input: OperatorEventInput & { ref: PersonalEventRef },
): Promise<PersonalEvent> {
  return ctx.store.transaction(async (tx) => {
    const current = await requirePersonalEvent(tx, input.ref);
    const zone = input.timeZone === undefined ? current.timeZone : requireEventZone(input.timeZone);
    await tx.personalEvents.replace(current.id, fieldsOf(draftOf(input, zone), ctx.clock.now()));
    return requirePersonalEvent(tx, input.ref);
  });
}

/** Deletes a personal event. @throws NotFoundError NOT_FOUND */
export async function deletePersonalEventAsOperator(
  ctx: ServiceContext,
  input: { ref: PersonalEventRef },
): Promise<PersonalEvent> {
  return ctx.store.transaction(async (tx) => {
    const event = await requirePersonalEvent(tx, input.ref);
    await tx.personalEvents.remove(event.id);
    return event;
  });
}
