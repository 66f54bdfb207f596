// One occurrence of a repeating event changed alone: moved to other times, or cancelled. The web's
// "this occurrence" writes through here; the stored event is rewritten with its exceptions as an
// API update that sends them (event-write.ts) would store it.
import type { Actor } from "../../domain/access.js";
import { ValidationError } from "../../domain/errors.js";
import { type EventException, checkEventLists, checkMovedTimes, requireMayEditEvent } from "../../domain/event.js";
import type { ContentRef } from "../../domain/item-id.js";
import { isRuleOccurrence } from "../../domain/recurrence.js";
import { type EventListView, requireEvent, wholeEntry } from "./event.js";
import { replaceEventFields } from "./event-write.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";

/** What happens to the occurrence: cancelled, or moved to new UTC times. */
export type OccurrenceChange =
  { readonly kind: "cancel" } | { readonly kind: "move"; readonly start: number; readonly end: number };

/**
 * Moves or cancels the occurrence the rule starts at `originalStart` (an earlier exception of it is
 * replaced); the event's participants are notified as of an update.
 * @throws ValidationError EVENT_RULE_INVALID (not a repeating event, not one of its occurrences, too many
 *   exceptions), EVENT_TIME_INVALID; NotFoundError NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, EVENT_EDIT_FORBIDDEN
 */
export async function changeOccurrence(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; originalStart: number; change: OccurrenceChange },
): Promise<EventListView> {
  return ctx.store.transaction(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const current = await requireEvent(tx, input.ref);
    requireMayEditEvent(current, actor.user.id, membership);
    const rule = current.rule;
    if (rule === null || !isRuleOccurrence({ ...current, rule }, input.originalStart))
      throw new ValidationError("EVENT_RULE_INVALID", "This is not an occurrence of a repeating event.");
    const exception: EventException =
      input.change.kind === "cancel"
        ? { originalStart: input.originalStart, cancelled: true }
        : { originalStart: input.originalStart, cancelled: false, start: input.change.start, end: input.change.end };
    if (!exception.cancelled) checkMovedTimes(exception);
    const exceptions = [
      ...current.exceptions.filter((kept) => kept.originalStart !== input.originalStart),
      exception,
    ].sort((a, b) => a.originalStart - b.originalStart);
    const draft = {
      ...current,
      participantIds: current.participants.map((person) => person.id),
      facilityIds: current.facilities.map((facility) => facility.id),
      exceptions,
    };
    checkEventLists(draft);
    const { title, memo, start, end, allDay, timeZone, menuId, participantIds, facilityIds } = draft;
    const fields = { title, memo, start, end, allDay, timeZone, rule, menuId, participantIds, facilityIds, exceptions };
    await replaceEventFields(tx, current, fields, { writerId: actor.user.id, at: ctx.clock.now() });
    const event = await requireEvent(tx, input.ref);
    return { group, entries: [wholeEntry(event)], total: 1, comments: undefined };
  });
}
