// The export's dates and times. None carries a zone: they are wall-clock times of the zone the
// import is told (Asia/Tokyo by default). Lenient as the original tools were: month, day and hour
// of one or two digits, optional seconds, an optional weekday in parentheses ("2018/2/28 (水) 09:44"),
// and the English interface's "Fri, Jul 13, 2018 8:36".
import { wallClockToUtc } from "../time-zone.js";

const DAY_MS = 86_400_000;
const NUMERIC = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s*\([^)\s]{1,4}\))?(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const ENGLISH =
  /^(?:[A-Za-z]{3},\s*)?([A-Za-z]{3})\s+(\d{1,2}),\s*(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?$/;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** A date, with a time of day when the text has one; `wall` is the wall-clock time as if it were UTC. */
export interface WallTime {
  readonly wall: number;
  readonly hasTime: boolean;
}

/** A date (and time) of the export, or undefined when the text is none (or names a day that does not exist). */
export function parseWallTime(text: string): WallTime | undefined {
  const trimmed = text.trim();
  const numeric = NUMERIC.exec(trimmed);
  if (numeric) return build(numeric[1], numeric[2], numeric[3], numeric[4], numeric[5], numeric[6]);
  const english = ENGLISH.exec(trimmed);
  if (!english) return undefined;
  const month = MONTHS.indexOf((english[1] ?? "").toLowerCase()) + 1;
  if (month === 0) return undefined;
  let hour = english[4];
  const meridiem = english[7]?.toLowerCase();
  if (hour !== undefined && meridiem !== undefined) {
    const h = Number(hour);
    if (h < 1 || h > 12) return undefined;
    hour = String((h % 12) + (meridiem === "pm" ? 12 : 0));
  }
  return build(english[3], String(month), english[2], hour, english[5], english[6]);
}

function build(
  year: string | undefined,
  month: string | undefined,
  day: string | undefined,
  hour: string | undefined,
  minute: string | undefined,
  second: string | undefined,
): WallTime | undefined {
  const [y, mo, d] = [Number(year), Number(month), Number(day)];
  const date = Date.UTC(y, mo - 1, d);
  // Date.UTC rolls 2/30 over into March: a real day formats back to its own numbers.
  const back = new Date(date);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  if (hour === undefined) return { wall: date, hasTime: false };
  const [h, mi, s] = [Number(hour), Number(minute), Number(second ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return { wall: date + ((h * 60 + mi) * 60 + s) * 1000, hasTime: true };
}

/** A time of day alone ("13:10:00", "9:05"), as milliseconds after midnight. */
export function parseTimeOfDay(text: string): number | undefined {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [h, mi, s] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return ((h * 60 + mi) * 60 + s) * 1000;
}

/** The UTC moment a wall-clock time of `zone` names. */
export function toUtc(wall: number, zone: string): number {
  return wallClockToUtc(wall, zone);
}

/** The day (midnight, as UTC) a wall-clock time falls on. */
export function dayOf(wall: number): number {
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

export { DAY_MS };
