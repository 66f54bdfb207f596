// What the web's personal event pages read and write beyond the API's own functions: one of the
// caller's personal events, and one occurrence of a repeating one moved or cancelled alone. That
// write goes through `updatePersonalEvent` with the event's exceptions, as an API client sends them.
import type { Actor } from "../../domain/access.js";
import { ValidationError } from "../../domain/errors.js";
import type { EventException, PersonalEvent } from "../../domain/event.js";
import type { EventInput, WhenInput } from "../../domain/event-draft.js";
import { localDayOf } from "../../domain/event-time.js";
import type { PersonalEventRef } from "../../domain/item-id.js";
import { isRuleOccurrence } from "../../domain/recurrence.js";
import type { ServiceContext } from "../context.js";
import type { EventEntry } from "../event/event.js";
import type { OccurrenceChange } from "../event/event-occurrence.js";
import { requireOwnPersonalEvent, updatePersonalEvent } from "./personal-event.js";

/** One of the caller's personal events. @throws NotFoundError NOT_FOUND (another user's too) */
export async function readPersonalEvent(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: PersonalEventRef },
): Promise<PersonalEvent> {
  return ctx.store.read((tx) => requireOwnPersonalEvent(tx, actor.user.id, input.ref));
}

function utcText(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Times as the API's `cbl:when` gives them: UTC date-times, or for an all-day event its dates (end exclusive). */
function whenOf(event: Pick<PersonalEvent, "allDay" | "timeZone">, times: { start: number; end: number }): WhenInput {
  if (!event.allDay) return { startTime: utcText(times.start), endTime: utcText(times.end) };
  const date = (ms: number) => new Date(localDayOf(ms, event.timeZone)).toISOString().slice(0, 10);
  return { startTime: date(times.start), endTime: date(times.end) };
}

/** The event's fields as an API update sends them, with the given exceptions. */
function inputOf(event: PersonalEvent, exceptions: readonly EventException[]): EventInput {
  return {
    title: event.title,
    memo: event.memo,
    when: whenOf(event, event),
    allDay: event.allDay,
    timeZone: event.timeZone,
    rule: event.rule ?? undefined,
    menuId: null,
    participantIds: [],
    facilityIds: [],
    exceptions: exceptions.map((exception) => ({
      startTime: utcText(exception.originalStart),
      cancelled: exception.cancelled,
    })),
    occurrences: exceptions.flatMap((exception) => (exception.cancelled ? [] : [whenOf(event, exception)])),
  };
}

/**
 * Moves or cancels the occurrence of one of the caller's repeating personal events that the rule
 * starts at `originalStart` (an earlier exception of it is replaced).
 * @throws ValidationError EVENT_RULE_INVALID (not a repeating event or not one of its occurrences),
 *   EVENT_TIME_INVALID; NotFoundError NOT_FOUND
 */
export async function changePersonalOccurrence(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: PersonalEventRef; originalStart: number; change: OccurrenceChange },
): Promise<EventEntry<PersonalEvent>> {
  const current = await readPersonalEvent(ctx, actor, { ref: input.ref });
  const rule = current.rule;
  if (rule === null || !isRuleOccurrence({ ...current, rule }, input.originalStart))
    throw new ValidationError("EVENT_RULE_INVALID", "This is not an occurrence of a repeating event.");
  const exception: EventException =
    input.change.kind === "cancel"
      ? { originalStart: input.originalStart, cancelled: true }
      : { originalStart: input.originalStart, cancelled: false, start: input.change.start, end: input.change.end };
  // An occurrence moved back to where its rule puts it needs no exception (the API would not pair one).
  const unmoved =
    !exception.cancelled &&
    exception.start === exception.originalStart &&
    exception.end - exception.start === current.end - current.start;
  const exceptions = [
    ...current.exceptions.filter((kept) => kept.originalStart !== input.originalStart),
    ...(unmoved ? [] : [exception]),
  ].sort((a, b) => a.originalStart - b.originalStart);
  return updatePersonalEvent(ctx, actor, {
    ...inputOf(current, exceptions),
    ref: input.ref,
    defaultTimeZone: current.timeZone,
  });
}
