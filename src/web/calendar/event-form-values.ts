// The event form's fields: read from a POST, turned into the API's event input (times as UTC
// date-times computed in the form's zone, all-day days as dates, the repeat fields as an RRULE),
// and filled from a stored event for editing. Dates and times are the event's own zone's.
import { ValidationError } from "../../domain/errors.js";
import type { CalendarEvent, EventBase } from "../../domain/event.js";
import type { EventInput, WhenInput } from "../../domain/event-draft.js";
import { parseEventRule } from "../../domain/event-rule.js";
import { localDayOf, parsePlainDate, requireEventZone } from "../../domain/event-time.js";
import { formatPair, parsePair } from "../../domain/item-id.js";
import { utcToWallClock, wallClockToUtc } from "../../domain/time-zone.js";
import { clip } from "../../http-kit/query.js";
import { isoMoment } from "../i18n/dates.js";
import { DAY_MS, dayText } from "./calendar-query.js";

/** The repeat choices of the form ("" is none). */
export const REPEATS = ["", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"] as const;
/** BYDAY codes in the order of a Sunday-first week. */
export const WEEKDAY_CODES = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;
const TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
const WHOLE = /^[1-9][0-9]{0,3}$/;

/** The fields as typed. */
export interface EventFormValues {
  readonly title: string;
  readonly memo: string;
  readonly startDate: string;
  readonly startTime: string;
  readonly endDate: string;
  readonly endTime: string;
  readonly allDay: boolean;
  readonly zone: string;
  /** "" (none), a frequency, or "CUSTOM": a rule the form cannot show (kept as `rule`). */
  readonly repeat: string;
  /** The rule kept as it is when `repeat` is "CUSTOM" (written through the API: BYMONTHDAY, 2TU...). */
  readonly rule: string;
  readonly interval: string;
  readonly byDay: readonly string[];
  /** "never", "until" or "count". */
  readonly ends: string;
  readonly until: string;
  readonly count: string;
  readonly participants: readonly string[];
  readonly menu: string;
  readonly facilities: readonly string[];
}

/** A new event's fields on `day` (09:00-10:00 in `zone`). */
export function emptyValues(day: string, zone: string): EventFormValues {
  return {
    title: "",
    memo: "",
    startDate: day,
    startTime: "09:00",
    endDate: day,
    endTime: "10:00",
    allDay: false,
    zone,
    repeat: "",
    rule: "",
    interval: "1",
    byDay: [],
    ends: "never",
    until: "",
    count: "",
    participants: [],
    menu: "",
    facilities: [],
  };
}

/** The fields of a POST. */
export function readValues(form: URLSearchParams, zone: string): EventFormValues {
  const field = (name: string) => form.get(name) ?? "";
  return {
    title: field("title"),
    memo: field("memo"),
    startDate: field("startDate").trim(),
    startTime: field("startTime").trim(),
    endDate: field("endDate").trim(),
    endTime: field("endTime").trim(),
    allDay: form.get("allDay") === "on",
    zone: field("zone").trim() || zone,
    repeat: field("repeat"),
    rule: field("rule"),
    interval: field("interval").trim() || "1",
    byDay: form.getAll("byDay"),
    ends: field("ends") || "never",
    until: field("until").trim(),
    count: field("count").trim(),
    participants: form.getAll("participants"),
    menu: field("menu"),
    facilities: form.getAll("facilities"),
  };
}

function timeInvalid(message: string): ValidationError {
  return new ValidationError("EVENT_TIME_INVALID", message);
}

function day(text: string, name: string): number {
  const at = parsePlainDate(text);
  if (at === undefined) throw timeInvalid(`${name} must be a date such as 2026-12-08.`);
  return at;
}

function moment(date: string, time: string, zone: string, name: string): string {
  const match = TIME.exec(time);
  if (match === null) throw timeInvalid(`${name} must be a time such as 09:30.`);
  const wall = day(date, name) + (Number(match[1]) * 60 + Number(match[2])) * 60_000;
  return isoMoment(wallClockToUtc(wall, zone));
}

/** The event's times as the API's `cbl:when` carries them. @throws ValidationError EVENT_TIME_INVALID, EVENT_TIME_ZONE_INVALID */
export function whenOf(values: EventFormValues): { when: WhenInput; zone: string } {
  const zone = requireEventZone(values.zone);
  const endDate = values.endDate === "" ? values.startDate : values.endDate;
  if (values.allDay) {
    const first = day(values.startDate, "The start date");
    const last = day(endDate, "The end date");
    if (last < first) throw timeInvalid("The end date must not be before the start date.");
    // The form names the last day; the API's end date is the day after it.
    return { when: { startTime: dayText(first), endTime: dayText(last + DAY_MS) }, zone };
  }
  return {
    when: {
      startTime: moment(values.startDate, values.startTime, zone, "The start"),
      endTime: moment(endDate, values.endTime, zone, "The end"),
    },
    zone,
  };
}

function ruleInvalid(message: string): ValidationError {
  return new ValidationError("EVENT_RULE_INVALID", message);
}

/** The RRULE of the repeat fields; undefined for none. @throws ValidationError EVENT_RULE_INVALID */
export function ruleOf(values: EventFormValues): string | undefined {
  if (values.repeat === "") return undefined;
  // Checked with every other rule when the draft is resolved.
  if (values.repeat === "CUSTOM") return values.rule;
  if (!REPEATS.includes(values.repeat as (typeof REPEATS)[number])) throw ruleInvalid("Choose how the event repeats.");
  if (!WHOLE.test(values.interval)) throw ruleInvalid("The interval must be a whole number from 1 to 9999.");
  const parts = [`FREQ=${values.repeat}`];
  if (values.interval !== "1") parts.push(`INTERVAL=${values.interval}`);
  if (values.repeat === "WEEKLY" && values.byDay.length > 0) {
    if (!values.byDay.every((code) => WEEKDAY_CODES.includes(code as (typeof WEEKDAY_CODES)[number])))
      throw ruleInvalid("Choose weekdays from the list.");
    parts.push(`BYDAY=${WEEKDAY_CODES.filter((code) => values.byDay.includes(code)).join(",")}`);
  }
  if (values.ends === "until") parts.push(`UNTIL=${dayText(day(values.until, "The last day")).replace(/-/g, "")}`);
  else if (values.ends === "count") {
    if (!WHOLE.test(values.count)) throw ruleInvalid("The number of times must be a whole number from 1 to 9999.");
    parts.push(`COUNT=${values.count}`);
  } else if (values.ends !== "never") throw ruleInvalid("Choose when the repetition ends.");
  return parts.join(";");
}

function ids(texts: readonly string[], what: string): number[] {
  return texts.map((text) => {
    const id = parsePair(text);
    if (id === undefined)
      throw new ValidationError("INVALID_ID", `${what} must be chosen from the list (got "${clip(text)}").`);
    return id;
  });
}

/** The API's event input of the form. @throws ValidationError (times, zone, rule, ids) */
export function inputOf(values: EventFormValues): EventInput {
  const { when, zone } = whenOf(values);
  const menuId = values.menu === "" ? null : (ids([values.menu], "The menu")[0] ?? null);
  return {
    title: values.title,
    memo: values.memo,
    when,
    allDay: values.allDay,
    timeZone: zone,
    rule: ruleOf(values),
    menuId,
    participantIds: ids(values.participants, "Participants"),
    facilityIds: ids(values.facilities, "Facilities"),
    exceptions: [],
    occurrences: [],
  };
}

/** The fields of a stored event, at one of its occurrences when given (dates and times on the event's clock). */
export function valuesOf(
  event: EventBase & Partial<Pick<CalendarEvent, "participants" | "menuId" | "facilities">>,
  times: { start: number; end: number } = event,
): EventFormValues {
  const zone = event.timeZone;
  const wallStart = utcToWallClock(times.start, zone);
  const wallEnd = utcToWallClock(times.end, zone);
  const hhmm = (wall: number) => new Date(wall).toISOString().slice(11, 16);
  const rule = event.rule === null ? undefined : parseEventRule(event.rule);
  // BYMONTHDAY, ordinal weekdays or weekdays of a non-weekly rule have no field: kept whole.
  const custom =
    rule !== undefined &&
    (rule.byMonthDay.length > 0 ||
      rule.byDay.some((day) => !WEEKDAY_CODES.includes(day as (typeof WEEKDAY_CODES)[number])) ||
      (rule.byDay.length > 0 && rule.frequency !== "WEEKLY"));
  return {
    title: event.title,
    memo: event.memo,
    startDate: dayText(localDayOf(times.start, zone)),
    startTime: event.allDay ? "09:00" : hhmm(wallStart),
    endDate: dayText(
      event.allDay ? localDayOf(times.end - 1, zone) : wallEnd - (((wallEnd % DAY_MS) + DAY_MS) % DAY_MS),
    ),
    endTime: event.allDay ? "10:00" : hhmm(wallEnd),
    allDay: event.allDay,
    zone,
    repeat: custom ? "CUSTOM" : (rule?.frequency ?? ""),
    rule: custom ? rule.text : "",
    interval: String(rule?.interval ?? 1),
    byDay: rule?.byDay ?? [],
    ends: rule?.until !== undefined ? "until" : rule?.count !== undefined ? "count" : "never",
    until: rule?.until === undefined ? "" : dayText(rule.until.at - (rule.until.at % DAY_MS)),
    count: rule?.count === undefined ? "" : String(rule.count),
    participants: (event.participants ?? []).map((person) => formatPair(person.id)),
    menu: event.menuId === undefined || event.menuId === null ? "" : formatPair(event.menuId),
    facilities: (event.facilities ?? []).map((facility) => formatPair(facility.id)),
  };
}
