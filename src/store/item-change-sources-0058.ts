/**
 * The tables migration 0058 adds to the delta sync's change index (item_changes): the member list,
 * the group events and the ToDo list (a person's scope). Frozen with migration 0058: a later
 * change is a new migration.
 */

/** A table whose rows are items of a feed: each row has its own change row. */
export interface ItemRowSource {
  readonly table: "memberships" | "events" | "personal_tasks";
  /** The change kind, a SQL literal. */
  readonly kind: string;
  /** The scope owner as SQL over a row alias: the group, or minus the user for a person's scope. */
  readonly owner: (row: string) => string;
  /** A person's scope: the user whose version lock numbers the rows on PostgreSQL. */
  readonly user?: (row: string) => string;
}

/**
 * A table whose rows are parts of another item (an event's participants, facilities and
 * exceptions): a write of one is a change of that item, so it renumbers the item's row (and never
 * brings back a tombstone).
 */
export interface ItemPartSource {
  readonly table: "event_participants" | "event_facilities" | "event_exceptions";
  readonly kind: string;
  /** The column naming the item. */
  readonly item: "event_id";
}

/** A member list entry is a membership (joined or invited); `item_id` is the membership's id. */
export const MEMBER_KIND = "MEMBER";
/** A group event; its id is the event's (the same kind names its comments' parent: GW_SCHEDULE_COMMENT). */
export const EVENT_KIND = "GW_SCHEDULE";

/** A person's own task in their ToDo list (scope: minus the owner's id). */
export const TODO_KIND = "TODO";
/**
 * A group task assigned to a person, in that person's ToDo list (scope: minus the assignee's id;
 * parent: the task's group). Its own kind: task ids and personal task ids may be equal.
 */
export const TODO_TASK_KIND = "TODO_TASK";

export const ITEM_ROW_SOURCES_0058: readonly ItemRowSource[] = [
  { table: "memberships", kind: `'${MEMBER_KIND}'`, owner: (row) => `${row}.group_id` },
  { table: "events", kind: `'${EVENT_KIND}'`, owner: (row) => `${row}.group_id` },
  {
    table: "personal_tasks",
    kind: `'${TODO_KIND}'`,
    owner: (row) => `-${row}.user_id`,
    user: (row) => `${row}.user_id`,
  },
];

export const ITEM_PART_SOURCES_0058: readonly ItemPartSource[] = [
  { table: "event_participants", kind: `'${EVENT_KIND}'`, item: "event_id" },
  { table: "event_facilities", kind: `'${EVENT_KIND}'`, item: "event_id" },
  { table: "event_exceptions", kind: `'${EVENT_KIND}'`, item: "event_id" },
];
