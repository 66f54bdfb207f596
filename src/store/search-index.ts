// What the full-text index covers, table by table: the one list both engines' migrations, the
// search queries and `kairan reindex` build from (docs/architecture.md "Search").

/** An indexed table: its key and the text columns searched. */
export interface IndexedTable {
  readonly table:
    "topics" | "comments" | "tasks" | "file_search_texts" | "events" | "personal_events" | "chat_messages" | "groups";
  readonly key: "id" | "file_id";
  readonly columns: readonly string[];
}

/**
 * Migration 0014's tables (frozen with it: a later table is a later migration's list below). Topics (title, body), comments, tasks (title, text), and shared files through
 * `file_search_texts` (title, memo, current file name and the start of a plain-text file, written
 * with the file by the files repository).
 */
export const INDEXED_TABLES_0014: readonly IndexedTable[] = [
  { table: "topics", key: "id", columns: ["title", "body"] },
  { table: "comments", key: "id", columns: ["body"] },
  { table: "tasks", key: "id", columns: ["title", "summary"] },
  { table: "file_search_texts", key: "file_id", columns: ["body"] },
];

/**
 * Added by migration 0047 (issue 31): group events and personal events (title, memo), chat
 * messages, and groups (name, description). Chat messages are the one busy table among them: each
 * message written also writes its trigrams (SQLite: an FTS5 row in the same transaction;
 * PostgreSQL: the GIN index's pending list), as comments have since 0014.
 */
export const INDEXED_TABLES_0047: readonly IndexedTable[] = [
  { table: "events", key: "id", columns: ["title", "memo"] },
  { table: "personal_events", key: "id", columns: ["title", "memo"] },
  { table: "chat_messages", key: "id", columns: ["body"] },
  { table: "groups", key: "id", columns: ["name", "summary"] },
];

/** Every indexed table: what the search queries and `kairan reindex` cover. */
export const INDEXED_TABLES: readonly IndexedTable[] = [...INDEXED_TABLES_0014, ...INDEXED_TABLES_0047];

/** SQLite: the FTS5 table (trigram tokenizer, external content) that indexes `table`. */
export function ftsTableOf(table: IndexedTable["table"]): string {
  return `${table}_fts`;
}

/** PostgreSQL: the GIN trigram index on `table`'s searched text. */
export function trigramIndexOf(table: IndexedTable["table"]): string {
  return `${table}_search`;
}

/** The searched text of a row as one SQL expression (the same on both engines; PostgreSQL indexes exactly it). */
export function searchedText(indexed: IndexedTable, alias: string): string {
  return indexed.columns.map((column) => `${alias}.${column}`).join(" || ' ' || ");
}
