import { ConflictError, ForbiddenError, ValidationError } from "./errors.js";
import type { Membership } from "./group.js";
import { LIMITS } from "./limits.js";
import { checkMaxChars } from "./text.js";

/** Priority codes as the original service's data shows them, highest first (docs/api.md "Tasks"). */
export const TASK_PRIORITIES = ["S", "A", "B", "C"] as const;

/** One of {@link TASK_PRIORITIES}. */
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/** Task states (docs/api.md "Tasks"). */
export const TASK_STATUSES = ["NOT_STARTED", "IN_PROGRESS", "ON_HOLD", "COMPLETED"] as const;

/** One of {@link TASK_STATUSES}. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Languages labels are carried in (`--locale`). */
export type Locale = "ja" | "en";

const STATUS_LABELS: Readonly<Record<Locale, Readonly<Record<TaskStatus, string>>>> = {
  ja: { NOT_STARTED: "未着手", IN_PROGRESS: "対応中", ON_HOLD: "保留", COMPLETED: "完了" },
  en: { NOT_STARTED: "Not started", IN_PROGRESS: "In progress", ON_HOLD: "On hold", COMPLETED: "Completed" },
};

/** A task of a group's task list. All-day due dates are kept as midnight UTC of that day. */
export interface Task {
  readonly id: number;
  readonly groupId: number;
  /** The task's number within its group (`cbl:task sequence`). */
  readonly sequence: number;
  readonly title: string;
  readonly body: string;
  readonly authorId: number;
  readonly authorName: string;
  readonly assigneeId: number | null;
  readonly assigneeName: string | null;
  readonly dueAt: number | null;
  readonly allDay: boolean;
  readonly priority: TaskPriority;
  readonly status: TaskStatus;
  readonly folderId: number | null;
  readonly folderName: string | null;
  readonly trashed: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Which tasks of a group a list shows, beyond the folder filter. */
export interface TaskFilter {
  /** Due dates within this closed interval; undefined = every task, with or without due date. */
  readonly term: Term | undefined;
  readonly notCompletedOnly: boolean;
  /** Only tasks in this state (the web interface's state filter; the API has only NOT_COMPLETED). */
  readonly status?: TaskStatus;
}

/** A closed interval of epoch milliseconds. */
export interface Term {
  readonly start: number;
  readonly end: number;
}

/** `cbl:task valueString`: the state's label in the server's language. */
export function taskStatusLabel(status: TaskStatus, locale: Locale): string {
  return STATUS_LABELS[locale][status];
}

/** True when `text` is a priority code. */
export function isTaskPriority(text: string): text is TaskPriority {
  return (TASK_PRIORITIES as readonly string[]).includes(text);
}

/** True when `text` is a task state. */
export function isTaskStatus(text: string): text is TaskStatus {
  return (TASK_STATUSES as readonly string[]).includes(text);
}

const TERM_MIN = Date.parse("1900-01-01T00:00:00Z");
// 2100-12-31 is allowed as a whole day.
const TERM_MAX = Date.parse("2100-12-31T23:59:59Z");
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The term of a task list (docs/api.md "Tasks"): neither bound given = no term;
 * a missing start is the time of the request, a missing end one month after the start.
 * Rules apply to the values the client gave; a defaulted end is kept within the range.
 * @throws ValidationError TERM_START_OUT_OF_RANGE, TERM_END_OUT_OF_RANGE, TERM_END_NOT_AFTER_START, TERM_TOO_LONG
 */
export function resolveTerm(start: number | undefined, end: number | undefined, now: number): Term | undefined {
  if (start === undefined && end === undefined) return undefined;
  if (start !== undefined) requireInRange(start, "term-start", "TERM_START_OUT_OF_RANGE");
  if (end !== undefined) requireInRange(end, "term-end", "TERM_END_OUT_OF_RANGE");
  const from = start ?? now;
  if (end === undefined) return { start: from, end: Math.min(oneMonthAfter(from), TERM_MAX) };
  if (end <= from) {
    const which = start === undefined ? "term-start (default: the time of the request)" : "term-start";
    throw new ValidationError("TERM_END_NOT_AFTER_START", `term-end must be later than ${which}.`);
  }
  if (end - from > LIMITS.termMaxDays * DAY_MS) {
    throw new ValidationError("TERM_TOO_LONG", `term-end must be at most ${LIMITS.termMaxDays} days after term-start.`);
  }
  return { start: from, end };
}

function requireInRange(value: number, parameter: string, code: string): void {
  if (value < TERM_MIN || value > TERM_MAX) {
    throw new ValidationError(code, `${parameter} must lie between 1900-01-01 and 2100-12-31.`);
  }
}

/** The same day and time one calendar month later; the 31st becomes the last day of a shorter month. */
export function oneMonthAfter(epochMs: number): number {
  const date = new Date(epochMs);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/**
 * Whether a task's due date falls in a term. An all-day task counts for its whole day, so a
 * task due today is in a term that starts now. A task without due date is in no term.
 */
export function isDueWithin(task: Pick<Task, "dueAt" | "allDay">, term: Term): boolean {
  if (task.dueAt === null) return false;
  const lastMoment = task.allDay ? task.dueAt + DAY_MS - 1 : task.dueAt;
  return lastMoment >= term.start && task.dueAt <= term.end;
}

/** Length of an all-day due date, for store queries that apply {@link isDueWithin}. */
export const ALL_DAY_MS = DAY_MS;

/**
 * Checks a task's title and body (same limits as topics).
 * @throws ValidationError TASK_TITLE_REQUIRED, TASK_TITLE_TOO_LONG, TASK_BODY_TOO_LONG
 */
export function checkTaskText(draft: { title: string; body: string }): { title: string; body: string } {
  if (draft.title.trim() === "")
    throw new ValidationError("TASK_TITLE_REQUIRED", "The task title is missing or empty.");
  checkMaxChars(draft.title, LIMITS.topicTitleMaxChars, "TASK_TITLE_TOO_LONG", "The task title");
  checkMaxChars(draft.body, LIMITS.topicBodyMaxChars, "TASK_BODY_TOO_LONG", "The task summary");
  return draft;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** A due date: `YYYY-MM-DD` (all-day) or a UTC date-time; undefined when it is neither. */
export function parseDue(text: string): { dueAt: number; allDay: boolean } | undefined {
  const date = DATE_ONLY.exec(text);
  if (date) {
    const at = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    // Date.UTC rolls 2026-02-30 over into March; a real date formats back to itself.
    return new Date(at).toISOString().startsWith(text) ? { dueAt: at, allDay: true } : undefined;
  }
  if (!UTC_DATE_TIME.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) || new Date(at).toISOString().slice(0, 19) !== text.slice(0, 19)
    ? undefined
    : { dueAt: Math.floor(at / 1000) * 1000, allDay: false };
}

/** The task's author and the group's managers may delete it (and move it to the trash and back). */
export function mayDeleteTask(task: Task, userId: number, membership: Membership): boolean {
  return task.authorId === userId || membership.manager;
}

/**
 * Asserts the caller may delete the task.
 * @throws ForbiddenError TASK_DELETE_FORBIDDEN
 */
export function requireMayDeleteTask(task: Task, userId: number, membership: Membership): void {
  if (!mayDeleteTask(task, userId, membership))
    throw new ForbiddenError("TASK_DELETE_FORBIDDEN", "Only the task's author and the group's managers may delete it.");
}

/**
 * Asserts the task is where an action needs it: in the trash (restore, delete for good) or not (the rest).
 * @throws ConflictError TASK_IN_TRASH, TASK_NOT_IN_TRASH
 */
export function requireTaskTrashed(task: Task, trashed: boolean): void {
  if (task.trashed === trashed) return;
  if (task.trashed) throw new ConflictError("TASK_IN_TRASH", "The task is in the trash: restore it first.");
  throw new ConflictError("TASK_NOT_IN_TRASH", "The task is not in the trash: move it to the trash first.");
}
