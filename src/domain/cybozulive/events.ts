// The events file: no ID, no timestamps; an empty start time is an all-day event. Times are
// wall-clock times, turned into moments by the caller with the import's zone.
import { type CellComment, parseCommentCell } from "./comment-cell.js";
import { DAY_MS, parseTimeOfDay, parseWallTime } from "./dates.js";
import type { Column, Row } from "./header.js";

/** An event row. Days are midnights (as UTC) of wall-clock dates; times are wall-clock moments. */
export interface EventRecord {
  /** start, title and creator (csv-import.md §10): events have no ID to key a second import on. */
  readonly key: string;
  readonly allDay: boolean;
  /** All day: the first day's midnight; timed: the start's wall-clock time. */
  readonly start: number;
  /** All day: the midnight after the last day; timed: the end's wall-clock time. */
  readonly end: number;
  readonly menu: string;
  readonly title: string;
  readonly memo: string;
  readonly author: string;
  readonly comments: readonly CellComment[];
  readonly file: string;
  readonly line: number;
}

/** How long a timed event without an end time (or ending as it starts) lasts: Kairan's events take time. */
export const DEFAULT_EVENT_MS = 60 * 60 * 1000;

/** An event row. @throws ImportFileError */
export function readEvent(row: Row): EventRecord {
  const startDay = dayOf(row, "startDate", row.required("startDate"));
  const endText = row.required("endDate");
  const endDay = endText === "" ? startDay : dayOf(row, "endDate", endText);
  if (endDay < startDay) throw row.error("endDate", "the event ends on a day before its start");
  const startTime = timeOf(row, "startTime");
  const endTime = timeOf(row, "endTime");
  const title = row.required("title");
  const author = row.required("author");
  const cell = row.field("comments");
  // Trailing space goes: a memo of one space was how the original showed an empty one (aipocom).
  const memo = (row.field("memo")?.value ?? "").replace(/\s+$/, "");
  const base = {
    menu: row.text("menu"),
    title,
    memo,
    author,
    comments: cell === undefined ? [] : parseCommentCell(cell.value, { file: row.file, ...cell }),
    file: row.file,
    line: row.line,
  };
  if (startTime === undefined) {
    const times = { allDay: true, start: startDay, end: endDay + DAY_MS };
    return { ...base, ...times, key: keyOf(times.start, true, title, author) };
  }
  const start = startDay + startTime;
  let end = endTime === undefined ? start : endDay + endTime;
  if (end < start) throw row.error("endTime", "the event ends before it starts");
  if (end === start) end = start + DEFAULT_EVENT_MS;
  return { ...base, allDay: false, start, end, key: keyOf(start, false, title, author) };
}

function keyOf(start: number, allDay: boolean, title: string, author: string): string {
  const when = new Date(start).toISOString().slice(0, allDay ? 10 : 16);
  return `${when}\u0000${title}\u0000${author}`;
}

function dayOf(row: Row, column: Column, text: string): number {
  const when = parseWallTime(text);
  if (when === undefined || when.hasTime)
    throw row.error(column, `"${text.slice(0, 40)}" is not a date such as 2018/3/1`);
  return when.wall;
}

function timeOf(row: Row, column: Column): number | undefined {
  const text = row.text(column);
  if (text === "") return undefined;
  const time = parseTimeOfDay(text);
  if (time === undefined) throw row.error(column, `"${text.slice(0, 40)}" is not a time such as 13:10:00`);
  return time;
}
