// An export read into what Kairan will write: text checked by the same rules as every other write,
// times turned into moments of the import's zone, attachments the export lacks noted in the text.
// A record that breaks a rule stops the import here, before any write, naming its file and line.
import type { ExportBundle, ImportProblem } from "../../domain/cybozulive/bundle.js";
import { toUtc } from "../../domain/cybozulive/dates.js";
import type { EventRecord } from "../../domain/cybozulive/events.js";
import type { ItemRecord, TaskRecord } from "../../domain/cybozulive/items.js";
import { normalName } from "../../domain/cybozulive/people.js";
import { checkCommentText } from "../../domain/comment.js";
import { type EventDraft, checkNamedName } from "../../domain/event.js";
import { resolveEventDraft } from "../../domain/event-draft.js";
import { type TaskPriority, type TaskStatus, checkTaskText } from "../../domain/task.js";
import { checkTopicDraft } from "../../domain/topic.js";
import { type PlannedChatRoom, planChatRooms } from "./cybozulive-plan-chat.js";
import { type PlanContext, type Place, at, checked, withNote } from "./cybozulive-plan-rules.js";

export type { PlannedChatRoom, PlannedMessage } from "./cybozulive-plan-chat.js";
export { MISSING_ATTACHMENTS_NOTE, type Place } from "./cybozulive-plan-rules.js";

/** A comment to write. */
export interface PlannedComment {
  readonly number: number;
  readonly author: string;
  readonly body: string;
  readonly at: number;
}

/** What topics, tasks and events share. */
interface PlannedItem {
  /** The import key: the row's ID, or for events the derived key. */
  readonly key: string;
  readonly author: string;
  readonly comments: readonly PlannedComment[];
}

/** A topic to write. */
export interface PlannedTopic extends PlannedItem {
  readonly title: string;
  readonly body: string;
  readonly created: number;
  readonly updated: number;
}

/** A task to write; `assignee` is the first of the row's (a Kairan task has one). */
export interface PlannedTask extends PlannedTopic {
  readonly status: TaskStatus;
  readonly priority: TaskPriority;
  readonly assignee: string | null;
  readonly due: { readonly dueAt: number; readonly allDay: boolean } | null;
}

/** An event to write; its menu is found or made by name when written. */
export interface PlannedEvent extends PlannedItem {
  readonly draft: EventDraft;
  readonly menu: string;
}

/** Everything to write, the names of every person in it, and what was found on the way. */
export interface ImportPlan {
  readonly topics: readonly PlannedTopic[];
  readonly tasks: readonly PlannedTask[];
  readonly events: readonly PlannedEvent[];
  readonly chatRooms: readonly PlannedChatRoom[];
  readonly names: ReadonlySet<string>;
  /** Where each name is first met, for the problems that name it. */
  readonly places: ReadonlyMap<string, Place>;
  readonly problems: readonly ImportProblem[];
}

/**
 * Checks and converts everything read. Items come oldest first (the files list them newest first).
 * @throws ImportFileError a record that breaks a rule of Kairan's (a title too long...), with its place
 */
export function planImport(bundle: ExportBundle, zone: string): ImportPlan {
  const problems = [...bundle.problems];
  const places = new Map<string, Place>();
  const person = (name: string, place: Place) => {
    const normal = normalName(name);
    if (!places.has(normal)) places.set(normal, { file: place.file, line: place.line });
    return normal;
  };
  for (const member of bundle.members) person(member.name, member);
  const context = { zone, problems, person };
  const byCreated = <T extends ItemRecord>(items: readonly T[]) =>
    [...items].sort((a, b) => a.created - b.created || a.line - b.line);
  return {
    topics: byCreated(bundle.topics).map((record) => planTopic(record, context)),
    tasks: byCreated(bundle.tasks).map((record) => planTask(record, context)),
    events: [...bundle.events].sort((a, b) => a.start - b.start || a.line - b.line).map((r) => planEvent(r, context)),
    chatRooms: planChatRooms(bundle.chatRooms, context),
    names: new Set(places.keys()),
    places,
    problems,
  };
}

function planComments(record: ItemRecord | EventRecord, context: PlanContext): PlannedComment[] {
  return record.comments.map((comment) => ({
    number: comment.number,
    author: context.person(comment.author, comment),
    body: checked(comment, () => checkCommentText(withNote(comment.body, comment, context), 0)),
    at: toUtc(comment.wall, context.zone),
  }));
}

function planTopic(record: ItemRecord, context: PlanContext): PlannedTopic {
  const title = untitled(record.title, record, context);
  const draft = checked(record, () => checkTopicDraft({ title, body: withNote(record.body, record, context) }));
  const comments = planComments(record, context);
  const created = toUtc(record.created, context.zone);
  // The row's update time is the newest comment's in the samples; a comment never postdates it here.
  const updated = Math.max(toUtc(record.updated, context.zone), ...comments.map((comment) => comment.at));
  return { key: record.sourceId, author: context.person(record.author, record), ...draft, created, updated, comments };
}

function planTask(record: TaskRecord, context: PlanContext): PlannedTask {
  const topic = planTopic(record, context);
  const text = checked(record, () => checkTaskText({ title: topic.title, body: topic.body }));
  const [first, ...others] = record.assignees.map((name) => context.person(name, record));
  let body = text.body;
  if (others.length > 0) {
    context.problems.push({
      file: record.file,
      line: record.line,
      column: 0,
      kind: "EXTRA_ASSIGNEES",
      message: `a Kairan task has one assignee: ${first} is assigned, ${others.join(", ")} named in the text`,
    });
    body = `${body}${body === "" ? "" : "\n\n"}担当者 (Assignees): ${[first, ...others].join(", ")}`;
    body = checked(record, () => checkTaskText({ title: text.title, body })).body;
  }
  const due =
    record.due === null
      ? null
      : record.due.hasTime
        ? { dueAt: toUtc(record.due.wall, context.zone), allDay: false }
        : { dueAt: record.due.wall, allDay: true };
  const { status, priority } = record;
  return { ...topic, ...text, body, status, priority, assignee: first ?? null, due };
}

/** A title, or "---" (as aipocom did) for a row without one, reported. */
function untitled(title: string, record: { file: string; line: number }, context: PlanContext): string {
  if (title.trim() !== "") return title;
  context.problems.push({ ...at(record), kind: "NO_TITLE", message: 'the row has no title: "---" is used' });
  return "---";
}

function planEvent(record: EventRecord, context: PlanContext): PlannedEvent {
  const title = untitled(record.title, record, context);
  const when = record.allDay
    ? { startTime: isoDate(record.start), endTime: isoDate(record.end) }
    : { startTime: isoMoment(toUtc(record.start, context.zone)), endTime: isoMoment(toUtc(record.end, context.zone)) };
  const draft = checked(record, () =>
    resolveEventDraft(
      {
        title,
        memo: withNote(record.memo, record, context),
        when,
        allDay: record.allDay,
        timeZone: context.zone,
        rule: undefined,
        menuId: null,
        participantIds: [],
        facilityIds: [],
        exceptions: [],
        occurrences: [],
      },
      context.zone,
    ),
  );
  return {
    key: record.key,
    author: context.person(record.author, record),
    comments: planComments(record, context),
    draft,
    menu: record.menu === "" ? "" : checked(record, () => checkNamedName(record.menu)),
  };
}

function isoDate(day: number): string {
  return new Date(day).toISOString().slice(0, 10);
}

function isoMoment(moment: number): string {
  return new Date(moment).toISOString().replace(".000", "");
}
