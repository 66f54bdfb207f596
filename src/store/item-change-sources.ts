/**
 * The tables whose rows the delta sync's change index follows (migration 0054, item_changes), and
 * how a row names its change kind, parent and number. Frozen with migration 0054: a later change
 * is a new migration.
 */

/** One followed table: its change kind, parent id and number as SQL over a row alias. */
export interface ItemChangeSource {
  readonly table: "topics" | "tasks" | "files" | "comments";
  readonly kind: (row: string) => string;
  readonly parent: (row: string) => string;
  readonly number: (row: string) => string;
}

const constant = (value: string) => () => value;

/** Topics, tasks and files are their own kind; a comment is `<parent kind>_COMMENT` under its parent. */
export const ITEM_CHANGE_SOURCES: readonly ItemChangeSource[] = [
  { table: "topics", kind: constant("'BOARD'"), parent: constant("0"), number: constant("0") },
  { table: "tasks", kind: constant("'TASK'"), parent: constant("0"), number: constant("0") },
  { table: "files", kind: constant("'CABINET'"), parent: constant("0"), number: constant("0") },
  {
    table: "comments",
    kind: (row) => `${row}.parent_kind || '_COMMENT'`,
    parent: (row) => `${row}.parent_id`,
    number: (row) => `${row}.number`,
  },
];

/** The change kind of a departure from a group: its item id is the user's. */
export const MEMBER_LEFT = "MEMBER_LEFT";
