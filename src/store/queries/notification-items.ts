// What notifications and mention notifications read alike: the caller's joined groups and the
// title and body of the item a notification is about.
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { ContentKind } from "../../domain/kinds.js";
import type { Database } from "../schema.js";

/**
 * The groups the user has joined, as a subquery. Leaving a group takes its notifications away
 * (member-admin.ts), but a feed of titles must not rely on that alone: every read checks membership.
 */
export function joinedGroupIds(db: Kysely<Database>, userId: number) {
  return db.selectFrom("memberships").select("group_id").where("user_id", "=", userId).where("status", "=", "JOIN");
}

/** The item columns a notification's details select (left joins: null for the other kinds). */
export interface ItemTextRow {
  readonly item_kind: "GROUP" | ContentKind;
  readonly group_name: string;
  readonly topic_title: string | null;
  readonly topic_body: string | null;
  readonly task_title: string | null;
  readonly task_body: string | null;
  readonly file_title: string | null;
  readonly file_memo: string | null;
  readonly file_name: string | null;
  readonly event_title: string | null;
  readonly event_body: string | null;
  readonly task_assignee_id: number | null;
  readonly file_version: number | null;
}

/** Title and body of the item; a file without a title shows its file name (docs/api.md "Shared files"). */
export function textOf(row: ItemTextRow): { title: string; body: string } {
  switch (row.item_kind) {
    case "BOARD":
      return { title: row.topic_title ?? "", body: row.topic_body ?? "" };
    case "TASK":
      return { title: row.task_title ?? "", body: row.task_body ?? "" };
    case "CABINET":
      return { title: row.file_title?.trim() ? row.file_title : (row.file_name ?? ""), body: row.file_memo ?? "" };
    case "GW_SCHEDULE":
      return { title: row.event_title ?? "", body: row.event_body ?? "" };
    case "GROUP":
      return { title: row.group_name, body: "" };
  }
}

/** What the words of an update read of the item as it is now: a task's assignee, a file's version. */
export function stateOf(row: ItemTextRow): {
  assigneeId: number | null;
  fileVersion: { number: number; name: string } | null;
} {
  return {
    assigneeId: row.item_kind === "TASK" ? row.task_assignee_id : null,
    fileVersion:
      row.item_kind === "CABINET" && row.file_version !== null
        ? { number: row.file_version, name: row.file_name ?? "" }
        : null,
  };
}

/** The columns of a row that names an item of a group: a notification, a mention, a like notification. */
interface ItemNamingRow {
  readonly item_kind: "GROUP" | ContentKind;
  readonly item_id: number;
}

/** `n.item_kind = <kind>`, for any table of rows that name items (the generic column type cannot be compared). */
const kindIs = sql.ref<string>("n.item_kind");

/**
 * The "item of any kind" join, written once: left-joins to rows `n` (with their group as `g`)
 * the topic, task, file (with its current version) or event they name, and selects the columns
 * {@link textOf} reads. The kinds' tables are those of domain/kinds.ts.
 */
export function withItemText<N extends ItemNamingRow, O>(
  query: SelectQueryBuilder<Database & { n: N; g: Database["groups"] }, "n" | "g", O>,
) {
  return query
    .leftJoin("topics as t", (join) => join.on(kindIs, "=", "BOARD").onRef("t.id", "=", "n.item_id"))
    .leftJoin("tasks as k", (join) => join.on(kindIs, "=", "TASK").onRef("k.id", "=", "n.item_id"))
    .leftJoin("files as f", (join) => join.on(kindIs, "=", "CABINET").onRef("f.id", "=", "n.item_id"))
    .leftJoin("events as e", (join) => join.on(kindIs, "=", "GW_SCHEDULE").onRef("e.id", "=", "n.item_id"))
    .leftJoin("file_versions as fv", (join) =>
      join.onRef("fv.file_id", "=", "f.id").onRef("fv.version_number", "=", "f.current_version"),
    )
    .select([
      "g.name as group_name",
      "t.title as topic_title",
      "t.body as topic_body",
      "k.title as task_title",
      "k.summary as task_body",
      "f.title as file_title",
      "f.memo as file_memo",
      "fv.file_name as file_name",
      "e.title as event_title",
      "e.memo as event_body",
      "k.assignee_id as task_assignee_id",
      "f.current_version as file_version",
    ]);
}
