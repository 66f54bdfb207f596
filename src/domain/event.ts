// Events (docs/api.md "Events", "Personal schedule"): what an event is, the checks of a draft, and who may edit.
import { ForbiddenError, ValidationError } from "./errors.js";
import type { Window } from "./event-time.js";
import type { Membership } from "./group.js";
import type { ContentRef } from "./item-id.js";
import { LIMITS } from "./limits.js";
import { checkMaxChars } from "./text.js";

/** A person or facility named on an event. */
export interface NamedRef {
  readonly id: number;
  readonly name: string;
}

/** A participant of a group event and their answer (`attending`, `maybe`, `declined`), if any. */
export interface Participant extends NamedRef {
  readonly answer?: "attending" | "maybe" | "declined" | null;
}

/**
 * One occurrence of a repeating event that differs from its rule: cancelled, or moved to `start`..`end`.
 * `originalStart` is the UTC start the rule gives it.
 */
export type EventException =
  | { readonly originalStart: number; readonly cancelled: true }
  | { readonly originalStart: number; readonly cancelled: false; readonly start: number; readonly end: number };

/**
 * What every event has, a group's or a personal one. Times are UTC epoch ms; an all-day event runs
 * from 00:00 to 00:00 in `timeZone`.
 */
export interface EventBase {
  readonly id: number;
  readonly creatorId: number;
  readonly creatorName: string;
  readonly title: string;
  readonly memo: string;
  readonly start: number;
  readonly end: number;
  readonly allDay: boolean;
  /** IANA name: the wall clock that all-day bounds and repetitions keep. */
  readonly timeZone: string;
  /** The RRULE value as sent, or null for a one-off event. */
  readonly rule: string | null;
  readonly exceptions: readonly EventException[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A group event. */
export interface CalendarEvent extends EventBase {
  readonly groupId: number;
  readonly menuId: number | null;
  readonly menuName: string | null;
  /** The participants, each with their answer once they gave one (migration 0051). */
  readonly participants: readonly Participant[];
  readonly facilities: readonly NamedRef[];
}

/** An event's id as a content reference. */
export function eventRef(event: Pick<CalendarEvent, "groupId" | "id">): ContentRef {
  return { kind: "GW_SCHEDULE", groupId: event.groupId, id: event.id };
}

/** A personal event: private to its owner, who is its creator; no group, participants, facilities or menu. */
export interface PersonalEvent extends EventBase {
  readonly ownerId: number;
}

/** An event's fields as a write gives them, checked and resolved. */
export interface EventDraft {
  readonly title: string;
  readonly memo: string;
  readonly start: number;
  readonly end: number;
  readonly allDay: boolean;
  readonly timeZone: string;
  readonly rule: string | null;
  readonly menuId: number | null;
  readonly participantIds: readonly number[];
  readonly facilityIds: readonly number[];
  readonly exceptions: readonly EventException[];
}

/**
 * Checks an event's title and memo.
 * @throws ValidationError EVENT_TITLE_MISSING, EVENT_TITLE_TOO_LONG, EVENT_MEMO_TOO_LONG
 */
export function checkEventText(input: { title: string | undefined; memo: string | undefined }): {
  title: string;
  memo: string;
} {
  const title = input.title ?? "";
  const memo = input.memo ?? "";
  if (title.trim() === "") throw new ValidationError("EVENT_TITLE_MISSING", "The event title is missing or empty.");
  checkMaxChars(title, LIMITS.eventTitleMaxChars, "EVENT_TITLE_TOO_LONG", "The event title");
  checkMaxChars(memo, LIMITS.eventMemoMaxChars, "EVENT_MEMO_TOO_LONG", "The event memo");
  return { title, memo };
}

/**
 * Checks the lists an event names: participants and facilities (each once, within their limits)
 * and exceptions (only on a repeating event, each original start once).
 * @throws ValidationError EVENT_TOO_MANY_PARTICIPANTS, EVENT_TOO_MANY_FACILITIES, EVENT_RULE_INVALID
 */
export function checkEventLists(
  draft: Pick<EventDraft, "participantIds" | "facilityIds" | "exceptions" | "rule">,
): void {
  if (new Set(draft.participantIds).size > LIMITS.eventParticipantsMax)
    throw new ValidationError(
      "EVENT_TOO_MANY_PARTICIPANTS",
      `An event may name at most ${LIMITS.eventParticipantsMax} participants.`,
    );
  if (new Set(draft.facilityIds).size > LIMITS.eventFacilitiesMax)
    throw new ValidationError(
      "EVENT_TOO_MANY_FACILITIES",
      `An event may name at most ${LIMITS.eventFacilitiesMax} facilities.`,
    );
  if (draft.exceptions.length === 0) return;
  if (draft.rule === null) throw new ValidationError("EVENT_RULE_INVALID", "Only a repeating event has exceptions.");
  if (draft.exceptions.length > LIMITS.eventExceptionsMax)
    throw new ValidationError("EVENT_RULE_INVALID", `An event keeps at most ${LIMITS.eventExceptionsMax} exceptions.`);
  const starts = new Set(draft.exceptions.map((exception) => exception.originalStart));
  if (starts.size !== draft.exceptions.length)
    throw new ValidationError("EVENT_RULE_INVALID", "Two exceptions name the same occurrence.");
}

/** Checks a moved occurrence's times like an event's. @throws ValidationError EVENT_TIME_INVALID */
export function checkMovedTimes(times: Window): void {
  if (times.end <= times.start)
    throw new ValidationError("EVENT_TIME_INVALID", "A moved occurrence must end after it starts.");
  if (times.end - times.start > LIMITS.eventMaxDays * 24 * 60 * 60 * 1000)
    throw new ValidationError("EVENT_TIME_INVALID", `An event may last at most ${LIMITS.eventMaxDays} days.`);
}

/** The creator, the group's managers and the participants may change or delete an event. */
export function mayEditEvent(event: CalendarEvent, userId: number, membership: Membership): boolean {
  return event.creatorId === userId || membership.manager || event.participants.some((person) => person.id === userId);
}

/** @throws ForbiddenError EVENT_EDIT_FORBIDDEN */
export function requireMayEditEvent(event: CalendarEvent, userId: number, membership: Membership): void {
  if (!mayEditEvent(event, userId, membership))
    throw new ForbiddenError(
      "EVENT_EDIT_FORBIDDEN",
      "Only the event's creator, its participants and the group's managers may change or delete it.",
    );
}

/**
 * A personal event's draft names no one and nothing of a group.
 * @throws ValidationError PERSONAL_EVENT_NOT_SHARED
 */
export function checkPersonalDraft(draft: {
  readonly menuId: number | null;
  /** Ids, or e-mail addresses as the command line names people. */
  readonly participantIds: readonly unknown[];
  readonly facilityIds: readonly number[];
}): void {
  if (draft.menuId !== null || draft.participantIds.length > 0 || draft.facilityIds.length > 0)
    throw new ValidationError(
      "PERSONAL_EVENT_NOT_SHARED",
      "A personal event is private: it names no group, participants (cbl:who), facilities or menu.",
    );
}

/** The event is for everyone of the group when it names no participant. */
export function isEveryonesEvent(event: Pick<CalendarEvent, "participants">): boolean {
  return event.participants.length === 0;
}

/** A menu's or facility's name, trimmed. @throws ValidationError EVENT_MENU_NAME_REQUIRED, EVENT_MENU_NAME_TOO_LONG */
export function checkNamedName(text: string): string {
  const name = text.trim();
  if (name === "") throw new ValidationError("EVENT_MENU_NAME_REQUIRED", "The name is missing or empty.");
  checkMaxChars(name, LIMITS.eventMenuNameMaxChars, "EVENT_MENU_NAME_TOO_LONG", "The name");
  return name;
}
