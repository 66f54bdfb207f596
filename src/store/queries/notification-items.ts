// What notifications and mention notifications read alike: the caller's joined groups and the
// title and body of the item a notification is about.
import type { Kysely } from "kysely";
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
  readonly item_kind: "GROUP" | "BOARD" | "TASK" | "CABINET" | "GW_SCHEDULE";
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
