// Where each searched kind's rows are and how a term is matched: the pieces search.ts builds its
// statements from.
import type { SearchKind } from "../../domain/search.js";
import { type IndexedTable, INDEXED_TABLES, ftsTableOf } from "../search-index.js";

/** Whose rows a kind's hits are among: the reader's searched groups, their own rows, or their rooms'. */
export type KindScope = "groups" | "owner" | "rooms";

/** Where each kind's rows are, how to tell a live one and what time sorts it. */
export interface KindSource {
  readonly indexed: IndexedTable;
  /** FROM clause naming the row `x` (and, for files, `f`), joined to the index on SQLite. */
  readonly from: (viaFts: boolean) => string;
  readonly id: string;
  /** The group a hit belongs to (`0`: none, a personal event or a chat message). */
  readonly group: string;
  readonly at: string;
  readonly live: string;
  /** `groups`: `group` is one of the searched groups; `owner`: `owner` is the reader; `rooms`: `room` is a room of theirs. */
  readonly scope: KindScope;
  /** The column naming the reader (`owner`) or the room (`rooms`). */
  readonly scopeColumn?: string;
}

const indexedTable = (table: IndexedTable["table"]) => INDEXED_TABLES.find((t) => t.table === table)!;
const ftsJoin = (table: IndexedTable["table"], key: string) =>
  `${ftsTableOf(table)} INNER JOIN ${table} x ON x.${key} = ${ftsTableOf(table)}.rowid`;

/** Each searched kind's rows, by `category` name. */
export const SOURCES: Readonly<Record<SearchKind, KindSource>> = {
  BOARD: {
    indexed: indexedTable("topics"),
    from: (fts) => (fts ? ftsJoin("topics", "id") : "topics x"),
    id: "x.id",
    group: "x.group_id",
    at: "x.updated_at",
    live: "x.trashed = 0",
    scope: "groups",
  },
  COMMENT: {
    indexed: indexedTable("comments"),
    from: (fts) => (fts ? ftsJoin("comments", "id") : "comments x"),
    id: "x.id",
    group: "x.group_id",
    at: "x.created_at",
    // As the comment feed: only comments of an item that is there and not in the trash.
    live: `CASE x.parent_kind
      WHEN 'BOARD' THEN EXISTS (SELECT 1 FROM topics p WHERE p.id = x.parent_id AND p.trashed = 0)
      WHEN 'TASK' THEN EXISTS (SELECT 1 FROM tasks p WHERE p.id = x.parent_id AND p.trashed = 0)
      ELSE EXISTS (SELECT 1 FROM files p WHERE p.id = x.parent_id AND p.trashed = 0) END`,
    scope: "groups",
  },
  TASK: {
    indexed: indexedTable("tasks"),
    from: (fts) => (fts ? ftsJoin("tasks", "id") : "tasks x"),
    id: "x.id",
    group: "x.group_id",
    at: "x.updated_at",
    live: "x.trashed = 0",
    scope: "groups",
  },
  CABINET: {
    indexed: indexedTable("file_search_texts"),
    from: (fts) =>
      `${fts ? ftsJoin("file_search_texts", "file_id") : "file_search_texts x"} INNER JOIN files f ON f.id = x.file_id`,
    id: "f.id",
    group: "f.group_id",
    at: "f.updated_at",
    live: "f.trashed = 0",
    scope: "groups",
  },
  G_SCHEDULE: {
    indexed: indexedTable("events"),
    from: (fts) => (fts ? ftsJoin("events", "id") : "events x"),
    id: "x.id",
    group: "x.group_id",
    at: "x.updated_at",
    // Every member of a group sees all of its events (docs/api.md "Events").
    live: "1 = 1",
    scope: "groups",
  },
  M_SCHEDULE: {
    indexed: indexedTable("personal_events"),
    from: (fts) => (fts ? ftsJoin("personal_events", "id") : "personal_events x"),
    id: "x.id",
    group: "0",
    at: "x.updated_at",
    live: "1 = 1",
    scope: "owner",
    scopeColumn: "x.owner_id",
  },
  M_CHAT: {
    indexed: indexedTable("chat_messages"),
    from: (fts) => (fts ? ftsJoin("chat_messages", "id") : "chat_messages x"),
    id: "x.id",
    group: "0",
    at: "x.created_at",
    live: "1 = 1",
    scope: "rooms",
    scopeColumn: "x.room_id",
  },
  GROUP: {
    indexed: indexedTable("groups"),
    from: (fts) => (fts ? ftsJoin("groups", "id") : "groups x"),
    id: "x.id",
    group: "x.id",
    at: "x.updated_at",
    live: "1 = 1",
    scope: "groups",
  },
};

/** `%term%` for LIKE with `\` as the escape character. */
export function containing(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An FTS5 query: every term as a quoted string (the trigram tokenizer matches it as a substring). */
export function ftsMatch(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(" AND ");
}
