// Participants' answers to a group event (docs/api.md "Events"): attending, maybe or declined, given
// by a participant the event names. An event that names no one is everyone's and asks no answers.
import { ForbiddenError, ValidationError } from "./errors.js";
import type { CalendarEvent } from "./event.js";

export const EVENT_ANSWERS = ["attending", "maybe", "declined"] as const;

/** What a participant answered. */
export type EventAnswer = (typeof EVENT_ANSWERS)[number];

/** A stored answer, or null for none. */
export function toEventAnswer(text: string | null): EventAnswer | null {
  return EVENT_ANSWERS.find((answer) => answer === text) ?? null;
}

/** @throws ValidationError EVENT_ANSWER_INVALID */
export function parseEventAnswer(text: unknown): EventAnswer {
  const answer = typeof text === "string" ? toEventAnswer(text.trim()) : null;
  if (answer === null)
    throw new ValidationError("EVENT_ANSWER_INVALID", "answer must be attending, maybe or declined.");
  return answer;
}

/** @throws ForbiddenError NOT_A_PARTICIPANT */
export function requireParticipant(event: Pick<CalendarEvent, "participants">, userId: number): void {
  if (!event.participants.some((person) => person.id === userId))
    throw new ForbiddenError("NOT_A_PARTICIPANT", "Only a participant the event names answers it.");
}

/**
 * An answer sent over the API is the caller's own: a `cbl:who id` naming someone else is refused.
 * @throws ForbiddenError EVENT_ANSWER_NOT_YOURS
 */
export function requireOwnAnswer(forUserId: number | undefined, userId: number): void {
  if (forUserId !== undefined && forUserId !== userId)
    throw new ForbiddenError("EVENT_ANSWER_NOT_YOURS", "A participant answers for themselves only.");
}
