// The repetition rule of an event: a subset of RFC 5545's RRULE value (FREQ DAILY, WEEKLY,
// MONTHLY or YEARLY; INTERVAL, BYDAY, BYMONTHDAY, COUNT or UNTIL). Anything else is refused, so
// every rule Kairan keeps is one the expansion and the calendar feeds understand. The text is kept
// as sent (without an `RRULE:` prefix, parts in the order sent).
import { ValidationError } from "./errors.js";
import { LIMITS } from "./limits.js";

/** The frequencies a rule may have. */
export type Frequency = "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";

/** A checked rule: its text as kept, and its parts. */
export interface EventRule {
  /** The RRULE value as sent, without the `RRULE:` prefix, parts in the order sent. */
  readonly text: string;
  readonly frequency: Frequency;
  readonly interval: number;
  /** BYDAY values such as `MO`, `1MO`, `-1FR`; empty when absent. */
  readonly byDay: readonly string[];
  readonly byMonthDay: readonly number[];
  readonly count: number | undefined;
  /** UNTIL as epoch ms: a UTC date-time, or a date (the whole day included, in the event's zone). */
  readonly until: { readonly at: number; readonly dateOnly: boolean } | undefined;
}

const FREQUENCIES: ReadonlySet<string> = new Set<Frequency>(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]);
const POSITIVE = /^[1-9][0-9]{0,5}$/;
const BY_DAY = /^([+-]?(?:[1-9]|[1-4][0-9]|5[0-3]))?(MO|TU|WE|TH|FR|SA|SU)$/;
const MONTH_DAY = /^[+-]?([1-9]|[12][0-9]|3[01])$/;
const UNTIL_DATE_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const UNTIL_DATE = /^(\d{4})(\d{2})(\d{2})$/;

function ruleInvalid(detail: string): ValidationError {
  return new ValidationError("EVENT_RULE_INVALID", `cblSch:rule: ${detail}`);
}

/**
 * Checks a rule's text; an `RRULE:` prefix is taken off.
 * @throws ValidationError EVENT_RULE_INVALID naming the part
 */
export function parseEventRule(input: string): EventRule {
  let text = input.trim();
  if (text.toUpperCase().startsWith("RRULE:")) text = text.slice("RRULE:".length);
  if (text.length > LIMITS.eventRuleMaxChars) throw ruleInvalid(`longer than ${LIMITS.eventRuleMaxChars} characters.`);
  const parts = new Map<string, string>();
  for (const part of text.split(";")) {
    const [name, value, ...rest] = part.split("=");
    if (name === undefined || value === undefined || value === "" || rest.length > 0)
      throw ruleInvalid(`"${part.slice(0, 40)}" is not NAME=VALUE.`);
    const key = name.toUpperCase();
    if (parts.has(key)) throw ruleInvalid(`${key} is given twice.`);
    parts.set(key, value.toUpperCase());
  }
  for (const key of parts.keys()) {
    if (!["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "COUNT", "UNTIL"].includes(key))
      throw ruleInvalid(`${key.slice(0, 40)} is not supported (FREQ, INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL).`);
  }
  return { text, ...checkParts(parts) };
}

function checkParts(parts: ReadonlyMap<string, string>): Omit<EventRule, "text"> {
  const frequency = parts.get("FREQ");
  if (frequency === undefined || !FREQUENCIES.has(frequency))
    throw ruleInvalid("FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY.");
  const interval = positive(parts.get("INTERVAL"), "INTERVAL") ?? 1;
  const count = positive(parts.get("COUNT"), "COUNT");
  const untilText = parts.get("UNTIL");
  if (count !== undefined && untilText !== undefined) throw ruleInvalid("COUNT and UNTIL exclude each other.");
  const byDay = list(parts.get("BYDAY"), (value) => BY_DAY.test(value), "BYDAY");
  // An ordinal day (1MO) only means something within a month or a year.
  if (byDay.some((day) => /\d/.test(day)) && (frequency === "DAILY" || frequency === "WEEKLY"))
    throw ruleInvalid("BYDAY with a number needs FREQ=MONTHLY or YEARLY.");
  const byMonthDay = list(parts.get("BYMONTHDAY"), (value) => MONTH_DAY.test(value), "BYMONTHDAY").map(Number);
  if (byMonthDay.length > 0 && frequency === "WEEKLY") throw ruleInvalid("BYMONTHDAY cannot go with FREQ=WEEKLY.");
  return {
    frequency: frequency as Frequency,
    interval,
    byDay,
    byMonthDay,
    count,
    until: untilText === undefined ? undefined : parseUntil(untilText),
  };
}

function positive(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!POSITIVE.test(value)) throw ruleInvalid(`${name} must be a whole number from 1 to 999999.`);
  return Number(value);
}

function list(value: string | undefined, valid: (item: string) => boolean, name: string): string[] {
  if (value === undefined) return [];
  const items = value.split(",");
  if (!items.every(valid)) throw ruleInvalid(`${name} holds a value it does not allow.`);
  return items;
}

function parseUntil(text: string): { at: number; dateOnly: boolean } {
  const dateTime = UNTIL_DATE_TIME.exec(text);
  const date = dateTime ?? UNTIL_DATE.exec(text);
  if (date === null) throw ruleInvalid("UNTIL must be a date (20261231) or a UTC date-time (20261231T000000Z).");
  const [year, month, day, hour, minute, second] = [...date.slice(1), "0", "0", "0"].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(at);
  if (back.getUTCDate() !== day || back.getUTCHours() !== hour || back.getUTCMinutes() !== minute)
    throw ruleInvalid("UNTIL is not a real date.");
  return { at, dateOnly: dateTime === null };
}
