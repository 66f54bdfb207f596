// An event write as the request carries it, resolved into a checked draft: text, times in the
// event's zone, the rule, and the exceptions paired with the new times of moved occurrences.
import { ValidationError } from "./errors.js";
import { type EventDraft, type EventException, checkEventLists, checkEventText, checkMovedTimes } from "./event.js";
import { parseEventRule } from "./event-rule.js";
import { parseUtcDateTime, resolveEventTimes } from "./event-time.js";
import { isRuleOccurrence } from "./recurrence.js";

/** `cbl:when` as sent: either attribute may be missing. */
export interface WhenInput {
  readonly startTime: string | undefined;
  readonly endTime: string | undefined;
}

/** The fields of an event write, as read from the entry. */
export interface EventInput {
  readonly title: string | undefined;
  readonly memo: string | undefined;
  readonly when: WhenInput;
  readonly allDay: boolean;
  /** `cblSch:timeZone`; absent: the event's zone, else the creator's, else the server's. */
  readonly timeZone: string | undefined;
  readonly rule: string | undefined;
  readonly menuId: number | null;
  readonly participantIds: readonly number[];
  readonly facilityIds: readonly number[];
  /** `cblSch:exception` elements: the original start, and whether the occurrence is cancelled. */
  readonly exceptions: readonly { readonly startTime: string | undefined; readonly cancelled: boolean }[];
  /** The `cbl:when` elements inside `cblSch:recurrence`: the new times of the moved occurrences. */
  readonly occurrences: readonly WhenInput[];
}

function ruleInvalid(message: string): ValidationError {
  return new ValidationError("EVENT_RULE_INVALID", message);
}

/**
 * Checks an event write in the given (already checked) time zone.
 * @throws ValidationError EVENT_TITLE_MISSING, EVENT_TITLE_TOO_LONG, EVENT_MEMO_TOO_LONG, EVENT_TIME_INVALID,
 *   EVENT_RULE_INVALID, EVENT_TOO_MANY_PARTICIPANTS, EVENT_TOO_MANY_FACILITIES
 */
export function resolveEventDraft(input: EventInput, timeZone: string): EventDraft {
  const { title, memo } = checkEventText(input);
  const times = resolveEventTimes(input.when, input.allDay, timeZone);
  const rule = input.rule === undefined || input.rule.trim() === "" ? null : parseEventRule(input.rule).text;
  const timing = { ...times, allDay: input.allDay, timeZone };
  const exceptions = rule === null ? noExceptions(input) : resolveExceptions(input, { ...timing, rule });
  const draft: EventDraft = {
    title,
    memo,
    ...timing,
    rule,
    menuId: input.menuId,
    participantIds: [...new Set(input.participantIds)],
    facilityIds: [...new Set(input.facilityIds)],
    exceptions,
  };
  checkEventLists(draft);
  return draft;
}

function noExceptions(input: EventInput): EventException[] {
  if (input.exceptions.length > 0 || input.occurrences.length > 0)
    throw ruleInvalid("Only a repeating event (cblSch:rule) has exceptions and occurrences.");
  return [];
}

/**
 * Pairs the exceptions with the moved occurrences' times: the `cbl:when` elements that are not
 * occurrences of the rule itself (a feed entry sent back lists those too), in order, go to the
 * exceptions that are not cancelled, in order. Each exception names an occurrence of the rule.
 */
function resolveExceptions(
  input: EventInput,
  event: { start: number; end: number; allDay: boolean; timeZone: string; rule: string },
): EventException[] {
  const moved = input.occurrences
    .map((when) => resolveEventTimes(when, event.allDay, event.timeZone))
    .filter((times) => !isRuleOccurrence(event, times.start) || times.end - times.start !== event.end - event.start);
  const kept = input.exceptions.filter((exception) => !exception.cancelled).length;
  if (moved.length !== kept)
    throw ruleInvalid(
      `${kept} moved occurrences are named by cblSch:exception, but ${moved.length} new times are given.`,
    );
  let next = 0;
  return input.exceptions.map((exception): EventException => {
    const originalStart = parseUtcDateTime(exception.startTime ?? "");
    if (originalStart === undefined || !isRuleOccurrence(event, originalStart))
      throw ruleInvalid("cblSch:exception startTime must be the UTC start of an occurrence of the rule.");
    if (exception.cancelled) return { originalStart, cancelled: true };
    const times = moved[next++] as { start: number; end: number };
    checkMovedTimes(times);
    return { originalStart, cancelled: false, ...times };
  });
}
